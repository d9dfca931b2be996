// tb-ib: incompressible flow around immersed bodies on a stretched Cartesian
// grid (seed 004's fractional step, Eq. 2-7, with the sharp-interface
// ghost-cell method of its ref [1]; docs/immersed.md). Each step solves the
// advection-diffusion system (three right-hand sides) and the pressure Poisson
// system through the shared solver layer.
//
// Sample runs: miniapps/immersed/samples.txt, the one list (printed by --help,
// each run for two steps by a test).
#include "miniapp_samples.hpp"  // generated from samples.txt
#include "miniapps/common/time_loop.hpp"
#include "miniapps/immersed/ib_case.hpp"
#include "miniapps/immersed/ib_simulation.hpp"

int main(int argc, char** argv) {
  using namespace tb;
  harness::MiniappDescription app;
  app.name = "tb-ib";
  app.summary = "immersed-boundary fractional-step solver on stretched Cartesian grids (sphere, ellipsoid, STL)";
  app.samples = harness::miniapp_samples();
  app.systems = immersed::ib_systems;
  app.gpu_specs = {{"advection_diffusion", immersed::gpu_advection_solver},
                   {"pressure", immersed::gpu_pressure_solver}};
  app.declare_keys = immersed::declare_case_keys;
  app.check_case = immersed::check_case_keys;
  app.decomposes = true;  // under mpiexec: slabs of z planes (docs/distributed.md)
  app.make = [](const harness::CaseConfig& config) {
    return immersed::make_simulation(config, config.boolean("run.decompose"));
  };
  app.default_steps = 1000;
  return harness::run_miniapp(app, argc, argv);
}
