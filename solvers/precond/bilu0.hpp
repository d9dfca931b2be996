#pragma once
// Sequential block ILU(0) on a BSR matrix in natural order: the factors keep A's
// block pattern; diagonal blocks of U are stored inverted so the backward sweep
// multiplies instead of solving.
#include <vector>

#include "solvers/matrix/bsr.hpp"

namespace tb {

struct Bilu0Factors {
  BsrMatrix lu;                   // L (unit block-lower, stored below the diagonal) and U (on and above), inverted diagonal
  std::vector<index_t> diag;      // position of each diagonal block in lu.col_idx
};

// Symbolic part: copies the pattern and finds the diagonals. Throws when a
// diagonal block is missing.
Bilu0Factors bilu0_symbolic(const BsrMatrix& a);
// Numeric part on the symbolic factors; throws naming the block row of a
// singular pivot block.
void bilu0_factor_ref(const BsrMatrix& a, Bilu0Factors& f);
// z = (LU)^{-1} r by the forward and backward block sweeps.
void bilu0_apply_ref(const Bilu0Factors& f, const double* r, double* z);

}  // namespace tb
