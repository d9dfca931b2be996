#include "physics/compressible/jacobian_pattern.hpp"

#include <algorithm>

#include "physics/compressible/gas.hpp"

namespace tb::compressible {

JacobianPattern build_jacobian_pattern(const Mesh2D& mesh) {
  const index_t n = mesh.num_cells();
  std::vector<std::vector<index_t>> columns(static_cast<std::size_t>(n));
  for (index_t c = 0; c < n; ++c) columns[std::size_t(c)].push_back(c);
  for (index_t f = 0; f < mesh.num_interior_faces; ++f) {
    const Face& face = mesh.faces[std::size_t(f)];
    columns[std::size_t(face.left)].push_back(face.right);
    columns[std::size_t(face.right)].push_back(face.left);
  }
  JacobianPattern p;
  BsrMatrix& a = p.matrix;
  a.block_size = num_vars;
  a.block_rows = a.block_cols = n;
  a.row_ptr.assign(std::size_t(n) + 1, 0);
  for (index_t c = 0; c < n; ++c) {
    auto& cols = columns[std::size_t(c)];
    std::sort(cols.begin(), cols.end());
    // Two faces between the same pair of cells share one block.
    cols.erase(std::unique(cols.begin(), cols.end()), cols.end());
    a.row_ptr[std::size_t(c) + 1] = a.row_ptr[std::size_t(c)] + index_t(cols.size());
    a.col_idx.insert(a.col_idx.end(), cols.begin(), cols.end());
  }
  // No values: the pattern is symbolic, and every matrix of it (the pseudo-time
  // solver's) gets its values from assemble_jacobian. The zero values held here
  // before cost 17 MiB of peak memory on the medium NACA 0012 mesh.
  p.diagonal = a.diagonal_positions();
  p.faces.resize(std::size_t(mesh.num_faces()));
  for (index_t f = 0; f < mesh.num_faces(); ++f) {
    const Face& face = mesh.faces[std::size_t(f)];
    FaceBlocks& b = p.faces[std::size_t(f)];
    b.ll = p.diagonal[std::size_t(face.left)];
    if (face.is_boundary()) continue;
    b.lr = a.find_block(face.left, face.right);
    b.rl = a.find_block(face.right, face.left);
    b.rr = p.diagonal[std::size_t(face.right)];
  }
  return p;
}

}  // namespace tb::compressible
