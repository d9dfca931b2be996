#include "physics/incompressible/stencil_pattern.hpp"

namespace tb::incompressible {

StencilPattern make_stencil_pattern(const FvGrid& grid, index_t block_size) {
  StencilPattern p;
  BsrMatrix& a = p.matrix;
  const index_t cells = grid.num_cells();
  a.block_size = block_size;
  a.block_rows = a.block_cols = cells;
  a.row_ptr.assign(std::size_t(cells) + 1, 0);
  a.col_idx.reserve(std::size_t(cells) * 7);
  p.position.assign(std::size_t(cells), {-1, -1, -1, -1, -1, -1, -1});
  for (index_t row = 0; row < cells; ++row) {
    const auto c = grid.ijk(row);
    for (int slot = 0; slot < 7; ++slot) {
      const int d = slot == self_slot ? 0 : (slot < self_slot ? self_slot - slot : slot - self_slot) - 1;
      const int s = slot < self_slot ? -1 : 1;
      if (slot != self_slot && !has_neighbour(grid, c, d, s)) continue;
      p.position[row][slot] = a.nnz_blocks();
      a.col_idx.push_back(slot == self_slot ? row : row + s * grid.stride(d));
    }
    a.row_ptr[row + 1] = a.nnz_blocks();
  }
  a.values.assign(std::size_t(a.nnz_blocks()) * a.block_entries(), 0.0);
  return p;
}

}  // namespace tb::incompressible
