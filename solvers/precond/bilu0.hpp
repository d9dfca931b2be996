#pragma once
// Sequential block ILU(0) on a BSR matrix in natural order: the factors keep A's
// block pattern; diagonal blocks of U are stored inverted so the backward sweep
// multiplies instead of solving.
#include <vector>

#include "solvers/matrix/bsr.hpp"

namespace tb {

struct Bilu0Factors {
  BsrMatrix pattern;          // A's block pattern (no values: the factors live in `values` below)
  std::vector<index_t> diag;  // position of each diagonal block in pattern.col_idx

  // The sweep layout: L's blocks row by row, and U's rows in reverse order
  // (each row: inverted diagonal, then its blocks from the farthest column to
  // the nearest), so that both sweeps stream memory forward: a descending
  // stream defeats the hardware prefetcher (PETSc's BAIJ factors are stored the
  // same way for the same reason).
  std::vector<index_t> l_ptr, l_col, u_ptr, u_col;
  // L's blocks (l_ptr), then U's (u_ptr): the factorisation works here too,
  // through `place`, so the factors are held once (no copy in A's layout beside
  // them).
  std::vector<double> values;
  std::vector<index_t> place;  // block k of A's pattern is block place[k] of `values`

  std::size_t block_entries() const { return std::size_t(pattern.block_entries()); }
  const double* l_values() const { return values.data(); }
  const double* u_values() const { return values.data() + l_col.size() * block_entries(); }
  // The factor block at position k of A's pattern (the diagonal: inverted).
  double* block(index_t k) { return values.data() + std::size_t(place[std::size_t(k)]) * block_entries(); }
  const double* block(index_t k) const { return values.data() + std::size_t(place[std::size_t(k)]) * block_entries(); }
  // Every block in A's pattern order (a copy, for diagnostics and tests).
  std::vector<double> values_in_pattern() const;
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
