#include "system_matrix.hpp"

#include <algorithm>
#include <string>

#include "solvers/core/error.hpp"

namespace tb::systems {

SystemMatrix::SystemMatrix(DeviceStorage& storage) : storage_(storage) {}

SystemMatrix::~SystemMatrix() { release(); }

void SystemMatrix::release() {
  for (Buffer* b : {&row_ptr_, &col_idx_, &values_, &off_values_}) {
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

void SystemMatrix::set_pattern(const BsrMatrix& p) { lay_out(p, nullptr); }

void SystemMatrix::set_pattern(const BsrMatrix& p, const BsrMatrix& off_rank) { lay_out(p, &off_rank); }

namespace {
// a's pattern into `to`, its values left empty.
void take_pattern(const BsrMatrix& a, BsrMatrix& to) {
  to.block_size = a.block_size, to.block_rows = a.block_rows, to.block_cols = a.block_cols;
  to.row_ptr = a.row_ptr, to.col_idx = a.col_idx;
  to.values.clear();
}
}  // namespace

// off: null where the rows are not split.
void SystemMatrix::lay_out(const BsrMatrix& p, const BsrMatrix* off) {
  const bool split = off != nullptr;
  if (generations_.pattern > 0 && p.same_pattern(host_) && split == split_ && (!split || off->same_pattern(host_off_)))
    return;
  p.validate();
  if (split) {
    off->validate_pattern();
    if (off->block_rows != p.block_rows || off->block_size != p.block_size)
      throw Error("internal: off-rank blocks of " + std::to_string(off->block_rows) + " rows of " +
                  std::to_string(off->block_size) + " beside a matrix of " + std::to_string(p.block_rows) +
                  " rows of " + std::to_string(p.block_size));
  }
  split_ = split;
  // The host's values are allocated when the host first holds them (on_host,
  // values_written_on_host): a run that assembles and solves on the device
  // never does. A later pattern keeps what they held (clear, not free).
  take_pattern(p, host_);
  take_pattern(split ? *off : BsrMatrix(), host_off_);
  value_count_ = std::size_t(p.nnz_blocks()) * std::size_t(p.block_entries());
  off_count_ = split ? std::size_t(off->nnz_blocks()) * std::size_t(off->block_entries()) : 0;
  const auto lay = [&](Buffer& b, const void* host, std::size_t bytes) {
    place(b, bytes);
    if (host) storage_.to_device(b.data, host, bytes);
  };
  lay(row_ptr_, host_.row_ptr.data(), host_.row_ptr.size() * sizeof(index_t));
  lay(col_idx_, host_.col_idx.data(), host_.col_idx.size() * sizeof(index_t));
  lay(values_, nullptr, value_count_ * sizeof(double));
  lay(off_values_, nullptr, off_count_ * sizeof(double));
  ++generations_.pattern;
  host_current_ = device_current_ = false;
}

void SystemMatrix::require_pattern() const {
  if (generations_.pattern == 0) throw Error("internal: values of a system on the device before its pattern was set");
}

DeviceValues SystemMatrix::device_values() {
  require_pattern();
  return {static_cast<double*>(values_.data), value_count_, static_cast<double*>(off_values_.data), off_count_};
}

void SystemMatrix::values_written_on_device() {
  require_pattern();
  ++generations_.values;
  device_current_ = true, host_current_ = false;
}

void SystemMatrix::values_written_on_host(const BsrMatrix& a) {
  if (off_count_ > 0) throw Error("internal: split rows written on the host into a system kept for the device");
  set_pattern(a);
  host_.values.assign(a.values.begin(), a.values.end());
  ++generations_.values;
  host_current_ = true, device_current_ = false;
}

const BsrMatrix& SystemMatrix::on_host() {
  require_pattern();
  if (host_.values.size() != value_count_) host_.values.assign(value_count_, 0.0);
  if (host_off_.values.size() != off_count_) host_off_.values.assign(off_count_, 0.0);
  if (!host_current_ && device_current_) {
    storage_.to_host(host_.values.data(), values_.data, values_.bytes);
    if (off_count_ > 0) storage_.to_host(host_off_.values.data(), off_values_.data, off_values_.bytes);
    host_current_ = true;
  }
  return host_;
}

BsrView SystemMatrix::on_device() {
  require_pattern();
  if (!device_current_ && host_current_) {
    storage_.to_device(values_.data, host_.values.data(), values_.bytes);
    if (off_count_ > 0) storage_.to_device(off_values_.data, host_off_.values.data(), off_values_.bytes);
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
