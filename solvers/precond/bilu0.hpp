#pragma once
// Sequential block ILU(0) on a BSR matrix in natural order: the factors keep A's
// block pattern; diagonal blocks of U are stored inverted so the backward sweep
// multiplies instead of solving.
#include <vector>

#include "solvers/matrix/bsr.hpp"

namespace tb {

struct Bilu0Factors {
  BsrMatrix lu;               // L (unit block-lower, stored below the diagonal) and U (on and above), inverted diagonal
  std::vector<index_t> diag;  // position of each diagonal block in lu.col_idx

  // The sweep layout, refilled from lu after every factorisation: L's blocks
  // row by row, and U's rows in reverse order (each row: inverted diagonal, then
  // its blocks from the farthest column to the nearest), so that both sweeps
  // stream memory forward. On the benchmark machine the backward sweep over
  // lu itself, a descending stream, ran 5x slower (PETSc's BAIJ factors are
  // stored the same way for the same reason).
  std::vector<index_t> l_ptr, l_col, u_ptr, u_col;
  std::vector<double> l_val, u_val;
};

// Symbolic part: copies the pattern and finds the diagonals. Throws when a
// diagonal block is missing.
Bilu0Factors bilu0_symbolic(const BsrMatrix& a);
// The numeric factorisation and the sweeps are the room's kernels
// (kernels.hpp: precond::kernels::ref::bilu0_factor, bilu0_apply).
// The block sweeps for any block size: bilu0_apply's twin for block size 1,
// where it carries each row's value in a register instead (the same bits).
void bilu0_apply_blocks(const Bilu0Factors& f, const double* r, double* z);

}  // namespace tb
