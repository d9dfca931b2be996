// tb-comp2d's simulation with its pseudo-time solver resident on a backend
// (what run.backend = cuda does, here on the host backend with host memory
// standing in for the device) against the host's run of the same case: every
// step's result (norms, CFL, Cl, Cd) and the figures of merit bit for bit, and
// the harness's last good state, kept beside the resident one, comes back with
// its forces' history.
#include <gtest/gtest.h>

#include <string>

#include "comp2d_config.hpp"
#include "miniapps/compressible/comp_simulation.hpp"
#include "resident_twins.hpp"

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

}  // namespace
}  // namespace tb
