#pragma once
// A BSR matrix on a backend, applied as a LinearOperator. By default the
// operator holds its own copy: the pattern copied once (set-up), the numbers
// moved by update_values (each time step). On the host it may borrow the
// caller's matrix instead (Storage::borrow): no copy at all, and update_values
// points at the matrix it is given; the caller keeps that matrix alive and
// unchanged until the products that follow are done (the harness's solver
// slots, which pass the physics' own matrix and solve at once).
#include "bsr.hpp"
#include "solvers/core/array.hpp"
#include "solvers/core/linear_operator.hpp"

namespace tb {

class BsrOperator final : public LinearOperator {
 public:
  enum class Storage { copy, borrow };
  // Borrowing applies to the host backend only; elsewhere the matrix is copied.
  // A pattern without values (a.values empty) holds none: apply_in_place gives
  // them, or update_values, which then lays them out once.
  BsrOperator(const BsrMatrix& a, Backend backend, Storage storage = Storage::copy);
  void update_values(const BsrMatrix& a);  // same pattern as at construction, else tb::Error
  // Applies a matrix that already lives on the operator's backend, where it is
  // (a device-assembled system's arrays): no copy; the caller keeps the arrays
  // alive and unchanged until the products that follow are done. The same
  // shape as at construction, else tb::Error; update_values() ends it.
  void apply_in_place(const BsrView& a);
  bool borrows() const { return borrowed_ != nullptr; }

  index_t rows() const override { return block_size_ * block_rows_; }
  Backend backend() const override { return backend_; }
  void apply(const Vector& x, Vector& y) const override;
  BsrView view() const;
  // The operator's own copy of the values on its backend, for a caller that
  // computes them there; null where it borrows or applies arrays in place.
  double* values_on_backend() { return borrowed_ || in_place_.values ? nullptr : values_.data(); }

 private:
  Backend backend_;
  index_t block_size_, block_rows_, block_cols_;
  Array<index_t> row_ptr_, col_idx_;
  Array<double> values_;
  const BsrMatrix* borrowed_ = nullptr;  // Storage::borrow on the host: the matrix applied
  BsrView in_place_{};                   // apply_in_place: the arrays applied (values null: none)
};

}  // namespace tb
