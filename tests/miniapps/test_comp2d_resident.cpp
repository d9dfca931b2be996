// tb-comp2d's simulation with its pseudo-time solver resident on a backend
// (what run.backend = cuda does, here on the host backend with host memory
// standing in for the device) against the host's run of the same case: every
// step's result (norms, CFL, Cl, Cd) and the figures of merit bit for bit, and
// the harness's last good state, kept beside the resident one, comes back with
// its forces' history.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>

#include "comp2d_config.hpp"
#include "miniapps/compressible/comp_simulation.hpp"
#include "resident_twins.hpp"
#include "solvers/core/transfers.hpp"

namespace tb {
namespace {

using compressible::CompressibleSimulation;
using harness::CaseConfig;

CaseConfig comp_config() { return test::comp2d_config(); }

TEST(Comp2dResident, StepsFiguresAndTheKeptStateAreTheHosts) {
  // The built-in cylinder, matrix-free.
  test::ResidentTwins<CompressibleSimulation> t(comp_config(), {{"flow", compressible::default_flow_solver}}, false);
  CompressibleSimulation &host = t.host, &flow = t.flow;
  std::vector<std::pair<std::string, double>> kept_figures;
  for (long step = 1; step <= 12; ++step) {
    const auto [a, b] = t.advance(step);
    ASSERT_EQ(a, b) << "step " << step;
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

// The default case run to its steady state as run.backend = cuda runs it,
// its solves with GMRES's scalars on the backend (the device default), what
// each step reads back measured by the host twins' results
// (transfers::twin_results) as in ResidentPseudoTime's tests. BILU(0) stands
// in for the GPU default's asynchronous ILU, which reads nothing
// (TheGpuDefaultsPreconditionerMovesNothingPerStep). After the first step (the
// pattern's lay-out) a step reads a fixed part (the residual's norms, the
// update's reductions, the forces, the outer solve's ends: under 256 B) and,
// per outer iteration, its stop word and its preconditioning solve's one or
// two records, ||r0|| with the first (32 to 48 B); the run's average is under
// 1 KB a step.
TEST(Comp2dResident, TheDefaultCaseReadsAFixedPartAndUnder40BytesAnOuterIteration) {
  CompressibleSimulation flow(comp_config(), false);
  flow.reside_on(Backend::host);
  test::MemoryStorage device;
  systems::SystemSet on_device({.specs = {{"flow", "fgmres(restart=30,rtol=1e-1,maxit=10,scalars=backend)+bilu0"}},
                                .speaks = false,
                                .device_storage = &device});
  flow.declare_systems(on_device);
  std::uint64_t largest = 0, total = 0, waits = 0;
  double most_outer = 0.0, total_outer = 0.0;
  long step = 1;
  for (; step <= 60 && !flow.steady_state_reached(); ++step) {
    on_device.begin_step(step);
    const transfers::Tally before = transfers::twin_results();
    const harness::StepResult r = flow.advance(on_device);
    EXPECT_GT(r.residual_factor, 0.0) << "step " << step << ": the autopilot's tenure reads it";
    const std::uint64_t read = transfers::twin_results().bytes - before.bytes;
    const std::uint64_t reads = transfers::twin_results().copies - before.copies;
    if (step == 1) continue;
    double outer = -1.0;
    for (const auto& [name, value] : r.residuals)
      if (name == "outer_its") outer = value;
    ASSERT_GT(outer, 0.0) << "step " << step;
    EXPECT_LE(double(read), 256.0 + 40.0 * outer) << "step " << step << ", " << outer << " outer iterations";
    // Each a wait on a device: a few for the step, and per outer iteration the
    // outer stop word and the preconditioning solve's checks.
    EXPECT_LE(double(reads), 12.0 + 2.5 * outer) << "step " << step << ", " << outer << " outer iterations";
    waits += reads;
    total_outer += outer;
    largest = std::max(largest, read);
    most_outer = std::max(most_outer, outer);
    total += read;
  }
  ASSERT_TRUE(flow.steady_state_reached());
  const double mean = double(total) / double(step - 2);
  std::printf(
      "[ reads ] the default case, %ld steps: %.0f bytes a step after the first, largest %llu; at most %.0f "
      "outer iterations a step; %.2f reads an outer iteration\n",
      step - 1, mean, static_cast<unsigned long long>(largest), most_outer, double(waits) / total_outer);
  EXPECT_LE(mean, 1024.0);
}

}  // namespace
}  // namespace tb
