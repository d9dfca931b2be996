#pragma once
// Cell-centred finite-volume geometry of a stretched Cartesian grid: cell
// centres, widths, distances between neighbouring centres and the linear
// interpolation weights of each interior face. A grid with one cell in k is
// two-dimensional: it has no k faces at all and carries two velocity components.
#include <array>
#include <vector>

#include "mesh/structured/structured_grid.hpp"

namespace tb::incompressible {

struct AxisGeometry {
  index_t cells = 1;
  std::vector<double> nodes;    // cells + 1
  std::vector<double> widths;   // cells
  std::vector<double> centres;  // cells
  std::vector<double> spacing;  // cells - 1: centre(i+1) - centre(i)
  std::vector<double> weight;   // cells - 1: weight of cell i in the value at face i+1/2
};

class FvGrid {
 public:
  FvGrid(const AxisSpec& x, const AxisSpec& y, const AxisSpec& z);

  int dim() const { return axes_[2].cells == 1 ? 2 : 3; }
  index_t cells(int d) const { return axes_[d].cells; }
  index_t num_cells() const { return axes_[0].cells * axes_[1].cells * axes_[2].cells; }
  const AxisGeometry& axis(int d) const { return axes_[d]; }
  // Natural order, i fastest, then j, then k: the row order of tb::generate_stencil7.
  index_t index(index_t i, index_t j, index_t k) const { return i + axes_[0].cells * (j + axes_[1].cells * k); }
  index_t stride(int d) const { return d == 0 ? 1 : d == 1 ? axes_[0].cells : axes_[0].cells * axes_[1].cells; }
  std::array<index_t, 3> ijk(index_t cell) const;
  double volume(const std::array<index_t, 3>& c) const;
  // Area of the faces of cell c normal to direction d.
  double area(int d, const std::array<index_t, 3>& c) const;

 private:
  std::array<AxisGeometry, 3> axes_;
};

}  // namespace tb::incompressible
