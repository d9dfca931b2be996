// The momentum matrix is the Newton linearisation of the steady residual R:
// A = V/dt I - 1/2 dR/du. R is quadratic in u, so a central difference of R
// reproduces dR/du to round-off; this checks every block entry's contribution,
// the component coupling and the boundary terms.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "flow_fixtures.hpp"
#include "physics/incompressible/momentum.hpp"

namespace tb::test {
namespace {

void check_jacobian(const FvGrid& g, const std::array<BoundarySpec, 6>& sides) {
  const int n = g.dim();
  const std::size_t size = std::size_t(g.num_cells()) * n;
  Boundaries b(g, sides);
  StencilPattern pattern = make_stencil_pattern(g, n);
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> uni(-1.0, 1.0);
  std::vector<double> u(size), grad_p(size), dir(size);
  for (auto* v : {&u, &grad_p, &dir})
    for (double& x : *v) x = uni(rng);
  b.advance_outflow(u, 0.1);
  const double nu = 0.05, dt = 0.2, eps = 1e-3;
  BsrMatrix a = pattern.matrix;
  std::vector<double> r0(size), rp(size), rm(size), up(size), um(size), scratch(size);
  assemble_momentum(g, b, pattern, {u, grad_p, nu, dt}, a, r0);
  for (std::size_t i = 0; i < size; ++i) up[i] = u[i] + eps * dir[i], um[i] = u[i] - eps * dir[i];
  BsrMatrix unused = pattern.matrix;
  assemble_momentum(g, b, pattern, {up, grad_p, nu, dt}, unused, rp);
  assemble_momentum(g, b, pattern, {um, grad_p, nu, dt}, unused, rm);
  std::vector<double> a_dir(size);
  spmv(a, dir.data(), a_dir.data());
  double worst = 0.0, scale = 0.0;
  for (index_t cell = 0; cell < g.num_cells(); ++cell) {
    const double vol = g.volume(g.ijk(cell));
    for (int e = 0; e < n; ++e) {
      const std::size_t i = std::size_t(cell) * n + e;
      const double dr = (rp[i] - rm[i]) / (2.0 * eps);
      const double from_matrix = -2.0 * (a_dir[i] - vol / dt * dir[i]);
      worst = std::max(worst, std::abs(dr - from_matrix));
      scale = std::max(scale, std::abs(dr));
    }
  }
  EXPECT_LT(worst, 1e-9 * scale) << "scale " << scale;
}

TEST(MomentumJacobian, MatchesTheResidualIn2DCavity) {
  check_jacobian(FvGrid(axis(5), axis(4, 1.0, 1.5), axis(1)), cavity_walls());
}

TEST(MomentumJacobian, MatchesTheResidualIn3DWithInflowAndOutflow) {
  check_jacobian(FvGrid(axis(4, 2.0, 1.0), axis(3), axis(3, 0.5)), channel_sides());
}

}  // namespace
}  // namespace tb::test
