#include "physics/immersed/cartesian_grid.hpp"

#include <algorithm>
#include <string>

#include "solvers/core/error.hpp"

namespace tb::immersed {

namespace {

// Widths h r, h r^2, ... until they cover `span`, the last one trimmed or the
// run rescaled so that they sum to span exactly.
std::vector<double> growing_widths(double span, double h, double ratio) {
  std::vector<double> w;
  double sum = 0.0, next = h * ratio;
  while (sum + 0.5 * next < span) {
    w.push_back(next);
    sum += next;
    next *= ratio;
  }
  if (w.empty()) {
    if (span > 0.0) w.push_back(span);
    return w;
  }
  const double scale = span / sum;
  for (double& x : w) x *= scale;
  return w;
}

}  // namespace

std::vector<double> clustered_axis_nodes(double lo, double hi, double core_lo, double core_hi, double h, double ratio) {
  TB_REQUIRE(h > 0.0, "grid.core_h must be positive, not " + std::to_string(h));
  TB_REQUIRE(ratio >= 1.0, "grid.ratio must be at least 1, not " + std::to_string(ratio));
  TB_REQUIRE(lo <= core_lo && core_lo < core_hi && core_hi <= hi,
             "the refined core [" + std::to_string(core_lo) + ", " + std::to_string(core_hi) + "] must lie inside [" +
                 std::to_string(lo) + ", " + std::to_string(hi) + "]");
  const auto core_cells = std::max<long>(1, long((core_hi - core_lo) / h + 0.5));
  const double hc = (core_hi - core_lo) / double(core_cells);
  const std::vector<double> below = growing_widths(core_lo - lo, hc, ratio),
                            above = growing_widths(hi - core_hi, hc, ratio);
  std::vector<double> x{lo};
  for (auto w = below.rbegin(); w != below.rend(); ++w) x.push_back(x.back() + *w);
  x.back() = core_lo;
  for (long i = 1; i <= core_cells; ++i) x.push_back(core_lo + hc * double(i));
  x.back() = core_hi;
  for (double w : above) x.push_back(x.back() + w);
  x.back() = hi;
  return x;
}

std::vector<double> shifted_axis_nodes(double lo, const AxisSpec& spec) {
  std::vector<double> x = axis_nodes(spec);
  for (double& v : x) v += lo;
  return x;
}

CartesianGrid::CartesianGrid(const std::array<std::vector<double>, 3>& nodes) {
  for (int d = 0; d < 3; ++d) {
    const char* name = d == 0 ? "x" : d == 1 ? "y" : "z";
    TB_REQUIRE(nodes[d].size() >= 3, std::string("the grid needs at least 2 cells in ") + name);
    GridAxis& a = axes_[d];
    a.nodes = nodes[d];
    for (std::size_t i = 0; i + 1 < a.nodes.size(); ++i) {
      TB_REQUIRE(a.nodes[i + 1] > a.nodes[i],
                 std::string("grid nodes in ") + name + " must increase (node " + std::to_string(i + 1) + ")");
      a.widths.push_back(a.nodes[i + 1] - a.nodes[i]);
      a.centres.push_back(0.5 * (a.nodes[i] + a.nodes[i + 1]));
    }
    n_[d] = a.cells();
  }
  TB_REQUIRE(double(n_[0]) * double(n_[1]) * double(n_[2]) < 2e9, "grid too large for 32-bit indices");
  planes_ = {2, 0, 0, n_[2], n_[2]};
}

CartesianGrid CartesianGrid::piece(const CartesianGrid& whole, index_t first, index_t count, index_t owned_begin,
                                   index_t owned_end) {
  const index_t planes = whole.cells(2);
  TB_REQUIRE(first >= 0 && count >= 2 && first + count <= planes && owned_begin >= 0 && owned_begin < owned_end &&
                 owned_end <= count,
             "internal: z planes " + std::to_string(first) + " + " + std::to_string(count) + " (owned " +
                 std::to_string(owned_begin) + ".." + std::to_string(owned_end) + ") of " + std::to_string(planes));
  const std::vector<double>& z = whole.axis(2).nodes;
  CartesianGrid g({whole.axis(0).nodes, whole.axis(1).nodes, {z.begin() + first, z.begin() + first + count + 1}});
  g.planes_ = {2, first, owned_begin, owned_end, planes};
  return g;
}

GridView CartesianGrid::view(const CellType* types) const {
  GridView v;
  for (int d = 0; d < 3; ++d) {
    const GridAxis& a = axes_[d];
    v.axis[d] = {a.cells(), a.nodes.data(), a.widths.data(), a.centres.data()};
  }
  v.shape = shape();
  v.owned_begin = owned_cell_begin();
  v.owned_end = owned_cell_end();
  v.faces_end = std::min(num_cells(), v.owned_end + stride(2));
  for (int side = 0; side < 6; ++side) v.interface[side] = is_interface(side);
  v.types = types;
  return v;
}

bool CartesianGrid::is_interface(int side) const {
  if (side / 2 != 2) return false;
  return side % 2 == 0 ? planes_.first > 0 : planes_.first + n_[2] < planes_.whole_planes;
}

double CartesianGrid::min_width(const std::array<index_t, 3>& c) const {
  return std::min({axes_[0].widths[c[0]], axes_[1].widths[c[1]], axes_[2].widths[c[2]]});
}

index_t CartesianGrid::bracket(int d, double x) const {
  const std::vector<double>& c = axes_[d].centres;
  const auto it = std::upper_bound(c.begin(), c.end(), x);
  const index_t i = index_t(it - c.begin()) - 1;
  return std::clamp<index_t>(i, 0, index_t(c.size()) - 2);
}

}  // namespace tb::immersed
