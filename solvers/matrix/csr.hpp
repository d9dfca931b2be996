#pragma once
// Scalar compressed sparse row matrix, columns sorted within each row.
#include <vector>

#include "solvers/core/types.hpp"

namespace tb {

struct CsrMatrix {
  index_t rows = 0;
  index_t cols = 0;
  std::vector<index_t> row_ptr{0};
  std::vector<index_t> col_idx;
  std::vector<double> values;

  index_t nnz() const { return index_t(col_idx.size()); }
  // Checks sizes, index ranges, sorted and unique columns; throws tb::Error naming the row.
  void validate() const;
};

// y = A x, sequential.
void spmv_ref(const CsrMatrix& a, const double* x, double* y);

}  // namespace tb
