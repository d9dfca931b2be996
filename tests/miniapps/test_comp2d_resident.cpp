// tb-comp2d's simulation with its pseudo-time solver resident on a backend
// (what run.backend = cuda does, here on the host backend with host memory
// standing in for the device) against the host's run of the same case: every
// step's result (norms, CFL, Cl, Cd) and the figures of merit bit for bit, and
// the harness's last good state, kept beside the resident one, comes back with
// its forces' history.
#include <gtest/gtest.h>

#include <string>

#include "../common/memory_storage.hpp"
#include "miniapps/common/case_config.hpp"
#include "miniapps/common/time_loop.hpp"
#include "miniapps/compressible/comp_case.hpp"
#include "miniapps/compressible/comp_simulation.hpp"
#include "solvers/systems/system_set.hpp"

namespace tb {
namespace {

using compressible::CompressibleSimulation;
using harness::CaseConfig;

CaseConfig comp_config() {
  harness::MiniappDescription app;
  app.name = "tb-comp2d";
  app.systems = {"flow"};
  app.declare_keys = compressible::declare_case_keys;
  return CaseConfig(harness::make_schema(app));
}

systems::SystemSet make_set(systems::DeviceStorage* storage) {
  return systems::SystemSet(
      {.specs = {{"flow", compressible::default_flow_solver}}, .speaks = false, .device_storage = storage});
}

// The step's results without its timings (residual_s, jacobian_s).
std::vector<std::pair<std::string, double>> untimed(const harness::StepResult& r) {
  std::vector<std::pair<std::string, double>> out = {{"cfl", r.cfl}, {"factor", r.residual_factor}};
  for (const auto& [name, value] : r.residuals)
    if (name != "residual_s" && name != "jacobian_s") out.emplace_back(name, value);
  return out;
}

TEST(Comp2dResident, StepsFiguresAndTheKeptStateAreTheHosts) {
  const CaseConfig config = comp_config();  // the built-in cylinder, matrix-free
  CompressibleSimulation host(config), flow(config);
  flow.reside_on(Backend::host);
  systems::SystemSet on_host = make_set(nullptr);
  test::MemoryStorage device;
  systems::SystemSet on_device = make_set(&device);
  host.declare_systems(on_host);
  flow.declare_systems(on_device);
  std::vector<std::pair<std::string, double>> kept_figures;
  for (long step = 1; step <= 12; ++step) {
    on_host.begin_step(step);
    on_device.begin_step(step);
    const harness::StepResult a = host.advance(on_host), b = flow.advance(on_device);
    ASSERT_EQ(untimed(a), untimed(b)) << "step " << step;
    if (step == 8) {
      ASSERT_TRUE(flow.keep_state()) << "a resident run keeps its last good state beside it";
      kept_figures = flow.figures_of_merit();
    }
  }
  ASSERT_TRUE(flow.solver().resident());
  EXPECT_EQ(host.figures_of_merit(), flow.figures_of_merit());
  flow.restore_kept_state();
  EXPECT_EQ(flow.solver().steps(), 8);
  EXPECT_EQ(flow.figures_of_merit(), kept_figures);
}

}  // namespace
}  // namespace tb
