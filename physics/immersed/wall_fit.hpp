#pragma once
// Second-order reconstruction next to an immersed wall. At a wall point B with
// unit normal n (into the fluid) the quadratic
//   phi(x) = c . q(xi, eta, zeta),  q = (1, xi, eta, zeta, xi^2, eta^2, zeta^2, xi eta, eta zeta, zeta xi),
// in the frame (xi along n, eta and zeta along the wall) of x - B over the local
// width h, is fitted by weighted least squares (weights 1 / (1 + r^2 / h^2)) to
// the fluid cells whose centres lie within `reach` widths of B, with the wall
// condition held exactly: Dirichlet phi(B) = phi_B fixes c_0, Neumann
// dphi/dn(B) = g fixes c_1 = g h. The fit is exact for quadratic fields, so a
// value it gives within a cell or two of B is third-order accurate and its
// normal derivative at B second-order accurate (the trilinear image-point
// interpolation of Mittal et al. 2008 is exact for linear fields only; its
// Neumann rows converge at first order).
//
// Every quantity taken from the fit is a linear functional of c, and so a
// stencil: sum_k w_k phi(cell_k) + w_B (phi_B or g). The stencils depend on the
// body position and the cell types only: built once per position.
#include <span>
#include <vector>

#include "physics/immersed/cartesian_grid.hpp"
#include "physics/immersed/cell_kernels.hpp"

namespace tb::immersed {

enum class WallCondition : std::uint8_t { dirichlet, neumann };

struct WallStencil {
  std::vector<index_t> cells;  // fluid cells
  std::vector<double> weights;
  double boundary_weight = 0.0;  // of phi_B (Dirichlet) or dphi/dn (Neumann)
  double apply(std::span<const double> field, double boundary_value) const;
};

// Stencils one after another, as the kernels read them (cell::StencilsView):
// stencil k's entries are [offsets[k], offsets[k + 1]), each an index (a cell,
// or a matrix position) and its weight, and its boundary weight.
struct FlatStencils {
  std::vector<index_t> offsets{0}, at;
  std::vector<double> weights, boundary_weights;
  void add(std::span<const index_t> indices, std::span<const double> w, double boundary_weight);
  void add(const WallStencil& s) { add(s.cells, s.weights, s.boundary_weight); }
  index_t count() const { return index_t(offsets.size()) - 1; }
  cell::StencilsView view() const { return {count(), offsets.data(), at.data(), weights.data()}; }
};

class WallFit {
 public:
  static constexpr double default_reach = 2.5;  // widths around B
  // Throws tb::Error when the fluid cells within `reach` (and up to 1.5 widths
  // further) do not determine the quadratic: a wall the grid does not resolve.
  WallFit(const CartesianGrid& grid, std::span<const CellType> types, const Vec3& wall_point, const Vec3& normal,
          WallCondition condition, double reach = default_reach);

  WallStencil value_at(const Vec3& x) const;  // phi(x)
  WallStencil normal_derivative() const;      // dphi/dn at B
  double width() const { return h_; }

 private:
  using Coefficients = std::array<double, 10>;
  WallStencil functional(const Coefficients& ell) const;
  Coefficients basis(const Vec3& x) const;

  Vec3 b_{}, frame_[3]{};
  double h_ = 0.0;
  WallCondition condition_;
  std::vector<index_t> cells_;
  std::vector<double> map_;                 // 9 x cells, row-major: the free coefficients from the cells' values
  std::array<double, 9> fixed_response_{};  // the free coefficients from the fixed one (c_0 or c_1) at 1
};

}  // namespace tb::immersed
