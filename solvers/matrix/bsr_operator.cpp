#include "bsr_operator.hpp"

#include <string>

#include "kernels.hpp"
#include "solvers/core/error.hpp"

namespace tb {

namespace {
// Only the host can apply the caller's arrays where they are.
bool can_borrow(BsrOperator::Storage storage, Backend backend) {
  return storage == BsrOperator::Storage::borrow && backend == Backend::host;
}

// Borrowing, nothing is copied: the arrays stay empty and the caller's matrix is applied.
template <class T>
Array<T> copy_unless(bool borrow, Backend backend, const std::vector<T>& v) {
  return borrow ? Array<T>() : Array<T>(backend, std::span<const T>(v));
}
}  // namespace

BsrOperator::BsrOperator(const BsrMatrix& a, Backend backend, Storage storage)
    : backend_(backend),
      block_size_(a.block_size),
      block_rows_(a.block_rows),
      block_cols_(a.block_cols),
      row_ptr_(copy_unless(can_borrow(storage, backend), backend, a.row_ptr)),
      col_idx_(copy_unless(can_borrow(storage, backend), backend, a.col_idx)),
      values_(copy_unless(can_borrow(storage, backend), backend, a.values)),
      borrowed_(can_borrow(storage, backend) ? &a : nullptr) {
  if (block_rows_ != block_cols_)
    throw Unsupported("BsrOperator: the matrix is not square (" + std::to_string(a.rows()) + "x" +
                      std::to_string(a.cols()) + ")");
}

void BsrOperator::update_values(const BsrMatrix& a) {
  if (!borrowed_ && values_.size() == 0 && col_idx_.size() > 0 && a.block_size == block_size_ &&
      a.block_rows == block_rows_ && a.values.size() == col_idx_.size() * std::size_t(a.block_entries()))
    values_ = Array<double>(backend_, a.values.size());  // set up from a pattern alone: values laid out now
  const std::size_t held = borrowed_ ? borrowed_->values.size() : values_.size();
  if (a.block_size != block_size_ || a.block_rows != block_rows_ || a.values.size() != held)
    throw Error("BsrOperator::update_values: the matrix pattern changed since set-up; call setup() again");
  in_place_ = {};
  if (borrowed_)
    borrowed_ = &a;
  else
    values_.copy_from_host(a.values);
}

void BsrOperator::apply_in_place(const BsrView& a) {
  if (a.block_size != block_size_ || a.block_rows != block_rows_ || a.block_cols != block_cols_ || !a.values)
    throw Error("BsrOperator::apply_in_place: the matrix's shape changed since set-up; call setup() again");
  in_place_ = a;
}

BsrView BsrOperator::view() const {
  if (in_place_.values) return in_place_;
  if (borrowed_)
    return {block_size_,
            block_rows_,
            block_cols_,
            borrowed_->row_ptr.data(),
            borrowed_->col_idx.data(),
            borrowed_->values.data()};
  return {block_size_, block_rows_, block_cols_, row_ptr_.data(), col_idx_.data(), values_.data()};
}

void BsrOperator::apply(const Vector& x, Vector& y) const {
  if (x.size() != std::size_t(rows()) || y.size() != std::size_t(rows()) || x.backend() != backend_ ||
      y.backend() != backend_)
    throw Error("BsrOperator::apply: vector size or backend does not match the operator");
  kernels::bsr_spmv(backend_, view(), x.data(), y.data());
}

}  // namespace tb
