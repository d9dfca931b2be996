#pragma once
// The cells whose type a body's move changed (Mittal et al. 2008 §2.4), found
// on the host per body position by comparing the cell types before and after
// (symbolic work over the body's band), as the move_cells kernel
// (kernels.hpp) reads them: per cell its new type and, for a freshly cleared
// one (solid or ghost before, fluid now), which face neighbours were fluid
// before and are fluid now, whose mean of u and p fills it, or the body's
// velocity at its closest surface point where it has none.
#include <span>
#include <vector>

#include "physics/immersed/body.hpp"
#include "physics/immersed/cell_kernels.hpp"

namespace tb::immersed {

struct MovedCells {
  std::vector<index_t> cells;
  std::vector<CellType> types;
  std::vector<std::uint8_t> fill;  // cell::MovedCellsView::fill
  std::vector<double> wall;        // 3 per cell
  long cleared = 0;                // the freshly cleared among them
  index_t count() const { return index_t(cells.size()); }
  cell::MovedCellsView view() const { return {count(), cells.data(), types.data(), fill.data(), wall.data()}; }
};

// The owned cells whose type differs between `before` and `after` (the grid's
// types at the body's last and new positions).
MovedCells moved_cells(const CartesianGrid& grid, const Body& body, std::span<const CellType> before,
                       std::span<const CellType> after);

}  // namespace tb::immersed
