#include "system_matrix.hpp"

#include <algorithm>

#include "solvers/core/error.hpp"

namespace tb::systems {

SystemMatrix::SystemMatrix(DeviceStorage& storage) : storage_(storage) {}

SystemMatrix::~SystemMatrix() { release(); }

void SystemMatrix::release() {
  for (Buffer* b : {&row_ptr_, &col_idx_, &values_}) {
    storage_.release(b->data);
    *b = {};
  }
}

void SystemMatrix::place(Buffer& b, std::size_t bytes) {
  if (bytes > b.capacity) {
    storage_.release(b.data);
    const std::size_t capacity = generations_.pattern == 0 ? bytes : bytes + bytes / 4;  // the first: exact
    b = {storage_.allocate(capacity), 0, capacity};
  }
  b.bytes = bytes;
}

void SystemMatrix::set_pattern(const BsrMatrix& p) {
  if (generations_.pattern > 0 && p.block_size == host_.block_size && p.block_cols == host_.block_cols &&
      p.row_ptr == host_.row_ptr && p.col_idx == host_.col_idx)
    return;
  p.validate();
  host_.block_size = p.block_size, host_.block_rows = p.block_rows, host_.block_cols = p.block_cols;
  host_.row_ptr = p.row_ptr, host_.col_idx = p.col_idx;
  // The host's values are allocated when the host first holds them (on_host,
  // values_written_on_host): a run that assembles and solves on the device
  // never does. A later pattern keeps what they held (clear, not free).
  host_.values.clear();
  value_count_ = std::size_t(p.nnz_blocks()) * std::size_t(p.block_entries());
  const auto lay_out = [&](Buffer& b, const void* host, std::size_t bytes) {
    place(b, bytes);
    if (host) storage_.to_device(b.data, host, bytes);
  };
  lay_out(row_ptr_, host_.row_ptr.data(), host_.row_ptr.size() * sizeof(index_t));
  lay_out(col_idx_, host_.col_idx.data(), host_.col_idx.size() * sizeof(index_t));
  lay_out(values_, nullptr, value_count_ * sizeof(double));
  ++generations_.pattern;
  host_current_ = device_current_ = false;
}

void SystemMatrix::require_pattern() const {
  if (generations_.pattern == 0) throw Error("internal: values of a system on the device before its pattern was set");
}

DeviceValues SystemMatrix::device_values() {
  require_pattern();
  return {static_cast<double*>(values_.data), value_count_};
}

void SystemMatrix::values_written_on_device() {
  require_pattern();
  ++generations_.values;
  device_current_ = true, host_current_ = false;
}

void SystemMatrix::values_written_on_host(const BsrMatrix& a) {
  set_pattern(a);
  host_.values.assign(a.values.begin(), a.values.end());
  ++generations_.values;
  host_current_ = true, device_current_ = false;
}

const BsrMatrix& SystemMatrix::on_host() {
  require_pattern();
  if (host_.values.size() != value_count_) host_.values.assign(value_count_, 0.0);
  if (!host_current_ && device_current_) {
    storage_.to_host(host_.values.data(), values_.data, values_.bytes);
    host_current_ = true;
  }
  return host_;
}

BsrView SystemMatrix::on_device() {
  require_pattern();
  if (!device_current_ && host_current_) {
    storage_.to_device(values_.data, host_.values.data(), values_.bytes);
    device_current_ = true;
  }
  return {host_.block_size,
          host_.block_rows,
          host_.block_cols,
          static_cast<const index_t*>(row_ptr_.data),
          static_cast<const index_t*>(col_idx_.data),
          static_cast<const double*>(values_.data)};
}

}  // namespace tb::systems
