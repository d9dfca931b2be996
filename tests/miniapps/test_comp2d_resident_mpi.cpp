// tb-comp2d on the pieces of a decomposed mesh (mpiexec -n 2) with its
// pseudo-time solver resident on a backend, as run.backend = cuda runs it on
// each rank's device (here the host backend: host memory stands in for the
// device, and the ghosts travel the staged path, gathered and put in place by
// the same kernels), against the host's decomposed run of the same case:
// every step's results and the figures of merit bit for bit on every rank.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "../common/memory_storage.hpp"
#include "miniapps/common/case_config.hpp"
#include "miniapps/common/domain_sharing.hpp"
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

// Block Jacobi over the ranks around BILU(0): the distributed form of tb-comp2d's default.
systems::SystemSet make_set(systems::DeviceStorage* storage) {
  return systems::SystemSet({.specs = {{"flow", "fgmres(restart=30,rtol=1e-1,maxit=10)+bjacobi(local=bilu0)"}},
                             .decomposed = true,
                             .speaks = false,
                             .device_storage = storage});
}

// The step's results without its timings (residual_s, jacobian_s).
std::vector<std::pair<std::string, double>> untimed(const harness::StepResult& r) {
  std::vector<std::pair<std::string, double>> out = {{"cfl", r.cfl}, {"factor", r.residual_factor}};
  for (const auto& [name, value] : r.residuals)
    if (name != "residual_s" && name != "jacobian_s") out.emplace_back(name, value);
  return out;
}

void compare_runs(const CaseConfig& config, long steps) {
  ASSERT_GT(harness::run_ranks(), 1) << "run under mpiexec";
  CompressibleSimulation host(config, true), flow(config, true);
  flow.reside_on(Backend::host);
  systems::SystemSet on_host = make_set(nullptr);
  test::MemoryStorage device;
  systems::SystemSet on_device = make_set(&device);
  host.declare_systems(on_host);
  flow.declare_systems(on_device);
  for (long step = 1; step <= steps; ++step) {
    on_host.begin_step(step);
    on_device.begin_step(step);
    const harness::StepResult a = host.advance(on_host), b = flow.advance(on_device);
    ASSERT_EQ(untimed(a), untimed(b)) << "step " << step << " on rank " << harness::run_rank();
  }
  ASSERT_TRUE(flow.solver().resident());
  EXPECT_EQ(host.figures_of_merit(), flow.figures_of_merit());
}

// The built-in cylinder: matrix-free from a first-order start, Jacobians reused.
TEST(Comp2dResidentRanks, MatrixFreeStepsAreTheHostsOnEveryRank) { compare_runs(comp_config(), 12); }

// The paper's system, assembled every step: its blocks in ghost columns
// come from the backend to the distributed solver.
TEST(Comp2dResidentRanks, FirstOrderStepsAreTheHostsOnEveryRank) {
  CaseConfig config = comp_config();
  config.set("jacobian.form", "first_order");
  compare_runs(config, 8);
}

}  // namespace
}  // namespace tb
