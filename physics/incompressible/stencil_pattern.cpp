#include "physics/incompressible/stencil_pattern.hpp"

#include <utility>

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
    std::array<std::pair<index_t, int>, 7> entries;  // (column, slot)
    int count = 0;
    for (int slot = 0; slot < 7; ++slot) {
      const int d = slot == self_slot ? 0 : (slot < self_slot ? self_slot - slot : slot - self_slot) - 1;
      const int s = slot < self_slot ? -1 : 1;
      if (slot != self_slot && !has_neighbour(grid, c, d, s)) continue;
      entries[count++] = {slot == self_slot ? row : grid.neighbour(row, c, d, s), slot};
    }
    // Slot order is column order except across a periodic wrap; insertion sort
    // of at most 7 entries (std::sort trips GCC 12's -Warray-bounds here).
    for (int e = 1; e < count; ++e)
      for (int f = e; f > 0 && entries[f].first < entries[f - 1].first; --f) std::swap(entries[f], entries[f - 1]);
    for (int e = 0; e < count; ++e) {
      p.position[row][entries[e].second] = a.nnz_blocks();
      a.col_idx.push_back(entries[e].first);
    }
    a.row_ptr[row + 1] = a.nnz_blocks();
  }
  a.values.assign(std::size_t(a.nnz_blocks()) * a.block_entries(), 0.0);
  return p;
}

}  // namespace tb::incompressible
