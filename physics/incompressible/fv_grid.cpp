#include "physics/incompressible/fv_grid.hpp"

#include <string>
#include <utility>

#include "solvers/core/error.hpp"

namespace tb::incompressible {

namespace {

// Widths, centres, spacings and weights from a.nodes: the same arithmetic for
// the whole axis and for a piece of it, so both have the same bits.
AxisGeometry geometry_of_nodes(std::vector<double> nodes, bool periodic) {
  AxisGeometry a;
  a.cells = index_t(nodes.size()) - 1;
  a.periodic = periodic;
  a.nodes = std::move(nodes);
  a.widths = axis_widths(a.nodes);
  for (index_t i = 0; i < a.cells; ++i) a.centres.push_back(0.5 * (a.nodes[i] + a.nodes[i + 1]));
  for (index_t i = 0; i + 1 < a.cells; ++i) {
    a.spacing.push_back(a.centres[i + 1] - a.centres[i]);
    a.weight.push_back((a.centres[i + 1] - a.nodes[i + 1]) / a.spacing.back());
  }
  if (periodic) {
    a.spacing.push_back(0.5 * (a.widths.back() + a.widths.front()));
    a.weight.push_back(0.5 * a.widths.front() / a.spacing.back());
  }
  return a;
}

AxisGeometry make_axis(const AxisSpec& spec, bool periodic) { return geometry_of_nodes(axis_nodes(spec), periodic); }

}  // namespace

FvGrid::FvGrid(const AxisSpec& x, const AxisSpec& y, const AxisSpec& z, std::array<bool, 3> periodic)
    : axes_{make_axis(x, periodic[0]), make_axis(y, periodic[1]), make_axis(z, periodic[2] && z.cells > 1)} {
  // Three cells at least, or the two neighbours across a periodic direction coincide.
  for (int d = 0; d < 3; ++d)
    TB_REQUIRE(!axes_[d].periodic || axes_[d].cells >= 3, "a periodic direction needs at least 3 cells");
  // The boundary pressure is extrapolated from two cells (operators.cpp).
  TB_REQUIRE(x.cells >= 2 && y.cells >= 2, "the grid needs at least 2 cells in x and y");
  TB_REQUIRE(z.cells == 1 || z.cells >= 2, "the grid needs 1 (2D) or at least 2 cells in z");
  TB_REQUIRE(double(x.cells) * y.cells * z.cells * 3 < 2e9, "grid too large for 32-bit indices");
  planes_.axis = z.cells > 1 ? 2 : 1;
  planes_.owned_end = planes_.whole_planes = axes_[planes_.axis].cells;
  for (int d = 0; d < 3; ++d) extent_[d] = axes_[d].nodes.back();
}

FvGrid FvGrid::piece(const FvGrid& whole, index_t first, index_t count, index_t owned_begin, index_t owned_end) {
  const int axis = whole.planes_.axis;
  const AxisGeometry& a = whole.axes_[axis];
  TB_REQUIRE(!a.periodic, "a grid periodic in its slab axis (" + std::string(axis == 1 ? "y" : "z") +
                              ") cannot be split into slabs");
  TB_REQUIRE(first >= 0 && count >= 1 && first + count <= a.cells && owned_begin >= 0 && owned_begin < owned_end &&
                 owned_end <= count,
             "internal: planes " + std::to_string(first) + " + " + std::to_string(count) + " (owned " +
                 std::to_string(owned_begin) + ".." + std::to_string(owned_end) + ") of " + std::to_string(a.cells));
  FvGrid g = whole;
  g.axes_[axis] = geometry_of_nodes({a.nodes.begin() + first, a.nodes.begin() + first + count + 1}, false);
  g.planes_ = {axis, first, owned_begin, owned_end, a.cells};
  return g;
}

bool FvGrid::is_interface(int side) const {
  if (side / 2 != planes_.axis) return false;
  return side % 2 == 0 ? planes_.first > 0 : planes_.first + cells(planes_.axis) < planes_.whole_planes;
}

std::array<index_t, 3> FvGrid::ijk(index_t cell) const {
  const StructuredIndex s = shape();
  return {s.i_of(cell), s.j_of(cell), s.k_of(cell)};
}

double FvGrid::volume(const std::array<index_t, 3>& c) const {
  return axes_[0].widths[c[0]] * axes_[1].widths[c[1]] * axes_[2].widths[c[2]];
}

// The product of the two tangential widths, not volume / width: both cells of a
// face must see the same area to the last bit, or the Poisson matrix is not symmetric.
double FvGrid::area(int d, const std::array<index_t, 3>& c) const {
  const int a = d == 0 ? 1 : 0, b = d == 2 ? 1 : 2;
  return axes_[a].widths[c[a]] * axes_[b].widths[c[b]];
}

GridView FvGrid::view() const {
  GridView v;
  for (int d = 0; d < 3; ++d) {
    const AxisGeometry& a = axes_[d];
    v.axis[d] = {a.cells,          a.periodic,       a.nodes.data(), a.widths.data(),
                 a.centres.data(), a.spacing.data(), a.weight.data()};
  }
  v.dim = dim();
  v.owned_begin = owned_cell_begin();
  v.owned_end = owned_cell_end();
  v.pin = pressure_pin();
  return v;
}

}  // namespace tb::incompressible
