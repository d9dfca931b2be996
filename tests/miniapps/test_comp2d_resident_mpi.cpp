// tb-comp2d on the pieces of a decomposed mesh (mpiexec -n 2) with its
// pseudo-time solver resident on a backend, as run.backend = cuda runs it on
// each rank's device (here the host backend: host memory stands in for the
// device, and the ghosts travel the staged path, gathered and put in place by
// the same kernels), against the host's decomposed run of the same case:
// every step's results and the figures of merit bit for bit on every rank.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <string>

#include "comp2d_config.hpp"
#include "miniapps/common/domain_sharing.hpp"
#include "miniapps/compressible/comp_simulation.hpp"
#include "resident_twins.hpp"
#include "solvers/core/transfers.hpp"

namespace tb {
namespace {

using compressible::CompressibleSimulation;
using harness::CaseConfig;

CaseConfig comp_config() { return test::comp2d_config(); }

// Block Jacobi over the ranks around BILU(0): the distributed form of tb-comp2d's default.
constexpr const char* flow_solver = "fgmres(restart=30,rtol=1e-1,maxit=10)+bjacobi(local=bilu0)";

// Steps 1..steps of both twins, each step's results equal on every rank; the
// bytes of the systems' matrices that crossed between host and device (the
// MemoryStorage's counted copies) after step 1, printed by rank 0.
template <class Twins>
std::uint64_t advance_counting(Twins& t, long steps, const std::string& spec) {
  std::uint64_t after_first = 0;
  for (long step = 1; step <= steps; ++step) {
    const transfers::Totals before = transfers::totals();
    const auto [a, b] = t.advance(step);
    EXPECT_EQ(a, b) << "step " << step << " on rank " << harness::run_rank();
    if (a != b) break;
    const transfers::Totals moved = transfers::since(before);
    if (step > 1) after_first += moved.to_host.bytes + moved.to_device.bytes;
  }
  if (harness::run_rank() == 0)
    std::printf("[ resident ] rank 0, %s: %llu bytes of the systems' matrices crossed in steps 2..%ld\n", spec.c_str(),
                static_cast<unsigned long long>(after_first), steps);
  return after_first;
}

// The solves on the host (bilu0 refreshes there): each assembly's values come back, once per change.
void compare_runs(const CaseConfig& config, long steps) {
  ASSERT_GT(harness::run_ranks(), 1) << "run under mpiexec";
  test::ResidentTwins<CompressibleSimulation> t(config, {{"flow", flow_solver}}, true);
  EXPECT_GT(advance_counting(t, steps, flow_solver), 0u);
  ASSERT_TRUE(t.flow.solver().resident());
  EXPECT_EQ(t.host.figures_of_merit(), t.flow.figures_of_merit());
}

// The solves resident too (on the GPU a method's backend=cuda; the host
// backend here), block Jacobi around an ILU that refreshes where its values
// are: every step equals the host's run, and after the first step's set-up
// (the pattern's symbolic work, from a copy on the host) the Jacobian, its
// blocks in ghost columns included, never leaves the memory it is assembled in.
void compare_resident_solves(const CaseConfig& config, long steps) {
  ASSERT_GT(harness::run_ranks(), 1) << "run under mpiexec";
  const std::string spec = "fgmres(restart=30,rtol=1e-1,maxit=10)+bjacobi(local=async_bilu(schedule=sync))";
  test::ResidentTwins<CompressibleSimulation> t(config, {{"flow", spec}}, true, true);
  EXPECT_EQ(advance_counting(t, steps, spec + ", resident"), 0u)
      << "bytes of the systems' matrices between host and device after step 1";
  EXPECT_EQ(t.host.figures_of_merit(), t.flow.figures_of_merit());
}

TEST(Comp2dResidentRanks, ResidentSolvesReadTheJacobianWhereItIsAssembled) {
  CaseConfig config = comp_config();
  config.set("jacobian.form", "first_order");
  compare_resident_solves(config, 8);
}

TEST(Comp2dResidentRanks, ResidentSolvesOfMatrixFreeStepsAreTheHosts) { compare_resident_solves(comp_config(), 12); }

// The built-in cylinder: matrix-free from a first-order start, Jacobians reused.
TEST(Comp2dResidentRanks, MatrixFreeStepsAreTheHostsOnEveryRank) { compare_runs(comp_config(), 12); }

// The paper's system, assembled every step on the backend, its local block
// and its blocks in ghost columns read by the host's distributed solver.
TEST(Comp2dResidentRanks, FirstOrderStepsAreTheHostsOnEveryRank) {
  CaseConfig config = comp_config();
  config.set("jacobian.form", "first_order");
  compare_runs(config, 8);
}

}  // namespace
}  // namespace tb
