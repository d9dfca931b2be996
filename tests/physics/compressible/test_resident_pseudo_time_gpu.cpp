// tb-comp2d's pseudo-time iteration resident on the device (--backend cuda:
// PseudoTimeSolver::reside with the GPU flow solver) against the host's run
// to the same steady state: Cd and Cl agree to the iteration's tolerance, and
// per step nothing of a field's size crosses between host and device. Skips
// with the reason when no device is visible.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>

#include "solvers/core/backend.hpp"
#include "steady_runs.hpp"

namespace tb::test {
namespace {

#define TB_SKIP_WITHOUT_DEVICE() \
  if (const std::string why = cuda_unavailable_reason(); !why.empty()) GTEST_SKIP() << why

TEST(ResidentPseudoTimeGpu, TheDevicesSteadyStateIsTheHosts) {
  TB_SKIP_WITHOUT_DEVICE();
  const SteadyRun host = converge("fgmres(restart=30,rtol=1e-1,maxit=10)+bilu0", false);
  const SteadyRun gpu =
      converge("fgmres(restart=30,rtol=1e-1,maxit=10,backend=cuda)+async_bilu(build_sweeps=1,apply_sweeps=3)", true);
  EXPECT_NEAR(gpu.forces.cd, host.forces.cd, 1e-6 * std::abs(host.forces.cd));
  EXPECT_NEAR(gpu.forces.cl, host.forces.cl, 1e-6);
  EXPECT_LE(std::abs(gpu.steps - host.steps), host.steps / 10 + 2) << "pseudo-steps within 10 %";
  // Scalars only (norms, Krylov dot products, flags): less than one field of the mesh.
  const Mesh2D mesh = cylinder_mesh();
  EXPECT_LT(gpu.largest_step_bytes, std::uint64_t(8 * mesh.num_cells())) << "bytes per step";
  std::printf("cylinder: host %ld steps, Cd %.10f; device %ld steps, Cd %.10f, at most %llu bytes a step\n", host.steps,
              host.forces.cd, gpu.steps, gpu.forces.cd, static_cast<unsigned long long>(gpu.largest_step_bytes));
}

// jacobian.form = exact: the coloured differences from the device's residuals
// of perturbed states, the same steady state as the host's exact form. The
// asynchronous ILU's sweeps on a device do not run in the host's order (the
// triangular ones behave like the synchronous schedule's: docs/async_ilu.md,
// "On a GPU"), and with such sweeps the exact Jacobian's run needs far more
// steps than with BILU(0), or does not converge ("The exact Jacobian"). So the
// preconditioner here sweeps in the synchronous order, which the device
// computes as the host does: the device's run is compared step for step with
// the host's run of the same solver (PseudoTime.TheExactFormConverges... runs
// that one on every build), and its steady state with the host's BILU(0).
TEST(ResidentPseudoTimeGpu, TheExactFormsSteadyStateIsTheHosts) {
  TB_SKIP_WITHOUT_DEVICE();
  const std::string sweeps = exact_form_sweeps;
  const SteadyRun bilu0 = converge("fgmres(restart=30,rtol=1e-1,maxit=30)+bilu0", false, JacobianForm::exact);
  const SteadyRun host = converge("fgmres(restart=30,rtol=1e-1,maxit=30)+" + sweeps, false, JacobianForm::exact);
  const SteadyRun gpu =
      converge("fgmres(restart=30,rtol=1e-1,maxit=30,backend=cuda)+" + sweeps, true, JacobianForm::exact);
  EXPECT_NEAR(gpu.forces.cd, bilu0.forces.cd, 1e-6 * std::abs(bilu0.forces.cd));
  EXPECT_NEAR(gpu.forces.cl, bilu0.forces.cl, 1e-6);
  EXPECT_LE(std::abs(gpu.steps - host.steps), host.steps / 10 + 2) << "pseudo-steps within 10 %";
  const Mesh2D mesh = cylinder_mesh();
  EXPECT_LT(gpu.largest_step_bytes, std::uint64_t(8 * mesh.num_cells())) << "bytes per step";
  std::printf(
      "cylinder, exact form: host BILU(0) %ld steps, Cd %.10f; host sweeps %ld steps; device %ld steps, Cd %.10f, at "
      "most %llu bytes a step\n",
      bilu0.steps, bilu0.forces.cd, host.steps, gpu.steps, gpu.forces.cd,
      static_cast<unsigned long long>(gpu.largest_step_bytes));
}

}  // namespace
}  // namespace tb::test
