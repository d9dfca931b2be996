// tb-incomp on the slabs of a decomposed grid (mpiexec -n 2) with its step
// resident on a backend, as run.backend = cuda runs it on each rank's device
// (here the host backend: host memory stands in for the device, and the ghost
// planes travel the staged path, gathered and put in place by the same
// kernels), against the host's decomposed run: every step's results and the
// figures of merit bit for bit on every rank, the whole pressure as unknown
// with the projection's corrections and the correction alone.
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "miniapp_descriptions.hpp"
#include "miniapps/common/domain_sharing.hpp"
#include "miniapps/incompressible/incomp_simulation.hpp"
#include "resident_twins.hpp"
#include "solvers/core/transfers.hpp"

namespace tb {
namespace {

using harness::CaseConfig;
using incompressible::IncompressibleSimulation;

// Block Jacobi over the ranks around solvers that refresh in place.
const std::map<std::string, std::string> specs = {
    {"momentum", "bicgstab(rtol=1e-10,maxit=500)+bjacobi(local=block_jacobi)"},
    {"pressure", "cg(rtol=1e-10,maxit=2000)+bjacobi(local=jacobi)"}};

// The default cavity at 16 x 20 (Re 100), or at 8 x 6 x 10 in 3D.
CaseConfig cavity(bool three_d) {
  CaseConfig config(harness::make_schema(test::incomp_app()));
  config.set("grid.nx", three_d ? "8" : "16");
  config.set("grid.ny", three_d ? "6" : "20");
  if (three_d) config.set("grid.nz", "10");
  return config;
}

// `steps` steps of both; the projection's corrections they made. With
// resident_solves the resident twin's solves reside too (on the GPU a
// method's backend=cuda; the host backend here): both systems' matrices,
// their blocks in ghost columns included, then never cross between host and
// device after the first step's set-up; without, the momentum's values come
// to the host's solver each step.
long compare_runs(const CaseConfig& config, long steps, bool resident_solves = false) {
  EXPECT_GT(harness::run_ranks(), 1) << "run under mpiexec";
  test::ResidentTwins<IncompressibleSimulation> t(config, specs, true, resident_solves);
  long corrections = 0;
  std::uint64_t after_first = 0;
  for (long step = 1; step <= steps; ++step) {
    const transfers::Totals before = transfers::totals();
    const auto [a, b] = t.advance(step);
    const transfers::Totals moved = transfers::since(before);
    if (step > 1) after_first += moved.to_host.bytes + moved.to_device.bytes;
    EXPECT_EQ(a, b) << "step " << step << " on rank " << harness::run_rank();
    if (a != b) return corrections;
    for (const auto& [name, value] : a)
      if (name == "projection_corrections") corrections += long(value);
  }
  if (resident_solves)
    EXPECT_EQ(after_first, 0u) << "bytes of the systems' matrices crossed after step 1";
  else
    EXPECT_GT(after_first, 0u) << "the host's solves read the momentum's values there each step";
  EXPECT_EQ(t.host.figures_of_merit(), t.flow.figures_of_merit());
  const auto values = [](std::span<const double> v) { return std::vector<double>(v.begin(), v.end()); };
  EXPECT_EQ(values(t.host.flow().velocity()), values(t.flow.flow().velocity())) << "the states, ghost planes included";
  EXPECT_EQ(values(t.host.flow().pressure()), values(t.flow.flow().pressure()));
  return corrections;
}

TEST(IncompResidentRanks, TheCavitysStepsAreTheHostsOnEveryRank) { EXPECT_EQ(compare_runs(cavity(false), 6), 0); }

// A tolerance no projection meets: every step makes the most corrections,
// their residuals and the divergence left reduced over the ranks.
TEST(IncompResidentRanks, TheProjectionsCorrectionsAreTheHostsToo) {
  CaseConfig config = cavity(false);
  config.set("solver.projection_tol", "1e-30");
  EXPECT_GT(compare_runs(config, 3), 3) << "the projection's corrections are untested";
}

TEST(IncompResidentRanks, The3dCavitysStepsAreTheHostsOnEveryRank) { compare_runs(cavity(true), 4); }

TEST(IncompResidentRanks, ResidentSolvesReadTheMatricesWhereTheyAreAssembled) {
  CaseConfig config = cavity(true);
  config.set("solver.projection_tol", "1e-30");
  EXPECT_GT(compare_runs(config, 4, true), 0);
}

TEST(IncompResidentRanks, ThePressureCorrectionAloneIsTheHostsToo) {
  CaseConfig config = cavity(false);
  config.set("solver.pressure_unknown", "correction");
  config.set("solver.projection_tol", "0");
  EXPECT_EQ(compare_runs(config, 4), 0);
}

}  // namespace
}  // namespace tb
