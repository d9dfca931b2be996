#include "physics/compressible/jacobian_pattern.hpp"

#include <algorithm>
#include <string>

#include "physics/compressible/gas.hpp"
#include "solvers/core/error.hpp"

namespace tb::compressible {

JacobianPattern build_jacobian_pattern(const Mesh2D& mesh, const PieceNumbering* piece) {
  const index_t n = mesh.num_cells();
  const index_t rows = piece ? piece->owned : n;
  if (piece && (rows < 0 || rows > n || index_t(piece->global.size()) != n))
    throw Error("Jacobian pattern: a piece of " + std::to_string(n) + " cells with " + std::to_string(rows) +
                " owned and " + std::to_string(piece->global.size()) + " global numbers");
  const auto column = [&](index_t c) { return piece ? piece->global[std::size_t(c)] : c; };
  std::vector<std::vector<index_t>> columns(static_cast<std::size_t>(rows));
  for (index_t c = 0; c < rows; ++c) columns[std::size_t(c)].push_back(column(c));
  for (index_t f = 0; f < mesh.num_interior_faces; ++f) {
    const Face& face = mesh.faces[std::size_t(f)];
    if (face.left < rows) columns[std::size_t(face.left)].push_back(column(face.right));
    if (face.right < rows) columns[std::size_t(face.right)].push_back(column(face.left));
  }
  JacobianPattern p;
  BsrMatrix& a = p.matrix;
  a.block_size = num_vars;
  a.block_rows = rows;
  a.block_cols = piece ? piece->global_size : n;
  a.row_ptr.assign(std::size_t(rows) + 1, 0);
  for (index_t c = 0; c < rows; ++c) {
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
  // Row c's block in column `column(d)`, -1 where row c is not held.
  const auto position = [&](index_t c, index_t d) { return c < rows ? a.find_block(c, column(d)) : index_t(-1); };
  p.diagonal.resize(std::size_t(n));
  for (index_t c = 0; c < n; ++c) p.diagonal[std::size_t(c)] = position(c, c);
  p.faces.resize(std::size_t(mesh.num_faces()));
  for (index_t f = 0; f < mesh.num_faces(); ++f) {
    const Face& face = mesh.faces[std::size_t(f)];
    FaceBlocks& b = p.faces[std::size_t(f)];
    b.ll = p.diagonal[std::size_t(face.left)];
    if (face.is_boundary()) continue;
    b.lr = position(face.left, face.right);
    b.rl = position(face.right, face.left);
    b.rr = p.diagonal[std::size_t(face.right)];
  }
  return p;
}

}  // namespace tb::compressible
