// Plane Poiseuille flow (parabolic inflow, convective outflow, walls clustered by
// tanh stretching): the steady outlet profile approaches the exact parabola
// u = 6 U (y/H)(1 - y/H) at second order under refinement across the channel.
#include <gtest/gtest.h>

#include <cmath>

#include "flow_fixtures.hpp"

namespace tb::test {
namespace {

double outlet_error(index_t ny) {
  FractionalStep flow(FvGrid(axis(16, 2.0), axis(ny, 1.0, 1.5), axis(1)), channel_sides(), {0.01, 0.1});
  RegistrySolvers solvers;
  const long steps = march_to_steady(flow, solvers, 1e-7, 2000);
  EXPECT_LT(steps, 2000) << "no steady state on " << ny << " cells";
  const FvGrid& g = flow.grid();
  double worst = 0.0;
  for (index_t j = 0; j < ny; ++j) {
    const double y = g.axis(1).centres[j];
    const double u = flow.velocity()[2 * std::size_t(g.index(g.cells(0) - 1, j, 0))];
    worst = std::max(worst, std::abs(u - 6.0 * y * (1.0 - y)));
  }
  return worst;
}

TEST(Poiseuille, OutletErrorFallsAtSecondOrder) {
  const double coarse = outlet_error(12), fine = outlet_error(24);
  const double order = std::log2(coarse / fine);
  std::printf("Poiseuille outlet max error: ny=12 %.3e, ny=24 %.3e, observed order %.2f\n", coarse, fine, order);
  EXPECT_LT(fine, 3e-3);
  EXPECT_GT(order, 1.8);
}

}  // namespace
}  // namespace tb::test
