// tb-incomp: incompressible Navier-Stokes on stretched structured grids by a
// collocated fractional-step method (docs/incompressible.md), its momentum and
// pressure systems solved through the shared solver layer at every step.
//
// Sample runs: miniapps/incompressible/samples.txt, the one list (printed by --help,
// each run for two steps by a test).
#include "miniapp_samples.hpp"  // generated from samples.txt
#include "miniapps/common/time_loop.hpp"
#include "miniapps/incompressible/incomp_case.hpp"
#include "miniapps/incompressible/incomp_simulation.hpp"

int main(int argc, char** argv) {
  using namespace tb;
  harness::MiniappDescription app;
  app.name = "tb-incomp";
  app.summary = "incompressible fractional-step solver on structured grids (cavity, channel)";
  app.samples = harness::miniapp_samples();
  app.systems = {"momentum", "pressure"};
  app.gpu_specs = {{"momentum", incompressible::gpu_momentum_solver},
                   {"pressure", incompressible::gpu_pressure_solver}};
  app.declare_keys = incompressible::declare_case_keys;
  app.resolve_defaults = incompressible::resolve_case_defaults;
  app.check_case = incompressible::check_case_keys;
  app.decomposes = true;  // under mpiexec: slabs of the grid (docs/distributed.md)
  app.make = [](const harness::CaseConfig& config) -> std::unique_ptr<harness::Simulation> {
    return std::make_unique<incompressible::IncompressibleSimulation>(config, config.boolean("run.decompose"));
  };
  return harness::run_miniapp(app, argc, argv);
}
