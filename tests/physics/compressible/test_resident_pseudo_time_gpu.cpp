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

#include "compressible_fixtures.hpp"
#include "physics/compressible/forces.hpp"
#include "solvers/core/backend.hpp"
#include "solvers/core/transfers.hpp"
#include "solvers/systems/system_set.hpp"

namespace tb::test {
namespace {

#define TB_SKIP_WITHOUT_DEVICE() \
  if (const std::string why = cuda_unavailable_reason(); !why.empty()) GTEST_SKIP() << why

struct SteadyRun {
  Forces forces;
  long steps = 0;
  std::uint64_t largest_step_bytes = 0;  // host <-> device, the largest over the steps after the first
};

// The coarse cylinder (M 0.38) from the free stream to rel_tol 1e-8 in
// tb-comp2d's default form (matrix-free) or with the exact Jacobian.
SteadyRun converge(const std::string& flow_solver, bool on_device, JacobianForm form = JacobianForm::matrix_free) {
  const Mesh2D mesh = cylinder_mesh();
  EulerDiscretisation disc(mesh, cylinder_boundaries(mesh), settings_at(0.38, 0.0));
  PseudoTimeSettings s;
  s.jacobian = form;
  s.cfl_growth = 1.5;
  s.jacobian_reuse = 10;
  s.matrix_free.maxit = 40;
  s.rel_tol = 1e-8;
  PseudoTimeSolver solver(disc, std::vector<State>(std::size_t(mesh.num_cells()), disc.settings().free_stream), s);
  systems::SystemSet set({.specs = {{"flow", flow_solver}}, .speaks = false});
  solver.declare_systems(set);
  if (on_device) solver.reside(Backend::cuda, set);
  SteadyRun run;
  while (!solver.converged() && solver.steps() < 300) {
    const transfers::Totals before = transfers::totals();
    set.begin_step(solver.steps() + 1);
    solver.step(set);
    const transfers::Totals moved = transfers::since(before);
    if (solver.steps() > 1)
      run.largest_step_bytes = std::max(run.largest_step_bytes, moved.to_device.bytes + moved.to_host.bytes);
  }
  EXPECT_TRUE(solver.converged()) << flow_solver;
  run.forces = pressure_forces(disc, solver.wall_force_sums(), 0.0, 1.0);
  run.steps = solver.steps();
  const Forces from_host_copy = pressure_forces(disc, solver.state(), solver.order(), 0.0, 1.0);
  EXPECT_NEAR(run.forces.cd, from_host_copy.cd, 1e-12) << "the device's force reduction against its state's";
  return run;
}

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
// of perturbed states, the same steady state as the host's exact form.
TEST(ResidentPseudoTimeGpu, TheExactFormsSteadyStateIsTheHosts) {
  TB_SKIP_WITHOUT_DEVICE();
  const SteadyRun host = converge("fgmres(restart=30,rtol=1e-1,maxit=30)+bilu0", false, JacobianForm::exact);
  const SteadyRun gpu =
      converge("fgmres(restart=30,rtol=1e-1,maxit=30,backend=cuda)+async_bilu(build_sweeps=1,apply_sweeps=3)", true,
               JacobianForm::exact);
  EXPECT_NEAR(gpu.forces.cd, host.forces.cd, 1e-6 * std::abs(host.forces.cd));
  EXPECT_NEAR(gpu.forces.cl, host.forces.cl, 1e-6);
  EXPECT_LE(std::abs(gpu.steps - host.steps), host.steps / 10 + 2) << "pseudo-steps within 10 %";
  const Mesh2D mesh = cylinder_mesh();
  EXPECT_LT(gpu.largest_step_bytes, std::uint64_t(8 * mesh.num_cells())) << "bytes per step";
  std::printf("cylinder, exact form: host %ld steps, Cd %.10f; device %ld steps, Cd %.10f, at most %llu bytes a step\n",
              host.steps, host.forces.cd, gpu.steps, gpu.forces.cd,
              static_cast<unsigned long long>(gpu.largest_step_bytes));
}

}  // namespace
}  // namespace tb::test
