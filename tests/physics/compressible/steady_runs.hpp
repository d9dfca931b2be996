#pragma once
// The coarse cylinder (M 0.38) from the free stream to rel_tol 1e-8, on the
// host or resident on a device: the steady runs the exact form's and the GPU
// tests compare (forces, pseudo-steps, the bytes a step moves).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "compressible_fixtures.hpp"
#include "physics/compressible/forces.hpp"
#include "solvers/core/backend.hpp"
#include "solvers/core/transfers.hpp"
#include "solvers/systems/system_set.hpp"

namespace tb::test {

struct SteadyRun {
  Forces forces;
  long steps = 0;
  std::uint64_t largest_step_bytes = 0;  // host <-> device, the largest over the steps after the first
};

// tb-comp2d's default form (matrix-free) or the one given, the flow system
// solved by `flow_solver`, resident on the device where `on_device`.
inline SteadyRun converge(const std::string& flow_solver, bool on_device,
                          JacobianForm form = JacobianForm::matrix_free) {
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

// The exact form's preconditioner in the GPU test: the asynchronous ILU in
// the synchronous order, which a device computes as the host does, from the
// previous factors.
inline constexpr const char* exact_form_sweeps = "async_bilu(build_sweeps=2,apply_sweeps=6,schedule=sync,reuse=true)";

}  // namespace tb::test
