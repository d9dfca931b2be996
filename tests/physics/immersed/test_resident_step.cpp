// The immersed-boundary resident step (ResidentStep) on the host backend
// against the host's own ImmersedFlow::step, bit for bit: the same kernels in
// the same order, its matrices' values written where the systems keep them
// (here host memory standing in for a device) and read there in place by the
// solvers. What moves per step: nothing, once the first step has laid out the
// patterns. The drag reduced where the fields are equals the host's. A moving
// body's step sends only its band and the rows' changed layout.
#include <gtest/gtest.h>

#include <cstdio>
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

// The pulsating ellipsoid at twice the input's frequency: it shrinks from
// the third step on, clearing cells a step on this grid.
std::unique_ptr<PulsatingEllipsoid> pulsating() {
  return std::make_unique<PulsatingEllipsoid>(Vec3{0.03, -0.02, 0.01}, Vec3{0.5, 0.4, 0.4}, 0.15, 2.0);
}

// What the resident step sends of the body's band for the host's current
// placement: the moved cells, the ghost rows' values and both systems' ghost
// stencils, counted from the host's own arrays.
std::size_t band_bytes(const ImmersedFlow& flow) {
  const MovedCells& m = flow.moved_cells();
  std::size_t bytes = m.cells.size() * (sizeof(index_t) + sizeof(CellType) + sizeof(std::uint8_t) + 3 * sizeof(double));
  const std::size_t ghosts = flow.cells().ghosts.size();
  bytes += ghosts * (sizeof(index_t) + 3 * sizeof(double));
  for (const GhostCell& g : flow.cells().ghosts)
    bytes += (g.dirichlet.cells.size() + g.neumann.cells.size()) * (sizeof(index_t) + sizeof(double));
  return bytes + 2 * (ghosts + 1) * sizeof(index_t);
}

// The pattern's entries at the host's current placement.
index_t device_pattern_columns(const ImmersedFlow& flow) {
  return make_system_pattern(flow.grid(), flow.cells()).matrix.nnz_blocks();
}

// A moving body: placed on the host each step, its changes sent, the freshly
// cleared cells filled on the backend; the host step's bits every step. What
// crosses per step, counted: the band the step sends (moved cells, ghost rows,
// stencils: the host's arrays' sizes); the rows' layout only where the
// pattern changed; and, by the systems at a changed pattern, the pattern's
// copy to the storage and the values' copy back for the solvers' symbolic
// set-up from the host (SolverSlot::refresh).
TEST(IbResidentStep, AMovingBodyGivesTheHostStepsBits) {
  ImmersedFlow host(sphere_grid(), pulsating(), settings()), flow(sphere_grid(), pulsating(), settings());
  ASSERT_TRUE(ResidentStep::resident(flow));
  systems::SystemSet on_host = make_set(nullptr);
  MemoryStorage device;
  systems::SystemSet on_device = make_set(&device);
  host.declare_systems(on_host);
  flow.declare_systems(on_device);
  ResidentStep resident(flow, on_device, Backend::host);
  const std::size_t cells = flow.pressure().size(), field_bytes = cells * sizeof(double);
  const std::size_t layout_bytes = (cells + 1 + 7 * cells) * sizeof(index_t);  // row offsets, diagonal, neighbours
  long cleared = 0, still = 0;
  for (long step = 1; step <= 10; ++step) {
    on_host.begin_step(step);
    on_device.begin_step(step);
    const std::vector<CellType> types_before = host.cells().types;
    const StepReport a = host.step(on_host);
    const transfers::Totals before = transfers::totals();
    const StepReport b = resident.step(on_device);
    const transfers::Totals moved = transfers::since(before);
    ASSERT_TRUE(a.failed.empty()) << "step " << step;
    expect_same_report(a, b, step);
    EXPECT_EQ(flow.cleared_cells(), host.cleared_cells()) << "step " << step;
    cleared += host.cleared_cells();
    const ResidentStep::Uploads sent = resident.uploads();
    EXPECT_EQ(sent.band, band_bytes(host)) << "step " << step;
    const std::size_t columns = std::size_t(device_pattern_columns(host));
    if (host.moved_cells().cells.empty() && types_before == host.cells().types) {
      ++still;  // no cell changed type: the pattern stays, nothing but the band crosses
      EXPECT_EQ(sent.layout, 0u) << "step " << step;
      EXPECT_EQ(moved.to_device.bytes + moved.to_host.bytes, 0u) << "step " << step;
    } else {
      EXPECT_GT(sent.layout, 0u) << "step " << step;
      EXPECT_LE(sent.layout, layout_bytes) << "step " << step;
      EXPECT_EQ(moved.to_device.bytes, 2 * (cells + 1 + columns) * sizeof(index_t)) << "step " << step;
      // Jacobi sets up on the new pattern where the values are: none come back.
      EXPECT_EQ(moved.to_host.bytes, 0u) << "step " << step;
    }
    std::printf(
        "step %ld: %ld cleared, %zu moved cells, %zu ghosts; the step sent %zu B band, %zu B layout; the "
        "systems copied %llu B to the storage, %llu B back (one field: %zu B)\n",
        step, host.cleared_cells(), host.moved_cells().cells.size(), host.cells().ghosts.size(), sent.band, sent.layout,
        static_cast<unsigned long long>(moved.to_device.bytes), static_cast<unsigned long long>(moved.to_host.bytes),
        field_bytes);
    resident.to_host();
    expect_same_fields(host, flow, step);
  }
  EXPECT_GT(cleared, 0);  // not vacuous: cells were cleared and filled on the backend
  EXPECT_GT(still, 0);    // and a step moved the body without changing a cell
}

// A kept state of a moving body comes back with the body at its time (as a
// loaded state's does) and steps on with the host's bits.
TEST(IbResidentStep, AMovingBodysKeptStateStepsOnWithTheHostsBits) {
  ImmersedFlow host(sphere_grid(), pulsating(), settings()), flow(sphere_grid(), pulsating(), settings());
  systems::SystemSet on_host = make_set(nullptr);
  MemoryStorage device;
  systems::SystemSet on_device = make_set(&device);
  host.declare_systems(on_host);
  flow.declare_systems(on_device);
  ResidentStep resident(flow, on_device, Backend::host);
  for (long step = 1; step <= 5; ++step) {
    on_device.begin_step(step);
    ASSERT_TRUE(resident.step(on_device).failed.empty());
  }
  resident.keep();
  on_device.begin_step(6);
  resident.step(on_device);
  resident.restore_kept();
  for (long step = 1; step <= 7; ++step) {
    on_host.begin_step(step);
    const StepReport a = host.step(on_host);
    if (step <= 5) continue;
    on_device.begin_step(step);
    const StepReport b = resident.step(on_device);
    expect_same_report(a, b, step);
    EXPECT_EQ(flow.cleared_cells(), host.cleared_cells());
    resident.to_host();
    expect_same_fields(host, flow, step);
  }
}

}  // namespace
}  // namespace tb::test
