#include "csr.hpp"

#include <string>

#include "solvers/core/error.hpp"

namespace tb {

void CsrMatrix::validate() const {
  auto fail = [](const std::string& m) { throw Error("CSR matrix: " + m); };
  if (rows < 0 || cols < 0) fail("negative dimensions");
  if (row_ptr.size() != std::size_t(rows) + 1)
    fail("row_ptr has " + std::to_string(row_ptr.size()) + " entries, expected rows+1");
  if (row_ptr[0] != 0 || std::size_t(row_ptr[rows]) != col_idx.size() || values.size() != col_idx.size())
    fail("row_ptr, col_idx and values disagree on the number of entries");
  for (index_t i = 0; i < rows; ++i) {
    if (row_ptr[i + 1] < row_ptr[i]) fail("row_ptr decreases at row " + std::to_string(i));
    for (index_t k = row_ptr[i]; k < row_ptr[i + 1]; ++k) {
      if (col_idx[k] < 0 || col_idx[k] >= cols) fail("column index out of range in row " + std::to_string(i));
      if (k > row_ptr[i] && col_idx[k] <= col_idx[k - 1])
        fail("columns not sorted and unique in row " + std::to_string(i));
    }
  }
}

void spmv_ref(const CsrMatrix& a, const double* x, double* y) {
  for (index_t i = 0; i < a.rows; ++i) {
    double s = 0.0;
    for (index_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) s += a.values[k] * x[a.col_idx[k]];
    y[i] = s;
  }
}

}  // namespace tb
