#pragma once
// The incomplete factors ParILU and ParILUT (seed 003) iterate on: L unit lower
// triangular in CSR (the unit diagonal stored, so each row ends with it), U
// upper triangular in CSR with its diagonal first in each row, and U's pattern
// also in CSC. The CSC holds no values of its own: csc_to_csr names the CSR
// position of each entry, so a sweep writes U's values once and both views
// see them.
#include <vector>

#include "solvers/matrix/csr.hpp"

namespace tb::parilut {

struct UpperColumns {
  std::vector<index_t> col_ptr{0};
  std::vector<index_t> row_idx;
  std::vector<index_t> csc_to_csr;
};

struct IluFactors {
  CsrMatrix l;
  CsrMatrix u;
  UpperColumns u_cols;

  index_t rows() const { return l.rows; }
  // Off-diagonal entries of L and U: what the fill budget counts.
  long long off_diagonal_nnz() const { return (long long)l.nnz() + u.nnz() - 2LL * l.rows; }
};

// ParILUT's initial guess (seed 003 §II): L = tril(A) scaled by the diagonal,
// l_ij = a_ij / a_jj, U = triu(A). Throws tb::Error naming the first row with a
// missing or zero diagonal.
IluFactors initial_factors(const CsrMatrix& a);

// Rebuilds U's CSC view after U's pattern changed.
void rebuild_upper_columns(IluFactors& f);

// Position of a_ij in A's row i (columns sorted), or -1.
index_t find_entry(const CsrMatrix& a, index_t i, index_t j);

// Splits A into its strictly lower and upper nonzero counts (the fill budget's units).
struct TriangleCounts {
  long long strict_lower = 0, strict_upper = 0;
};
TriangleCounts triangle_counts(const CsrMatrix& a);

}  // namespace tb::parilut
