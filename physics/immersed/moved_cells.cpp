#include "physics/immersed/moved_cells.hpp"

#include "physics/immersed/scalar_system.hpp"

namespace tb::immersed {

MovedCells moved_cells(const CartesianGrid& grid, const Body& body, std::span<const CellType> before,
                       std::span<const CellType> after) {
  MovedCells m;
  for (index_t cell = grid.owned_cell_begin(); cell < grid.owned_cell_end(); ++cell) {
    if (before[cell] == after[cell]) continue;
    std::uint8_t fill = 0;
    Vec3 wall{0.0, 0.0, 0.0};
    if (after[cell] == CellType::fluid) {
      ++m.cleared;
      fill = cell::cleared_bit;
      const auto c = grid.ijk(cell);
      for (int d = 0; d < 3; ++d)
        for (int s : {-1, 1}) {
          if (!has_neighbour(grid, c, d, s)) continue;
          const index_t nb = cell + s * grid.stride(d);
          if (before[nb] == CellType::fluid && after[nb] == CellType::fluid) fill |= std::uint8_t(1u << side_of(d, s));
        }
      if (fill == cell::cleared_bit) wall = body.velocity(body.closest(grid.centre(c)).point);
    }
    m.cells.push_back(cell);
    m.types.push_back(after[cell]);
    m.fill.push_back(fill);
    m.wall.insert(m.wall.end(), wall.begin(), wall.end());
  }
  return m;
}

}  // namespace tb::immersed
