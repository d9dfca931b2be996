// The immersed-boundary resident step on the device (ResidentStep,
// Backend::cuda, the systems' own CUDA storage and solvers on backend=cuda)
// against the host's ImmersedFlow::step: the same flow to the solvers'
// tolerance (the device's sums add in another order and its Krylov iterations
// round differently, so not bit for bit), the drag alike, and per step after
// the first only a few scalars move between host and device, not a field.
// A moving body likewise. Skips with the reason when no device is visible.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "ib_fixtures.hpp"
#include "physics/immersed/resident_step.hpp"
#include "physics/immersed/surface_force.hpp"
#include "solvers/core/backend.hpp"
#include "solvers/core/transfers.hpp"
#include "solvers/systems/system_set.hpp"

namespace tb::test {
namespace {

using namespace tb::immersed;

systems::SystemSet make_set(const char* backend) {
  const std::string b = backend;
  return systems::SystemSet({.specs = {{"advection_diffusion", "bicgstab(rtol=1e-12,maxit=500" + b + ")+jacobi"},
                                       {"pressure", "bicgstab(rtol=1e-12,maxit=4000" + b + ")+jacobi"}},
                             .speaks = false});
}

double max_difference(std::span<const double> a, std::span<const double> b) {
  double worst = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) worst = std::max(worst, std::abs(a[i] - b[i]));
  return worst;
}

TEST(IbResidentStepOnTheDevice, FollowsTheHostStepAndMovesNoField) {
  if (const std::string why = cuda_unavailable_reason(); !why.empty()) GTEST_SKIP() << why;
  const auto grid = [] {
    return CartesianGrid({clustered_axis_nodes(-1.5, 3.0, -0.7, 0.7, 0.1, 1.2),
                          clustered_axis_nodes(-1.5, 1.5, -0.7, 0.7, 0.1, 1.2),
                          clustered_axis_nodes(-1.5, 1.5, -0.7, 0.7, 0.1, 1.2)});
  };
  FlowSettings s;
  s.nu = 0.02;
  s.dt = 0.05;
  ImmersedFlow host(grid(), std::make_unique<Sphere>(Vec3{0.0, 0.0, 0.0}, 0.5), s);
  ImmersedFlow flow(grid(), std::make_unique<Sphere>(Vec3{0.0, 0.0, 0.0}, 0.5), s);
  systems::SystemSet on_host = make_set(""), on_device = make_set(",backend=cuda");
  host.declare_systems(on_host);
  flow.declare_systems(on_device);
  ResidentStep resident(flow, on_device, Backend::cuda);
  const Sphere& body = dynamic_cast<const Sphere&>(host.body());
  SphereDrag drag_host(host, body), drag_device(flow, body);
  const std::size_t field_bytes = flow.pressure().size() * sizeof(double);
  for (long step = 1; step <= 4; ++step) {
    on_host.begin_step(step);
    on_device.begin_step(step);
    const StepReport a = host.step(on_host);
    const transfers::Totals before = transfers::totals();
    const StepReport b = resident.step(on_device);
    const SurfaceForce f = resident.force(drag_device);
    const transfers::Totals moved = transfers::since(before);
    ASSERT_TRUE(a.failed.empty() && b.failed.empty()) << "step " << step;
    EXPECT_NEAR(a.cfl, b.cfl, 1e-9 * a.cfl) << "step " << step;
    if (step > 1) {
      EXPECT_LT(moved.to_device.bytes + moved.to_host.bytes, field_bytes / 8) << "step " << step;
    }
    const SurfaceForce g = drag_host.force(host);
    EXPECT_NEAR(f.total()[0], g.total()[0], 1e-8 * std::abs(g.total()[0])) << "step " << step;
    resident.to_host();
    for (int d = 0; d < 3; ++d) EXPECT_LT(max_difference(host.velocity(d), flow.velocity(d)), 1e-9) << "step " << step;
    EXPECT_LT(max_difference(host.pressure(), flow.pressure()), 1e-8) << "step " << step;
  }
  double max_u = 0.0;
  for (int d = 0; d < 3; ++d)
    for (double v : flow.velocity(d)) max_u = std::max(max_u, std::abs(v));
  EXPECT_EQ(resident.max_velocity(), max_u);
}

// A pulsating body: placed on the host each step, its changes sent, cleared
// cells filled on the device (move_cells); the host's flow to the solvers'
// tolerance. Besides the systems' own copies at a changed pattern, the step
// sends its band and layout (uploads()) and brings back scalars only.
TEST(IbResidentStepOnTheDevice, AMovingBodyFollowsTheHostStep) {
  if (const std::string why = cuda_unavailable_reason(); !why.empty()) GTEST_SKIP() << why;
  const auto grid = [] {
    return CartesianGrid({clustered_axis_nodes(-1.5, 3.0, -0.7, 0.7, 0.14, 1.2),
                          clustered_axis_nodes(-1.5, 1.5, -0.7, 0.7, 0.14, 1.2),
                          clustered_axis_nodes(-1.5, 1.5, -0.7, 0.7, 0.14, 1.2)});
  };
  const auto body = [] {
    return std::make_unique<PulsatingEllipsoid>(Vec3{0.03, -0.02, 0.01}, Vec3{0.5, 0.4, 0.4}, 0.15, 2.0);
  };
  FlowSettings s;
  s.nu = 0.02;
  s.dt = 0.05;
  s.sides[2] = SideKind::wall;
  ImmersedFlow host(grid(), body(), s), flow(grid(), body(), s);
  systems::SystemSet on_host = make_set(""), on_device = make_set(",backend=cuda");
  host.declare_systems(on_host);
  flow.declare_systems(on_device);
  ResidentStep resident(flow, on_device, Backend::cuda);
  const std::size_t cells = flow.pressure().size();
  long cleared = 0;
  for (long step = 1; step <= 8; ++step) {
    on_host.begin_step(step);
    on_device.begin_step(step);
    const StepReport a = host.step(on_host);
    const transfers::Totals before = transfers::totals();
    const StepReport b = resident.step(on_device);
    const transfers::Totals moved = transfers::since(before);
    ASSERT_TRUE(a.failed.empty() && b.failed.empty()) << "step " << step;
    EXPECT_EQ(flow.cleared_cells(), host.cleared_cells()) << "step " << step;
    cleared += host.cleared_cells();
    EXPECT_NEAR(a.cfl, b.cfl, 1e-9 * a.cfl) << "step " << step;
    const ResidentStep::Uploads sent = resident.uploads();
    // The systems' pattern (2 systems, offsets and columns) and their set-up's matrices, at most.
    const std::size_t nnz = std::size_t(make_system_pattern(flow.grid(), flow.cells()).matrix.nnz_blocks());
    const std::size_t systems_bytes = 2 * (2 * (cells + 1 + nnz) * sizeof(index_t) + 2 * nnz * sizeof(double));
    EXPECT_LE(moved.to_device.bytes, sent.band + sent.layout + systems_bytes) << "step " << step;
    std::printf("step %ld: sent %zu B band, %zu B layout; %llu B to the device, %llu B back\n", step, sent.band,
                sent.layout, static_cast<unsigned long long>(moved.to_device.bytes),
                static_cast<unsigned long long>(moved.to_host.bytes));
    resident.to_host();
    for (int d = 0; d < 3; ++d) EXPECT_LT(max_difference(host.velocity(d), flow.velocity(d)), 1e-9) << "step " << step;
    EXPECT_LT(max_difference(host.pressure(), flow.pressure()), 1e-8) << "step " << step;
  }
  EXPECT_GT(cleared, 0);
}

}  // namespace
}  // namespace tb::test
