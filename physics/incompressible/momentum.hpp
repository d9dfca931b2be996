#pragma once
// The implicit momentum predictor in delta form (docs/incompressible.md, eq. M):
//   [V/dt I + 1/2 (J_c - nu L)] du = R(u^n),
//   R(u) = -sum_f F_f(u) u_f + nu sum_f A_f grad_f u - V grad p^n + V f,
// with F_f = A_f u_f . n_f and u_f the linear interpolation of the cell values
// (the boundary velocity on boundary faces). J_c is the Newton linearisation of
// the convection term: d(F_f u_f)/du = A_f w (u_f . n I + u_f n^T), whose second
// part couples the velocity components of a cell, so each block is a full
// dim x dim matrix. Crank-Nicolson for both terms makes the step second order.
#include <span>

#include "physics/incompressible/boundaries.hpp"
#include "physics/incompressible/stencil_pattern.hpp"

namespace tb::incompressible {

struct MomentumInput {
  std::span<const double> u;       // dim per cell
  std::span<const double> grad_p;  // dim per cell
  double nu = 0.01;
  double dt = 0.01;
  std::array<double, 3> body_force{};
};

// Fills the values of a (pattern from make_stencil_pattern with block size dim)
// and rhs = R(u^n); returns ||R||_2 over the domain volume (the steady residual),
// on a piece of the grid over the owned cells of all ranks of `share`, whose
// blocks in ghost columns go to off_rank (pattern.off_rank's pattern; null
// only where the pattern has none).
double assemble_momentum(const FvGrid& g, const Boundaries& b, const StencilPattern& pattern, const MomentumInput& in,
                         BsrMatrix& a, std::span<double> rhs, const DomainShare* share = nullptr,
                         BsrMatrix* off_rank = nullptr);

struct MomentumSums;  // kernels.hpp
// That norm from the sums of one rank's rows (kernels::momentum_rows, on
// whichever backend), over the ranks of `share` (null: this rank's alone).
double momentum_residual(const MomentumSums& sums, const DomainShare* share);

}  // namespace tb::incompressible
