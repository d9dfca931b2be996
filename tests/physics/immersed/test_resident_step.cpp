// The immersed-boundary resident step (ResidentStep) on the host backend
// against the host's own ImmersedFlow::step, bit for bit: the same kernels in
// the same order, its matrices' values written where the systems keep them
// (here host memory standing in for a device) and read there in place by the
// solvers. What moves per step: nothing, once the first step has laid out the
// patterns. The drag reduced where the fields are equals the host's.
#include <gtest/gtest.h>

#include <cstring>
#include <sstream>
#include <vector>

#include "../../common/bits.hpp"
#include "../../common/memory_storage.hpp"
#include "ib_fixtures.hpp"
#include "physics/immersed/resident_step.hpp"
#include "physics/immersed/surface_force.hpp"
#include "solvers/core/transfers.hpp"
#include "solvers/systems/device_storage.hpp"
#include "solvers/systems/system_set.hpp"

namespace tb::test {
namespace {

using namespace tb::immersed;

const std::map<std::string, std::string> specs = {{"advection_diffusion", "bicgstab(rtol=1e-10,maxit=500)+jacobi"},
                                                  {"pressure", "bicgstab(rtol=1e-10,maxit=2000)+jacobi"}};

systems::SystemSet make_set(systems::DeviceStorage* storage) {
  return systems::SystemSet({.specs = specs, .speaks = false, .device_storage = storage});
}

CartesianGrid sphere_grid() {
  return CartesianGrid({clustered_axis_nodes(-1.5, 3.0, -0.7, 0.7, 0.14, 1.2),
                        clustered_axis_nodes(-1.5, 1.5, -0.7, 0.7, 0.14, 1.2),
                        clustered_axis_nodes(-1.5, 1.5, -0.7, 0.7, 0.14, 1.2)});
}

FlowSettings settings() {
  FlowSettings s;
  s.nu = 0.02;
  s.dt = 0.05;
  s.sides[2] = SideKind::wall;  // a wall beside the inflow and outflow sides
  return s;
}

std::unique_ptr<Sphere> sphere() { return std::make_unique<Sphere>(Vec3{0.03, -0.02, 0.01}, 0.5); }

void expect_same_report(const StepReport& a, const StepReport& b, long step) {
  EXPECT_EQ(a.time, b.time) << "step " << step;
  EXPECT_EQ(a.cfl, b.cfl) << "step " << step;
  EXPECT_EQ(a.velocity_change, b.velocity_change) << "step " << step;
  EXPECT_EQ(a.divergence, b.divergence) << "step " << step;
  EXPECT_EQ(a.failed, b.failed) << "step " << step;
}

void expect_same_fields(const ImmersedFlow& a, const ImmersedFlow& b, long step) {
  for (int d = 0; d < 3; ++d) {
    EXPECT_TRUE(same_bits(a.velocity(d), b.velocity(d))) << "step " << step << " u" << d;
    EXPECT_TRUE(same_bits(a.faces().normal(d), b.faces().normal(d))) << "step " << step << " faces " << d;
  }
  EXPECT_TRUE(same_bits(a.pressure(), b.pressure())) << "step " << step;
  EXPECT_EQ(a.steps(), b.steps());
}

TEST(IbResidentStep, StepsGiveTheHostStepsBitsAndMoveNothing) {
  ImmersedFlow host(sphere_grid(), sphere(), settings()), flow(sphere_grid(), sphere(), settings());
  ASSERT_TRUE(ResidentStep::resident(flow));
  systems::SystemSet on_host = make_set(nullptr);
  MemoryStorage device;
  systems::SystemSet on_device = make_set(&device);
  host.declare_systems(on_host);
  flow.declare_systems(on_device);
  ResidentStep resident(flow, on_device, Backend::host);
  const Sphere& body = dynamic_cast<const Sphere&>(host.body());
  SphereDrag drag_host(host, body), drag_resident(flow, body);
  for (long step = 1; step <= 4; ++step) {
    on_host.begin_step(step);
    on_device.begin_step(step);
    const StepReport a = host.step(on_host);
    const transfers::Totals before = transfers::totals();
    const StepReport b = resident.step(on_device);
    const SurfaceForce f = resident.force(drag_resident);
    const double speed = resident.max_velocity();
    const transfers::Totals moved = transfers::since(before);
    EXPECT_GT(a.cfl, 0.0);
    EXPECT_TRUE(a.failed.empty());
    expect_same_report(a, b, step);
    if (step > 1) {
      EXPECT_EQ(moved.to_device.bytes + moved.to_host.bytes, 0u) << "step " << step;
    }
    const SurfaceForce g = drag_host.force(host);
    for (int d = 0; d < 3; ++d) {
      EXPECT_EQ(f.pressure[d], g.pressure[d]) << "step " << step;
      EXPECT_EQ(f.viscous[d], g.viscous[d]) << "step " << step;
    }
    EXPECT_GT(g.total()[0], 0.0);
    double host_speed = 0.0;
    for (int d = 0; d < 3; ++d)
      for (double u : host.velocity(d)) host_speed = std::max(host_speed, std::abs(u));
    EXPECT_EQ(speed, host_speed);
    resident.to_host();
    expect_same_fields(host, flow, step);
  }
}

// The kept state (the harness's last good state) moves nothing and comes back
// bit for bit; a state loaded on the host goes to the backend with from_host.
TEST(IbResidentStep, KeptAndLoadedStatesComeBackBitForBit) {
  ImmersedFlow host(sphere_grid(), sphere(), settings()), flow(sphere_grid(), sphere(), settings());
  systems::SystemSet on_host = make_set(nullptr);
  MemoryStorage device;
  systems::SystemSet on_device = make_set(&device);
  host.declare_systems(on_host);
  flow.declare_systems(on_device);
  ResidentStep resident(flow, on_device, Backend::host);
  const auto step = [&](long n) {
    on_device.begin_step(n);
    ASSERT_TRUE(resident.step(on_device).failed.empty()) << "step " << n;
  };
  step(1);
  step(2);
  const transfers::Totals before = transfers::totals();
  resident.keep();
  resident.keep();
  EXPECT_EQ(transfers::since(before).to_device.bytes + transfers::since(before).to_host.bytes, 0u);
  resident.to_host();
  std::stringstream two;
  flow.save(two);
  step(3);
  resident.to_host();
  const std::vector<double> u3(flow.velocity(0).begin(), flow.velocity(0).end());
  step(4);
  resident.restore_kept();
  EXPECT_EQ(flow.steps(), 2);
  step(3);
  resident.to_host();
  EXPECT_TRUE(same_bits(flow.velocity(0), u3));

  for (long n = 1; n <= 2; ++n) {
    on_host.begin_step(n);
    ASSERT_TRUE(host.step(on_host).failed.empty());
  }
  std::stringstream saved;
  host.save(saved);
  flow.load(saved);
  resident.from_host();
  on_host.begin_step(3);
  on_device.begin_step(3);
  const StepReport a = host.step(on_host), b = resident.step(on_device);
  expect_same_report(a, b, 3);
  resident.to_host();
  expect_same_fields(host, flow, 3);
}

TEST(IbResidentStep, MovingBodiesStayOnTheHost) {
  ImmersedFlow moving(sphere_grid(),
                      std::make_unique<PulsatingEllipsoid>(Vec3{0.0, 0.0, 0.0}, Vec3{0.5, 0.4, 0.4}, 0.1, 1.0),
                      settings());
  EXPECT_FALSE(ResidentStep::resident(moving));
}

}  // namespace
}  // namespace tb::test
