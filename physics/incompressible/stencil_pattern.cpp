#include "physics/incompressible/stencil_pattern.hpp"

#include <algorithm>
#include <string>
#include <utility>

#include "solvers/core/error.hpp"

namespace tb::incompressible {

namespace {

// Sorts a row's (column, slot) entries by column: slot order is column order
// except across a periodic wrap; insertion sort of at most 7 entries
// (std::sort trips GCC 12's -Warray-bounds here).
void sort_row(std::array<std::pair<index_t, int>, 7>& entries, int count) {
  for (int e = 1; e < count; ++e)
    for (int f = e; f > 0 && entries[f].first < entries[f - 1].first; --f) std::swap(entries[f], entries[f - 1]);
}

}  // namespace

StencilPattern make_stencil_pattern(const FvGrid& grid, index_t block_size) {
  StencilPattern p;
  const PlaneRange& planes = grid.planes();
  const index_t begin = grid.owned_cell_begin(), end = grid.owned_cell_end(), rows = end - begin;
  const index_t offset = planes.first * grid.stride(planes.axis);  // local cell -> whole-grid row
  const auto owned = [&](index_t cell) { return cell >= begin && cell < end; };
  // Visits each owned row's (neighbour cell, slot) entries, the cell itself included.
  const auto for_each_entry = [&](index_t row, auto&& f) {
    const auto c = grid.ijk(row);
    for (int slot = 0; slot < 7; ++slot) {
      const int d = slot == self_slot ? 0 : (slot < self_slot ? self_slot - slot : slot - self_slot) - 1;
      const int s = slot < self_slot ? -1 : 1;
      if (slot != self_slot && !has_neighbour(grid, c, d, s)) continue;
      f(slot == self_slot ? row : grid.neighbour(row, c, d, s), slot);
    }
  };
  // The ghosts' whole-grid rows: the off-rank matrix's columns.
  for (index_t row = begin; row < end; ++row)
    for_each_entry(row, [&](index_t cell, int) {
      if (!owned(cell)) p.ghost_columns.push_back(offset + cell);
    });
  std::sort(p.ghost_columns.begin(), p.ghost_columns.end());
  p.ghost_columns.erase(std::unique(p.ghost_columns.begin(), p.ghost_columns.end()), p.ghost_columns.end());

  for (BsrMatrix* m : {&p.matrix, &p.off_rank}) {
    m->block_size = block_size;
    m->block_rows = rows;
    m->row_ptr.assign(std::size_t(rows) + 1, 0);
  }
  p.matrix.block_cols = rows;
  p.off_rank.block_cols = index_t(p.ghost_columns.size());
  p.matrix.col_idx.reserve(std::size_t(rows) * 7);
  p.position.assign(std::size_t(grid.num_cells()),
                    {no_block, no_block, no_block, no_block, no_block, no_block, no_block});
  for (index_t r = 0; r < rows; ++r) {
    const index_t row = begin + r;
    std::array<std::pair<index_t, int>, 7> mine, ghosts;  // (column, slot)
    int n_mine = 0, n_ghosts = 0;
    for_each_entry(row, [&](index_t cell, int slot) {
      if (owned(cell)) {
        mine[n_mine++] = {cell - begin, slot};
      } else {
        const auto g = std::lower_bound(p.ghost_columns.begin(), p.ghost_columns.end(), offset + cell);
        ghosts[n_ghosts++] = {index_t(g - p.ghost_columns.begin()), slot};
      }
    });
    sort_row(mine, n_mine);
    sort_row(ghosts, n_ghosts);
    for (int e = 0; e < n_mine; ++e) {
      p.position[row][mine[e].second] = p.matrix.nnz_blocks();
      p.matrix.col_idx.push_back(mine[e].first);
    }
    for (int e = 0; e < n_ghosts; ++e) {
      p.position[row][ghosts[e].second] = off_rank_position(p.off_rank.nnz_blocks());
      p.off_rank.col_idx.push_back(ghosts[e].first);
    }
    p.matrix.row_ptr[r + 1] = p.matrix.nnz_blocks();
    p.off_rank.row_ptr[r + 1] = p.off_rank.nnz_blocks();
  }
  for (BsrMatrix* m : {&p.matrix, &p.off_rank})
    m->values.assign(std::size_t(m->nnz_blocks()) * m->block_entries(), 0.0);
  return p;
}

void check_off_rank(const StencilPattern& pattern, const BsrMatrix* off_rank, const char* who) {
  if (pattern.off_rank.nnz_blocks() == 0) return;
  if (!off_rank || !off_rank->same_pattern(pattern.off_rank))
    throw Error(std::string(who) + ": a piece with ghost columns needs its off-rank matrix");
}

}  // namespace tb::incompressible
