#pragma once
// The block pattern of the first-order Jacobian on a Mesh2D: per cell row the
// diagonal block and one block per face neighbour, columns sorted. Built once per
// mesh (symbolic); each step only refills the values through the face positions.
#include <vector>

#include "mesh/mesh2d.hpp"
#include "physics/compressible/gas.hpp"
#include "solvers/matrix/bsr.hpp"

namespace tb::compressible {

// Positions (block indices into BsrMatrix::col_idx) that face f writes:
// (left, left), (left, right), (right, left), (right, right); the last three are
// -1 on a boundary face.
struct FaceBlocks {
  index_t ll = -1, lr = -1, rl = -1, rr = -1;
};

struct JacobianPattern {
  BsrMatrix matrix;               // block size 4, no values (assemble_jacobian sizes a copy's)
  std::vector<index_t> diagonal;  // position of each cell's diagonal block
  std::vector<FaceBlocks> faces;  // per face of the mesh
};

JacobianPattern build_jacobian_pattern(const Mesh2D& mesh);

// Block at `position` += scale * b.
inline void add_scaled_block(BsrMatrix& a, index_t position, const Block& b, double scale) {
  double* dst = a.block(position);
  for (std::size_t k = 0; k < b.size(); ++k) dst[k] += scale * b[k];
}

}  // namespace tb::compressible
