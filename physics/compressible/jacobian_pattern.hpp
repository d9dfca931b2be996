#pragma once
// The block pattern of the first-order Jacobian on a Mesh2D: per cell row the
// diagonal block and one block per face neighbour, columns sorted. Built once per
// mesh (symbolic); each step only refills the values through the face positions.
#include <span>
#include <vector>

#include "mesh/mesh2d.hpp"
#include "physics/compressible/gas.hpp"
#include "physics/split_rows.hpp"
#include "solvers/matrix/bsr.hpp"

namespace tb::compressible {

// Positions that face f writes: (left, left), (left, right), (right, left),
// (right, right). A position p >= 0 is block p of the pattern's matrix; on a
// piece a block in a ghost's column is block off_rank_block(p) of the
// off-rank matrix (p <= -2); -1 is none: the last three on a boundary face,
// and the two of a row the pattern does not hold (a ghost cell's on a piece).
struct FaceBlocks {
  index_t ll = -1, lr = -1, rl = -1, rr = -1;
  // Whether a row of the pattern holds any of them (not so for a face between a piece's ghosts).
  bool held() const { return ll >= 0 || rr >= 0; }
};

struct JacobianPattern {
  BsrMatrix matrix;               // block size 4, no values (assemble_jacobian sizes a copy's)
  std::vector<index_t> diagonal;  // position of each cell's diagonal block (-1: no row)
  std::vector<FaceBlocks> faces;  // per face of the mesh
  // A piece's (docs/distributed.md): the owned rows' blocks in ghost columns, column g
  // standing for the cell numbered ghost_columns[g] in the distributed system
  // (ascending); no blocks on a whole mesh.
  BsrMatrix off_rank;
  std::vector<index_t> ghost_columns;
};

// The rows and columns a piece of a decomposed mesh assembles (docs/distributed.md): rows
// for its first `owned` cells only, split as the distributed solvers keep a
// rank's rows (dist::RankBlocks): `matrix` holds the owned cells' columns in
// the piece's own numbering (square, owned x owned), `off_rank` the ghosts',
// each named by its number in the distributed system (global[cell], one per
// local cell, out of global_size). The solvers read both where they are
// assembled: no split copy beside them (docs/distributed.md, "Why it is built
// this way").
struct PieceNumbering {
  index_t owned = 0;
  index_t global_size = 0;
  std::span<const index_t> global;
};

// The whole mesh's pattern (square, local numbering), or a piece's.
JacobianPattern build_jacobian_pattern(const Mesh2D& mesh, const PieceNumbering* piece = nullptr);

// The block at `position` (FaceBlocks) += scale * b: in a, or in off_rank for
// a ghost's column; nothing where position is -1 (a row the pattern does not hold).
inline void add_scaled_block(BsrMatrix& a, BsrMatrix* off_rank, index_t position, const Block& b, double scale) {
  if (position == no_block) return;
  double* dst = block_at(a, off_rank, position);
  for (std::size_t k = 0; k < b.size(); ++k) dst[k] += scale * b[k];
}

}  // namespace tb::compressible
