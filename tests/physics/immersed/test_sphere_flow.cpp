// A few steps of flow past a sphere: the projected face velocities are
// divergence free on fluid cells to the Poisson tolerance, the ghost cells keep
// the no-slip condition at the surface, and the drag is positive and plausible.
#include <gtest/gtest.h>

#include <cstdio>

#include "ib_fixtures.hpp"
#include "physics/immersed/surface_force.hpp"

namespace tb::test {
namespace {

using namespace tb::immersed;

TEST(SphereFlow, ProjectionIsDivergenceFreeAndDragIsPositive) {
  CartesianGrid grid({clustered_axis_nodes(-2.0, 4.0, -0.7, 0.7, 0.1, 1.2),
                      clustered_axis_nodes(-2.0, 2.0, -0.7, 0.7, 0.1, 1.2),
                      clustered_axis_nodes(-2.0, 2.0, -0.7, 0.7, 0.1, 1.2)});
  FlowSettings s;
  s.nu = 0.01;
  s.dt = 0.05;
  ImmersedFlow flow(std::move(grid), std::make_unique<Sphere>(Vec3{0.0, 0.0, 0.0}, 0.5), s);
  RegistrySolve solver("bicgstab(rtol=1e-10,maxit=2000)+jacobi");
  StepReport r;
  for (int n = 0; n < 5; ++n) {
    r = solver.step(flow);
    ASSERT_TRUE(r.failed.empty()) << r.failed.front();
  }
  const Sphere& sphere = dynamic_cast<const Sphere&>(flow.body());
  const double cd = drag_coefficient(flow, sphere, sphere_force(flow, sphere));
  std::printf("after 5 steps: max div %.2e, cfl %.2f, Cd %.3f\n", r.divergence, r.cfl, cd);
  EXPECT_LT(r.divergence, 1e-6);
  EXPECT_GT(cd, 0.3);
  EXPECT_LT(cd, 20.0);
}

}  // namespace
}  // namespace tb::test
