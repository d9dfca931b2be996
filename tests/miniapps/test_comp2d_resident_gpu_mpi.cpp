// tb-comp2d on the pieces of a decomposed mesh (mpiexec -n 2) with each
// rank's pseudo-time solver resident on the GPU (run.backend = cuda: the
// state, the residual, the Jacobian and the update on the device, the ghosts
// exchanged from its buffers, staged or by a CUDA-aware MPI) against the
// host's decomposed run of the same case to the steady state: Cd and Cl to
// the iteration's tolerance, the pseudo-steps within 10 %. The ranks share the
// machine's GPU. Skipped, with the reason, where no GPU is visible.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "comp2d_config.hpp"
#include "miniapps/common/case_config.hpp"
#include "miniapps/common/domain_sharing.hpp"
#include "miniapps/common/time_loop.hpp"
#include "miniapps/compressible/comp_case.hpp"
#include "miniapps/compressible/comp_simulation.hpp"
#include "solvers/core/backend.hpp"
#include "solvers/systems/system_set.hpp"

namespace tb {
namespace {

using compressible::CompressibleSimulation;
using harness::CaseConfig;

CaseConfig comp_config() {
  CaseConfig config = test::comp2d_config();
  config.set("converge.rel_tol", "1e-8");
  return config;
}

struct Steady {
  double cd = 0.0, cl = 0.0;
  long steps = 0;
};

double figure(const std::vector<std::pair<std::string, double>>& figures, const std::string& name) {
  for (const auto& [n, v] : figures)
    if (n == name) return v;
  ADD_FAILURE() << "no figure " << name;
  return 0.0;
}

// The built-in cylinder from the free stream to its steady state, at most 300 pseudo-steps.
Steady converge(const std::string& spec, bool on_device) {
  const CaseConfig config = comp_config();
  CompressibleSimulation sim(config, true);
  if (on_device) sim.reside_on(Backend::cuda);
  systems::SystemSet set({.specs = {{"flow", spec}}, .decomposed = true, .speaks = false});
  sim.declare_systems(set);
  long step = 0;
  while (!sim.steady_state_reached() && step < 300) {
    set.begin_step(++step);
    sim.advance(set);
  }
  EXPECT_TRUE(sim.steady_state_reached()) << spec;
  const auto figures = sim.figures_of_merit();
  return {figure(figures, "cd"), figure(figures, "cl"), step};
}

TEST(Comp2dResidentRanksGpu, EachRanksDeviceReachesTheHostsSteadyState) {
  if (cuda_device_count() == 0) GTEST_SKIP() << cuda_unavailable_reason() << ": the resident pieces were not run";
  const Steady host = converge("fgmres(restart=30,rtol=1e-1,maxit=10)+bjacobi(local=bilu0)", false);
  const Steady gpu = converge(
      "fgmres(restart=30,rtol=1e-1,maxit=10,backend=cuda)+bjacobi(local=async_bilu(build_sweeps=1,apply_sweeps=3))",
      true);
  EXPECT_NEAR(gpu.cd, host.cd, 1e-6 * std::abs(host.cd));
  EXPECT_NEAR(gpu.cl, host.cl, 1e-6);
  EXPECT_LE(std::abs(gpu.steps - host.steps), host.steps / 10 + 2) << "pseudo-steps within 10 %";
}

}  // namespace
}  // namespace tb
