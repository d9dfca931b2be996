#include "physics/compressible/jacobian_pattern.hpp"

#include <algorithm>
#include <string>

#include "physics/compressible/gas.hpp"
#include "solvers/core/error.hpp"

namespace tb::compressible {

namespace {

// Fills m's row_ptr and col_idx from per-row column lists (sorted here, a pair
// of cells that shares two faces shares one block). No values: the pattern is
// symbolic, and every matrix of it (the pseudo-time solver's) gets its values
// from assemble_jacobian, so zero values held here would be a whole matrix of
// peak memory.
void fill_pattern(BsrMatrix& m, index_t cols, std::vector<std::vector<index_t>>& columns) {
  m.block_size = num_vars;
  m.block_rows = index_t(columns.size());
  m.block_cols = cols;
  m.row_ptr.assign(columns.size() + 1, 0);
  for (std::size_t c = 0; c < columns.size(); ++c) {
    auto& list = columns[c];
    std::sort(list.begin(), list.end());
    list.erase(std::unique(list.begin(), list.end()), list.end());
    m.row_ptr[c + 1] = m.row_ptr[c] + index_t(list.size());
    m.col_idx.insert(m.col_idx.end(), list.begin(), list.end());
  }
}

}  // namespace

JacobianPattern build_jacobian_pattern(const Mesh2D& mesh, const PieceNumbering* piece) {
  const index_t n = mesh.num_cells();
  const index_t rows = piece ? piece->owned : n;
  if (piece && (rows < 0 || rows > n || index_t(piece->global.size()) != n))
    throw Error("Jacobian pattern: a piece of " + std::to_string(n) + " cells with " + std::to_string(rows) +
                " owned and " + std::to_string(piece->global.size()) + " global numbers");
  // A column of the owned cells is the cell itself; a ghost's (a piece's) is
  // its number in the distributed system, in the off-rank part.
  const auto is_ghost = [&](index_t c) { return c >= rows; };
  const auto global = [&](index_t c) { return piece->global[std::size_t(c)]; };
  std::vector<std::vector<index_t>> owned_columns(static_cast<std::size_t>(rows)), ghost_columns(owned_columns.size());
  const auto add = [&](index_t row, index_t col) {
    if (row >= rows) return;
    if (is_ghost(col))
      ghost_columns[std::size_t(row)].push_back(global(col));
    else
      owned_columns[std::size_t(row)].push_back(col);
  };
  for (index_t c = 0; c < rows; ++c) add(c, c);
  for (index_t f = 0; f < mesh.num_interior_faces; ++f) {
    const Face& face = mesh.faces[std::size_t(f)];
    add(face.left, face.right);
    add(face.right, face.left);
  }
  JacobianPattern p;
  fill_pattern(p.matrix, rows, owned_columns);
  for (const auto& list : ghost_columns) p.ghost_columns.insert(p.ghost_columns.end(), list.begin(), list.end());
  std::sort(p.ghost_columns.begin(), p.ghost_columns.end());
  p.ghost_columns.erase(std::unique(p.ghost_columns.begin(), p.ghost_columns.end()), p.ghost_columns.end());
  if (!p.ghost_columns.empty() && (p.ghost_columns.front() < 0 || p.ghost_columns.back() >= piece->global_size))
    throw Error("Jacobian pattern: a ghost numbered outside the distributed system's " +
                std::to_string(piece->global_size) + " cells");
  for (auto& list : ghost_columns)
    for (index_t& g : list)
      g = index_t(std::lower_bound(p.ghost_columns.begin(), p.ghost_columns.end(), g) - p.ghost_columns.begin());
  fill_pattern(p.off_rank, index_t(p.ghost_columns.size()), ghost_columns);

  // Row c's block in the column of cell d (FaceBlocks), -1 where row c is not held.
  const auto position = [&](index_t c, index_t d) -> index_t {
    if (c >= rows) return -1;
    if (!is_ghost(d)) return p.matrix.find_block(c, d);
    const auto g = std::lower_bound(p.ghost_columns.begin(), p.ghost_columns.end(), global(d));
    return off_rank_position(p.off_rank.find_block(c, index_t(g - p.ghost_columns.begin())));
  };
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
