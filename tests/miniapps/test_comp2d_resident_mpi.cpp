// tb-comp2d on the pieces of a decomposed mesh (mpiexec -n 2) with its
// pseudo-time solver resident on a backend, as run.backend = cuda runs it on
// each rank's device (here the host backend: host memory stands in for the
// device, and the ghosts travel the staged path, gathered and put in place by
// the same kernels), against the host's decomposed run of the same case:
// every step's results and the figures of merit bit for bit on every rank.
#include <gtest/gtest.h>

#include <string>

#include "comp2d_config.hpp"
#include "miniapps/common/domain_sharing.hpp"
#include "miniapps/compressible/comp_simulation.hpp"
#include "resident_twins.hpp"

namespace tb {
namespace {

using compressible::CompressibleSimulation;
using harness::CaseConfig;

CaseConfig comp_config() { return test::comp2d_config(); }

// Block Jacobi over the ranks around BILU(0): the distributed form of tb-comp2d's default.
constexpr const char* flow_solver = "fgmres(restart=30,rtol=1e-1,maxit=10)+bjacobi(local=bilu0)";

void compare_runs(const CaseConfig& config, long steps) {
  ASSERT_GT(harness::run_ranks(), 1) << "run under mpiexec";
  test::ResidentTwins<CompressibleSimulation> t(config, {{"flow", flow_solver}}, true);
  for (long step = 1; step <= steps; ++step) {
    const auto [a, b] = t.advance(step);
    ASSERT_EQ(a, b) << "step " << step << " on rank " << harness::run_rank();
  }
  ASSERT_TRUE(t.flow.solver().resident());
  EXPECT_EQ(t.host.figures_of_merit(), t.flow.figures_of_merit());
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
