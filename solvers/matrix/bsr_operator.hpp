#pragma once
// A BSR matrix copied onto a backend, applied as a LinearOperator. The pattern is
// copied once (set-up); update_values moves only the numbers (each time step).
#include "bsr.hpp"
#include "solvers/core/array.hpp"
#include "solvers/core/linear_operator.hpp"

namespace tb {

class BsrOperator final : public LinearOperator {
 public:
  BsrOperator(const BsrMatrix& a, Backend backend);
  void update_values(const BsrMatrix& a);  // same pattern as at construction, else tb::Error

  index_t rows() const override { return block_size_ * block_rows_; }
  Backend backend() const override { return backend_; }
  void apply(const Vector& x, Vector& y) const override;
  BsrView view() const;

 private:
  Backend backend_;
  index_t block_size_, block_rows_, block_cols_;
  Array<index_t> row_ptr_, col_idx_;
  Array<double> values_;
};

}  // namespace tb
