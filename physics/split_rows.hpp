#pragma once
// A rank's rows of a decomposed system, assembled split as the distributed
// solvers keep them (docs/distributed.md; solvers/dist/row_distribution.hpp): the owned
// entries' columns in one matrix (square, the piece's own numbering), the
// ghosts' in an off-rank matrix whose columns the physics names by their
// global rows. A symbolic position says where a block goes: p >= 0 is block p
// of the owned matrix, p <= -2 block off_rank_block(p) of the off-rank one,
// -1 none. On a whole domain every position is >= 0. No MPI here.
#include "solvers/matrix/bsr.hpp"

namespace tb {

constexpr index_t no_block = -1;
constexpr index_t off_rank_position(index_t block) { return -2 - block; }
constexpr index_t off_rank_block(index_t position) { return -2 - position; }

// The block at `position` (not no_block): in a, or in off_rank for a ghost's column.
inline double* block_at(BsrMatrix& a, BsrMatrix* off_rank, index_t position) {
  return position >= 0 ? a.block(position) : off_rank->block(off_rank_block(position));
}
inline const double* block_at(const BsrMatrix& a, const BsrMatrix* off_rank, index_t position) {
  return position >= 0 ? a.block(position) : off_rank->block(off_rank_block(position));
}

}  // namespace tb
