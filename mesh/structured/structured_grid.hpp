#pragma once
// Structured 3D IJK grids with per-direction stretching, for the structured
// incompressible code and the immersed-boundary grid (uniform and tanh axes).
#include <array>
#include <vector>

#include "mesh/graph/structured_index.hpp"
#include "solvers/core/types.hpp"

namespace tb {

enum class Stretching {
  Uniform,
  Geometric,  // width_{i+1} = ratio * width_i (parameter = ratio > 0)
  Tanh,       // x = L/2 (1 + tanh(beta (2s - 1)) / tanh(beta)): clustered at both ends (parameter = beta > 0)
};

struct AxisSpec {
  index_t cells = 1;
  double length = 1.0;
  Stretching stretching = Stretching::Uniform;
  double parameter = 1.0;
};

// cells+1 node coordinates from 0 to length, increasing. Throws tb::Error on a
// non-positive cell count, length or parameter.
std::vector<double> axis_nodes(const AxisSpec& axis);
// Cell widths (differences of consecutive nodes).
std::vector<double> axis_widths(const std::vector<double>& nodes);

class StructuredGrid3D {
 public:
  StructuredGrid3D(const AxisSpec& x, const AxisSpec& y, const AxisSpec& z);
  index_t cells(int direction) const { return n_[direction]; }
  index_t num_cells() const { return n_[0] * n_[1] * n_[2]; }
  const std::vector<double>& nodes(int direction) const { return nodes_[direction]; }
  const std::vector<double>& widths(int direction) const { return widths_[direction]; }
  StructuredIndex shape() const { return {n_[0], n_[1], n_[2]}; }
  // i fastest: the layout of the 7-point block stencil's rows.
  index_t index(index_t i, index_t j, index_t k) const { return shape().natural(i, j, k); }

 private:
  std::array<index_t, 3> n_;
  std::array<std::vector<double>, 3> nodes_, widths_;
};

}  // namespace tb
