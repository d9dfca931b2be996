// The 3D code path against the 2D one: a flow that does not depend on z,
// computed on a 3D grid periodic in z, must reproduce the 2D solution with
// w = 0 (to the solvers' tolerance). This exercises the n = 3 blocks, the k
// faces, the periodic wrap and the 3D projection on a problem with a known answer.
#include <gtest/gtest.h>

#include <cmath>

#include "flow_fixtures.hpp"

namespace tb::test {
namespace {

void expect_z_invariant_matches_2d(const std::array<BoundarySpec, 6>& sides, const AxisSpec& x, const AxisSpec& y) {
  FractionalStep flat(FvGrid(x, y, axis(1)), sides, {0.02, 0.1});
  auto sides3 = sides;
  sides3[4].kind = sides3[5].kind = BoundaryKind::periodic;
  FractionalStep deep(FvGrid(x, y, axis(3, 0.7), {false, false, true}), sides3, {0.02, 0.1});
  RegistrySolvers s2("bicgstab(rtol=1e-13,maxit=500)+bilu0", "cg(rtol=1e-13,maxit=2000)+bilu0");
  RegistrySolvers s3("bicgstab(rtol=1e-13,maxit=500)+bilu0", "cg(rtol=1e-13,maxit=2000)+bilu0");
  for (int n = 0; n < 6; ++n) {
    ASSERT_TRUE(s2.step(flat).failed.empty());
    ASSERT_TRUE(s3.step(deep).failed.empty());
  }
  const FvGrid& g = flat.grid();
  double worst = 0.0, scale = 0.0;
  for (index_t k = 0; k < 3; ++k)
    for (index_t cell = 0; cell < g.num_cells(); ++cell) {
      const auto c = g.ijk(cell);
      const std::size_t c3 = 3 * std::size_t(deep.grid().index(c[0], c[1], k));
      for (int e = 0; e < 2; ++e) {
        worst = std::max(worst, std::abs(deep.velocity()[c3 + e] - flat.velocity()[2 * std::size_t(cell) + e]));
        scale = std::max(scale, std::abs(flat.velocity()[2 * std::size_t(cell) + e]));
      }
      worst = std::max(worst, std::abs(deep.velocity()[c3 + 2]));
    }
  EXPECT_GT(scale, 0.1);
  EXPECT_LT(worst, 1e-9 * scale);
}

TEST(ThreeDimensional, SpanwisePeriodicCavityEqualsTheTwoDimensionalCavity) {
  expect_z_invariant_matches_2d(cavity_walls(), axis(8, 1.0, 1.0), axis(7));
}

TEST(ThreeDimensional, SpanwisePeriodicChannelEqualsTheTwoDimensionalChannel) {
  expect_z_invariant_matches_2d(channel_sides(), axis(10, 2.0), axis(6, 1.0, 1.5));
}

}  // namespace
}  // namespace tb::test
