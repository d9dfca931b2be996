// The resident step on the device (ResidentStep, Backend::cuda, the systems'
// own CUDA storage and solvers on backend=cuda that refresh in place) against
// the host's FractionalStep::step: the same flow to the solvers' tolerance
// (the device's sums add in another order and its Krylov iterations round
// differently, so not bit for bit), and per step after the first only a few
// scalars move between host and device, not a field. Skips with the reason
// when no device is visible.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "flow_fixtures.hpp"
#include "physics/incompressible/resident_step.hpp"
#include "solvers/core/backend.hpp"
#include "solvers/core/transfers.hpp"
#include "solvers/systems/system_set.hpp"

namespace tb::test {
namespace {

systems::SystemSet make_set(const char* backend) {
  const std::string b = backend;
  return systems::SystemSet({.specs = {{"momentum", "bicgstab(rtol=1e-12,maxit=500" + b + ")+block_jacobi"},
                                       {"pressure", "cg(rtol=1e-12,maxit=4000,stagnation=0" + b + ")+jacobi"}},
                             .speaks = false});
}

double max_difference(std::span<const double> a, std::span<const double> b) {
  double worst = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) worst = std::max(worst, std::abs(a[i] - b[i]));
  return worst;
}

void follows_the_host(const FvGrid& grid, const std::array<BoundarySpec, 6>& sides) {
  FractionalStep host(grid, sides, {0.01, 0.05}), flow(grid, sides, {0.01, 0.05});
  systems::SystemSet on_host = make_set(""), on_device = make_set(",backend=cuda");
  host.declare_systems(on_host);
  flow.declare_systems(on_device);
  ResidentStep resident(flow, on_device, Backend::cuda);
  const std::size_t field_bytes = flow.velocity().size() * sizeof(double);
  for (long step = 1; step <= 4; ++step) {
    on_host.begin_step(step);
    on_device.begin_step(step);
    const StepReport a = host.step(on_host);
    const transfers::Totals before = transfers::totals();
    const StepReport b = resident.step(on_device);
    const transfers::Totals moved = transfers::since(before);
    ASSERT_TRUE(a.failed.empty() && b.failed.empty()) << "step " << step;
    EXPECT_NEAR(a.momentum_residual, b.momentum_residual, 1e-10 * a.momentum_residual) << "step " << step;
    EXPECT_NEAR(a.cfl, b.cfl, 1e-9 * a.cfl) << "step " << step;
    if (step > 1) {
      // No field crosses: what does is the solves' scalars, with them on the
      // host at most BiCGStab's six reductions an iteration (48 bytes).
      long iterations = 0;
      for (const systems::SolveRecord& r : on_device.driver_records()) iterations += r.stats.iterations;
      const std::uint64_t moved_bytes = moved.to_device.bytes + moved.to_host.bytes;
      EXPECT_LT(moved_bytes, field_bytes / 8 + 48 * std::uint64_t(iterations))
          << "step " << step << ", " << iterations << " iterations";
    }
    resident.to_host();
    EXPECT_LT(max_difference(host.velocity(), flow.velocity()), 1e-9) << "step " << step;
    EXPECT_LT(max_difference(host.pressure(), flow.pressure()), 1e-8) << "step " << step;
  }
  // A maximum is exact in any order: the device's reduction gives the host's.
  double max_u = 0.0;
  for (double v : flow.velocity()) max_u = std::max(max_u, std::abs(v));
  EXPECT_EQ(resident.max_velocity(), max_u);
  for (int side = 0; side < 6; ++side)
    EXPECT_LT(max_difference(host.boundaries().side_values(side), flow.boundaries().side_values(side)), 1e-9)
        << "side " << side;
}

TEST(ResidentStepOnTheDevice, FollowsTheHostStepAndMovesNoField) {
  if (const std::string why = cuda_unavailable_reason(); !why.empty()) GTEST_SKIP() << why;
  follows_the_host(FvGrid(axis(24, 1.0, 1.5), axis(20, 1.0, 1.2), axis(16)), cavity_walls());
}

// The convective outflow's face values and mass correction on the device.
TEST(ResidentStepOnTheDevice, AChannelWithAnOutflowFollowsTheHost) {
  if (const std::string why = cuda_unavailable_reason(); !why.empty()) GTEST_SKIP() << why;
  follows_the_host(FvGrid(axis(48, 4.0, 1.1), axis(24), axis(1)), channel_sides());
}

}  // namespace
}  // namespace tb::test
