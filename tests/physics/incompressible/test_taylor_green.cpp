// The unsteady Taylor-Green vortex in a doubly periodic box [0, 2 pi]^2, an exact
// solution of the Navier-Stokes equations with non-zero convection:
//   u = -cos x sin y F(t),  v = sin x cos y F(t),  p = -(cos 2x + cos 2y) F(t)^2 / 4,
//   F(t) = exp(-2 nu t).
// With a small time step the velocity error after a fixed time falls at second
// order in space; this checks the Newton-linearised convection, Crank-Nicolson
// and the projection together against an exact unsteady answer.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "flow_fixtures.hpp"

namespace tb::test {
namespace {

std::array<BoundarySpec, 6> doubly_periodic() {
  std::array<BoundarySpec, 6> b{};
  for (int side = 0; side < 4; ++side) b[side].kind = BoundaryKind::periodic;
  return b;
}

double taylor_green_error(index_t n, double dt, double end_time, double amp = 1.0) {
  const double two_pi = 2.0 * std::numbers::pi, nu = 0.05;
  FractionalStep flow(FvGrid(axis(n, two_pi), axis(n, two_pi), axis(1), {true, true, false}), doubly_periodic(),
                      {nu, dt});
  const FvGrid& g = flow.grid();
  auto exact = [&](index_t cell, double t, int e) {
    const auto c = g.ijk(cell);
    const double x = g.axis(0).centres[c[0]], y = g.axis(1).centres[c[1]], f = std::exp(-2.0 * nu * t);
    if (e == 0) return -amp * std::cos(x) * std::sin(y) * f;
    if (e == 1) return amp * std::sin(x) * std::cos(y) * f;
    return -amp * amp * (std::cos(2 * x) + std::cos(2 * y)) * f * f / 4.0;
  };
  for (index_t cell = 0; cell < g.num_cells(); ++cell) {
    flow.velocity()[2 * std::size_t(cell)] = exact(cell, 0.0, 0);
    flow.velocity()[2 * std::size_t(cell) + 1] = exact(cell, 0.0, 1);
    flow.pressure()[cell] = exact(cell, 0.0, 2);
  }
  RegistrySolvers solvers;
  const long steps = std::lround(end_time / dt);
  for (long s = 0; s < steps; ++s) EXPECT_TRUE(solvers.step(flow).failed.empty());
  double worst = 0.0;
  for (index_t cell = 0; cell < g.num_cells(); ++cell)
    for (int e = 0; e < 2; ++e)
      worst = std::max(worst, std::abs(flow.velocity()[2 * std::size_t(cell) + e] - exact(cell, flow.time(), e)));
  return worst;
}

TEST(TaylorGreen, VelocityErrorFallsAtSecondOrderInSpace) {
  const double coarse = taylor_green_error(16, 0.02, 1.0), fine = taylor_green_error(32, 0.02, 1.0);
  const double order = std::log2(coarse / fine);
  std::printf("Taylor-Green max velocity error at t = 1: 16^2 %.3e, 32^2 %.3e, order %.2f\n", coarse, fine, order);
  EXPECT_GT(order, 1.8);
  EXPECT_LT(fine, 5e-3);
}

}  // namespace
}  // namespace tb::test
