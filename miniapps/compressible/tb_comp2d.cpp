// tb-comp2d: steady compressible Euler flow on unstructured 2D meshes by
// implicit pseudo-time stepping (seed 001 §2, docs/compressible.md), the
// block Jacobian system of every step solved through the shared solver layer.
//
// Sample runs: miniapps/compressible/samples.txt, the one list (printed by --help,
// each run for two steps by a test).
#include "miniapp_samples.hpp"  // generated from samples.txt
#include "miniapps/common/time_loop.hpp"
#include "miniapps/compressible/comp_case.hpp"
#include "miniapps/compressible/comp_simulation.hpp"

int main(int argc, char** argv) {
  using namespace tb;
  harness::MiniappDescription app;
  app.name = "tb-comp2d";
  app.summary = "implicit pseudo-time Euler solver on unstructured 2D meshes (cylinder, NACA 0012 airfoil)";
  app.samples = harness::miniapp_samples();
  app.systems = {"flow"};
  app.gpu_specs = {{"flow", compressible::gpu_flow_solver}};
  app.declare_keys = compressible::declare_case_keys;
  app.check_case = compressible::check_case_keys;
  app.default_steps = 1000;
  app.decomposes = true;  // under mpiexec: METIS pieces of the mesh (docs/distributed.md)
  app.make = [](const harness::CaseConfig& config) -> std::unique_ptr<harness::Simulation> {
    return std::make_unique<compressible::CompressibleSimulation>(config, config.boolean("run.decompose"));
  };
  return harness::run_miniapp(app, argc, argv);
}
