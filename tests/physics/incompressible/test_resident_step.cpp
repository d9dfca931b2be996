// The resident step (ResidentStep) on the host backend against the host's own
// FractionalStep::step, bit for bit: the same kernels in the same order, its
// matrices' values written where the systems keep them (here host memory
// standing in for a device) and read there in place by the solvers. And what
// moves per step: nothing, once the first step has laid out the patterns.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <sstream>
#include <vector>

#include "../../common/bits.hpp"
#include "../../common/memory_storage.hpp"
#include "flow_fixtures.hpp"
#include "physics/incompressible/resident_step.hpp"
#include "solvers/core/transfers.hpp"
#include "solvers/systems/device_storage.hpp"
#include "solvers/systems/system_set.hpp"

namespace tb::test {
namespace {

// Drivers that refresh in place: the resident step's solves read the values where they were written.
const std::map<std::string, std::string> specs = {{"momentum", "bicgstab(rtol=1e-10,maxit=500)+block_jacobi"},
                                                  {"pressure", "cg(rtol=1e-10,maxit=2000)+jacobi"}};

systems::SystemSet make_set(systems::DeviceStorage* storage) {
  return systems::SystemSet({.specs = specs, .speaks = false, .device_storage = storage});
}

void expect_same_report(const StepReport& a, const StepReport& b, long step) {
  EXPECT_EQ(a.time, b.time) << "step " << step;
  EXPECT_EQ(a.cfl, b.cfl) << "step " << step;
  EXPECT_EQ(a.momentum_residual, b.momentum_residual) << "step " << step;
  EXPECT_EQ(a.velocity_change, b.velocity_change) << "step " << step;
  EXPECT_EQ(a.divergence, b.divergence) << "step " << step;
  EXPECT_EQ(a.projection_corrections, b.projection_corrections) << "step " << step;
  EXPECT_EQ(a.failed, b.failed) << "step " << step;
}

// `steps` steps of two copies of one flow, one on the host, one resident; the
// fields are compared after each (the resident one brought back); `corrections`
// (where given) counts the projection's corrections over the steps.
void compare_steps(const FvGrid& grid, const std::array<BoundarySpec, 6>& sides, const FlowSettings& settings,
                   long steps, long* corrections = nullptr) {
  FractionalStep host(grid, sides, settings), flow(grid, sides, settings);
  systems::SystemSet on_host = make_set(nullptr);
  MemoryStorage device;
  systems::SystemSet on_device = make_set(&device);
  host.declare_systems(on_host);
  flow.declare_systems(on_device);
  ResidentStep resident(flow, on_device, Backend::host);
  for (long step = 1; step <= steps; ++step) {
    on_host.begin_step(step);
    on_device.begin_step(step);
    const StepReport a = host.step(on_host);
    const transfers::Totals before = transfers::totals();
    const StepReport b = resident.step(on_device);
    const transfers::Totals moved = transfers::since(before);
    EXPECT_GT(a.cfl, 0.0);
    EXPECT_TRUE(a.failed.empty());
    expect_same_report(a, b, step);
    if (corrections) *corrections += a.projection_corrections;
    if (step > 1) {
      EXPECT_EQ(moved.to_device.bytes + moved.to_host.bytes, 0u) << "step " << step;
    }
    resident.to_host();
    EXPECT_TRUE(same_bits(host.velocity(), flow.velocity())) << "step " << step;
    EXPECT_TRUE(same_bits(host.pressure(), flow.pressure())) << "step " << step;
    EXPECT_TRUE(same_bits(host.divergence(), flow.divergence())) << "step " << step;
    for (int d = 0; d < 3; ++d)
      EXPECT_TRUE(same_bits(host.faces().normal[d], flow.faces().normal[d])) << "step " << step << " faces " << d;
    for (int side = 0; side < 6; ++side)
      EXPECT_TRUE(same_bits(host.boundaries().side_values(side), flow.boundaries().side_values(side)))
          << "step " << step << " side " << side;
    EXPECT_EQ(host.steps(), flow.steps());
  }
}

// A 3D cavity on a stretched grid, the pressure correction as unknown.
TEST(ResidentStep, StretchedCavityGivesTheHostStepsBits) {
  compare_steps(FvGrid(axis(12, 1.0, 1.5), axis(10, 1.0, 1.2), axis(8)), cavity_walls(), {0.01, 0.05}, 4);
}

// A 2D cavity solving for the whole pressure (its product added on the backend).
TEST(ResidentStep, WholePressureGivesTheHostStepsBits) {
  FlowSettings s{0.01, 0.05};
  s.pressure_unknown = PressureUnknown::pressure;
  compare_steps(FvGrid(axis(24), axis(20), axis(1)), cavity_walls(), s, 4);
}

// The projection held to a tolerance below what the pressure solver leaves:
// every step takes the corrections capped at 1, 2 and 4 iterations and the
// whole one (FractionalStep::correction_cap), their residuals and the
// divergence they leave formed on the backend.
TEST(ResidentStep, TheProjectionsCorrectionsGiveTheHostStepsBits) {
  FlowSettings s{0.01, 0.05};
  s.pressure_unknown = PressureUnknown::pressure;
  s.projection_tol = 1e-30;
  long corrections = 0;
  compare_steps(FvGrid(axis(24), axis(20), axis(1)), cavity_walls(), s, 3, &corrections);
  EXPECT_EQ(corrections, 3 * 4);
}

// A channel from a parabolic inflow to a convective outflow: the outflow's
// face values advance and take the mass correction on the backend.
TEST(ResidentStep, ChannelWithAnOutflowGivesTheHostStepsBits) {
  compare_steps(FvGrid(axis(24, 4.0, 1.2), axis(12), axis(1)), channel_sides(), {0.02, 0.05}, 5);
}

// A periodic channel driven by a body force.
TEST(ResidentStep, PeriodicChannelGivesTheHostStepsBits) {
  FlowSettings s{0.05, 0.02};
  s.body_force = {1.0, 0.0, 0.0};
  compare_steps(FvGrid(axis(16, 2.0), axis(12, 1.0, 1.5), axis(6), {true, false, true}), periodic_channel_sides(), s,
                3);
}

// The state kept on the backend (the harness's last good state) moves nothing,
// comes back bit for bit after two more steps, and steps on from there as it
// did the first time: with an outflow side, its face values come back too.
void check_kept_state(const FvGrid& grid, const std::array<BoundarySpec, 6>& sides) {
  FractionalStep flow(grid, sides, {0.01, 0.05});
  MemoryStorage device;
  systems::SystemSet on_device = make_set(&device);
  flow.declare_systems(on_device);
  ResidentStep resident(flow, on_device, Backend::host);
  const auto step = [&](long n) {
    on_device.begin_step(n);
    ASSERT_TRUE(resident.step(on_device).failed.empty()) << "step " << n;
  };
  for (long n = 1; n <= 3; ++n) step(n);
  const transfers::Totals before = transfers::totals();
  resident.keep();
  resident.keep();  // again: the copies are allocated once
  const transfers::Totals moved = transfers::since(before);
  EXPECT_EQ(moved.to_device.bytes + moved.to_host.bytes, 0u);
  resident.to_host();
  const std::vector<double> u3(flow.velocity().begin(), flow.velocity().end());
  const std::vector<double> p3(flow.pressure().begin(), flow.pressure().end());
  const std::vector<double> z3(flow.faces().normal[2].begin(), flow.faces().normal[2].end());
  const double time3 = flow.time();
  step(4);
  resident.to_host();
  const std::vector<double> u4(flow.velocity().begin(), flow.velocity().end());
  step(5);
  resident.restore_kept();
  resident.to_host();
  EXPECT_EQ(flow.steps(), 3);
  EXPECT_EQ(flow.time(), time3);
  EXPECT_TRUE(same_bits(flow.velocity(), u3));
  EXPECT_TRUE(same_bits(flow.pressure(), p3));
  EXPECT_TRUE(same_bits(flow.faces().normal[2], z3));
  step(4);
  resident.to_host();
  EXPECT_TRUE(same_bits(flow.velocity(), u4));
}

TEST(ResidentStep, AKeptStateComesBackBitForBitAndMovesNothing) {
  check_kept_state(FvGrid(axis(10, 1.0, 1.3), axis(9), axis(6)), cavity_walls());
}

TEST(ResidentStep, AKeptStateWithAnOutflowComesBackBitForBit) {
  check_kept_state(FvGrid(axis(16, 3.0, 1.1), axis(8), axis(1)), channel_sides());
}

// A state loaded on the host (a restart) goes to the backend with from_host.
TEST(ResidentStep, ALoadedStateIsTakenToTheBackend) {
  const FvGrid grid(axis(10), axis(9), axis(1));
  FractionalStep host(grid, cavity_walls(), {0.01, 0.05}), flow(grid, cavity_walls(), {0.01, 0.05});
  systems::SystemSet on_host = make_set(nullptr);
  MemoryStorage device;
  systems::SystemSet on_device = make_set(&device);
  host.declare_systems(on_host);
  flow.declare_systems(on_device);
  ResidentStep resident(flow, on_device, Backend::host);
  for (long step = 1; step <= 2; ++step) {
    on_host.begin_step(step);
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
  EXPECT_TRUE(same_bits(host.velocity(), flow.velocity()));
}

}  // namespace
}  // namespace tb::test
