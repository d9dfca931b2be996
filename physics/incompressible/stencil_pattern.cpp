#include "physics/incompressible/stencil_pattern.hpp"

#include <utility>

namespace tb::incompressible {

StencilPattern make_stencil_pattern(const FvGrid& grid, index_t block_size) {
  StencilPattern p;
  BsrMatrix& a = p.matrix;
  const PlaneRange& planes = grid.planes();
  const index_t begin = grid.owned_cell_begin(), rows = grid.owned_cell_end() - begin;
  const index_t offset = planes.first * grid.stride(planes.axis);  // local cell -> whole-grid column
  a.block_size = block_size;
  a.block_rows = rows;
  a.block_cols = planes.whole_planes * grid.stride(planes.axis);
  a.row_ptr.assign(std::size_t(rows) + 1, 0);
  a.col_idx.reserve(std::size_t(rows) * 7);
  p.position.assign(std::size_t(grid.num_cells()), {-1, -1, -1, -1, -1, -1, -1});
  for (index_t r = 0; r < rows; ++r) {
    const index_t row = begin + r;
    const auto c = grid.ijk(row);
    std::array<std::pair<index_t, int>, 7> entries;  // (column, slot)
    int count = 0;
    for (int slot = 0; slot < 7; ++slot) {
      const int d = slot == self_slot ? 0 : (slot < self_slot ? self_slot - slot : slot - self_slot) - 1;
      const int s = slot < self_slot ? -1 : 1;
      if (slot != self_slot && !has_neighbour(grid, c, d, s)) continue;
      entries[count++] = {offset + (slot == self_slot ? row : grid.neighbour(row, c, d, s)), slot};
    }
    // Slot order is column order except across a periodic wrap; insertion sort
    // of at most 7 entries (std::sort trips GCC 12's -Warray-bounds here).
    for (int e = 1; e < count; ++e)
      for (int f = e; f > 0 && entries[f].first < entries[f - 1].first; --f) std::swap(entries[f], entries[f - 1]);
    for (int e = 0; e < count; ++e) {
      p.position[row][entries[e].second] = a.nnz_blocks();
      a.col_idx.push_back(entries[e].first);
    }
    a.row_ptr[r + 1] = a.nnz_blocks();
  }
  a.values.assign(std::size_t(a.nnz_blocks()) * a.block_entries(), 0.0);
  return p;
}

}  // namespace tb::incompressible
