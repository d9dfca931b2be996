#pragma once
// The block pattern of the first-order Jacobian on a Mesh2D: per cell row the
// diagonal block and one block per face neighbour, columns sorted. Built once per
// mesh (symbolic); each step only refills the values through the face positions.
#include <span>
#include <vector>

#include "mesh/mesh2d.hpp"
#include "physics/compressible/gas.hpp"
#include "solvers/matrix/bsr.hpp"

namespace tb::compressible {

// Positions (block indices into BsrMatrix::col_idx) that face f writes:
// (left, left), (left, right), (right, left), (right, right); the last three are
// -1 on a boundary face, and a row the pattern does not hold (a ghost cell's
// on a piece: PieceNumbering) has -1 for its two.
struct FaceBlocks {
  index_t ll = -1, lr = -1, rl = -1, rr = -1;
  // Whether a row of the pattern holds any of them (not so for a face between a piece's ghosts).
  bool held() const { return ll >= 0 || rr >= 0; }
};

struct JacobianPattern {
  BsrMatrix matrix;               // block size 4, no values (assemble_jacobian sizes a copy's)
  std::vector<index_t> diagonal;  // position of each cell's diagonal block (-1: no row)
  std::vector<FaceBlocks> faces;  // per face of the mesh
};

// The rows and columns a piece of a decomposed mesh assembles (issue 28): rows
// for its first `owned` cells only, and each column named by the cell's number
// in the distributed system (global[cell], one per local cell, ghosts too, out
// of global_size), sorted: the assembled matrix is then this rank's block rows
// as the distributed solvers take them, without a renumbered copy beside it
// (10.8 MiB a rank on the medium NACA 0012 at 2 ranks).
struct PieceNumbering {
  index_t owned = 0;
  index_t global_size = 0;
  std::span<const index_t> global;
};

// The whole mesh's pattern (square, local numbering), or a piece's.
JacobianPattern build_jacobian_pattern(const Mesh2D& mesh, const PieceNumbering* piece = nullptr);

// Block at `position` += scale * b; nothing where position is -1 (a row the pattern does not hold).
inline void add_scaled_block(BsrMatrix& a, index_t position, const Block& b, double scale) {
  if (position < 0) return;
  double* dst = a.block(position);
  for (std::size_t k = 0; k < b.size(); ++k) dst[k] += scale * b[k];
}

}  // namespace tb::compressible
