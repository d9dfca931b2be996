#pragma once
// The symbolic part of the asynchronous ILU(0), done once per pattern: the
// diagonal positions and, for every stored block (i, j), the pairs of block
// positions ((i, k), (k, j)), k < min(i, j), that Eq. 18 (Eq. 10 for b = 1)
// subtracts, in ascending k. Ascending k is the order of the sequential IKJ
// elimination, so one ordered sweep reproduces BILU(0) exactly.
#include <vector>

#include "row_kernels.hpp"
#include "solvers/matrix/bsr.hpp"

namespace tb::async_ilu {

struct FactorPattern {
  std::vector<index_t> diag;
  std::vector<index_t> prod_ptr, prod_l, prod_u;
};

// Throws tb::Error naming the first block row without a diagonal block.
FactorPattern factor_pattern(const BsrMatrix& a);

// Host view of a pattern and A's values (both must outlive the view).
FactorView host_view(const BsrMatrix& a, const FactorPattern& p, const double* a_values);

}  // namespace tb::async_ilu
