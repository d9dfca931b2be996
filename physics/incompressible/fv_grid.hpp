#pragma once
// Cell-centred finite-volume geometry of a stretched Cartesian grid: cell
// centres, widths, distances between neighbouring centres and the linear
// interpolation weights of each interior face. A grid with one cell in k is
// two-dimensional: it has no k faces at all and carries two velocity components.
// A periodic direction joins its last and first cells through one more interior
// face (face n-1 of the axis, between cell n-1 and cell 0).
#include <array>
#include <vector>

#include "mesh/structured/slab.hpp"
#include "mesh/structured/structured_grid.hpp"
#include "physics/incompressible/grid_view.hpp"

namespace tb::incompressible {

struct AxisGeometry {
  index_t cells = 1;
  std::vector<double> nodes;    // cells + 1
  std::vector<double> widths;   // cells
  std::vector<double> centres;  // cells
  bool periodic = false;
  std::vector<double> spacing;  // cells - 1 (cells when periodic): centre(i+1) - centre(i)
  std::vector<double> weight;   // cells - 1 (cells when periodic): weight of cell i in the value at face i+1/2
};

class FvGrid {
 public:
  FvGrid(const AxisSpec& x, const AxisSpec& y, const AxisSpec& z, std::array<bool, 3> periodic = {});
  // Planes [first, first + count) of `whole`'s slab axis, of which local planes
  // [owned_begin, owned_end) are owned. Throws tb::Error on a periodic slab axis
  // or a range outside the whole grid.
  static FvGrid piece(const FvGrid& whole, index_t first, index_t count, index_t owned_begin, index_t owned_end);

  int dim() const { return axes_[2].cells == 1 ? 2 : 3; }
  index_t cells(int d) const { return axes_[d].cells; }
  index_t num_cells() const { return axes_[0].cells * axes_[1].cells * axes_[2].cells; }
  const AxisGeometry& axis(int d) const { return axes_[d]; }
  StructuredIndex shape() const { return {axes_[0].cells, axes_[1].cells, axes_[2].cells}; }
  // Natural order, i fastest, then j, then k: the row order of tb::generate_stencil7.
  index_t index(index_t i, index_t j, index_t k) const { return shape().natural(i, j, k); }
  index_t stride(int d) const { return shape().stride(d); }
  std::array<index_t, 3> ijk(index_t cell) const;
  bool has_neighbour(const std::array<index_t, 3>& c, int d, int s) const {
    return d < dim() && (axes_[d].periodic || (c[d] + s >= 0 && c[d] + s < axes_[d].cells));
  }
  // The cell across side s (-1, +1) in direction d of cell 'cell' at c; wraps in periodic directions.
  index_t neighbour(index_t cell, const std::array<index_t, 3>& c, int d, int s) const {
    const index_t n = axes_[d].cells;
    if (c[d] + s < 0) return cell + (n - 1) * stride(d);
    if (c[d] + s >= n) return cell - (n - 1) * stride(d);
    return cell + s * stride(d);
  }
  // Index into spacing/weight of the interior face on side s of c (the face's lower cell).
  index_t face_below(const std::array<index_t, 3>& c, int d, int s) const {
    return s > 0 ? c[d] : (c[d] == 0 ? axes_[d].cells - 1 : c[d] - 1);
  }
  double volume(const std::array<index_t, 3>& c) const;

  const PlaneRange& planes() const { return planes_; }
  // Owns fewer planes than the whole grid has (a piece may hold them all, its ghosts included).
  bool is_piece() const { return planes_.owned_end - planes_.owned_begin != planes_.whole_planes; }
  // This rank's cells: c on an owned plane; local cells [owned_cell_begin, owned_cell_end).
  bool owns(const std::array<index_t, 3>& c) const {
    return c[planes_.axis] >= planes_.owned_begin && c[planes_.axis] < planes_.owned_end;
  }
  index_t owned_cell_begin() const { return planes_.owned_begin * stride(planes_.axis); }
  index_t owned_cell_end() const { return planes_.owned_end * stride(planes_.axis); }
  // A side of the piece between two ranks rather than on the domain's boundary.
  bool is_interface(int side) const;
  // The whole domain's end coordinate in direction d (its nodes start at 0).
  double extent(int d) const { return extent_[d]; }
  // The cell whose pressure correction is pinned to zero (the whole grid's
  // cell 0) when this grid owns it, else -1.
  index_t pressure_pin() const { return planes_.first == 0 && planes_.owned_begin == 0 ? 0 : -1; }

  // Area of the faces of cell c normal to direction d.
  double area(int d, const std::array<index_t, 3>& c) const;

  // The geometry over pointers into this grid's axes, for the per-cell kernels (kernels.hpp).
  GridView view() const;

 private:
  std::array<AxisGeometry, 3> axes_;
  PlaneRange planes_;
  std::array<double, 3> extent_{};
};

}  // namespace tb::incompressible
