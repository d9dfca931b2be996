#pragma once
// Structured 3D IJK grids with per-direction stretching, for the structured
// incompressible code and the FGBILU room (seed 000).
#include <array>
#include <vector>

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
  // i fastest: the layout of the 7-point block stencil's rows.
  index_t index(index_t i, index_t j, index_t k) const { return i + n_[0] * (j + n_[1] * k); }

 private:
  std::array<index_t, 3> n_;
  std::array<std::vector<double>, 3> nodes_, widths_;
};

// Wavefront hyperplanes p = i + j + k (seed 000 §2.1, Algorithm 1): every cell's
// lower neighbours (i-1, j, k), (i, j-1, k), (i, j, k-1) lie in plane p - 1, so
// the cells of one plane factorise and solve in parallel. Within a plane cells
// follow Algorithm 1's loop order (i, then j, then k).
struct Hyperplanes {
  std::vector<index_t> plane_ptr{0};  // plane p: ijk[plane_ptr[p] .. plane_ptr[p+1])
  std::vector<std::array<index_t, 3>> ijk;
  index_t num_planes() const { return static_cast<index_t>(plane_ptr.size()) - 1; }
  index_t plane_size(index_t p) const { return plane_ptr[p + 1] - plane_ptr[p]; }
};
Hyperplanes wavefront_hyperplanes(index_t ni, index_t nj, index_t nk);

}  // namespace tb
