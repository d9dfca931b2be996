#include "mesh/structured/structured_grid.hpp"

#include <cmath>
#include <string>

#include "solvers/core/error.hpp"

namespace tb {

std::vector<double> axis_nodes(const AxisSpec& a) {
  TB_REQUIRE(a.cells > 0, "an axis needs at least one cell, not " + std::to_string(a.cells));
  TB_REQUIRE(a.length > 0.0, "an axis needs a positive length");
  TB_REQUIRE(a.parameter > 0.0, "stretching parameters must be positive");
  std::vector<double> x(a.cells + 1);
  const double n = a.cells;
  for (index_t i = 0; i <= a.cells; ++i) {
    const double s = i / n;
    switch (a.stretching) {
      case Stretching::Uniform:
        x[i] = a.length * s;
        break;
      case Stretching::Geometric:
        // Widths w, w r, ..., w r^(n-1) summing to the length.
        x[i] = a.parameter == 1.0 ? a.length * s
                                  : a.length * (std::pow(a.parameter, i) - 1.0) / (std::pow(a.parameter, n) - 1.0);
        break;
      case Stretching::Tanh:
        x[i] = 0.5 * a.length * (1.0 + std::tanh(a.parameter * (2.0 * s - 1.0)) / std::tanh(a.parameter));
        break;
    }
  }
  x.front() = 0.0;
  x.back() = a.length;  // exact ends whatever the rounding inside
  return x;
}

std::vector<double> axis_widths(const std::vector<double>& nodes) {
  std::vector<double> w(nodes.size() > 0 ? nodes.size() - 1 : 0);
  for (std::size_t i = 0; i < w.size(); ++i) w[i] = nodes[i + 1] - nodes[i];
  return w;
}

StructuredGrid3D::StructuredGrid3D(const AxisSpec& x, const AxisSpec& y, const AxisSpec& z) {
  const AxisSpec* axes[3] = {&x, &y, &z};
  for (int d = 0; d < 3; ++d) {
    n_[d] = axes[d]->cells;
    nodes_[d] = axis_nodes(*axes[d]);
    widths_[d] = axis_widths(nodes_[d]);
  }
}

}  // namespace tb
