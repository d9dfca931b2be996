// tb-comp2d: steady compressible Euler flow on unstructured 2D meshes by
// implicit pseudo-time stepping (seed 001 §2, docs/compressible.md), the
// block Jacobian system of every step solved through the shared solver layer.
//
// Sample runs:
//   build/bin/tb-comp2d                                      (built-in: cylinder, M 0.38, coarse mesh)
//   build/bin/tb-comp2d inputs/compressible/cylinder_inviscid.toml --out out/cylinder
//   build/bin/tb-comp2d --set mesh.ordering=rcm --set scheme.limiter=venkatakrishnan
//   build/bin/tb-comp2d --set mesh.file=inputs/meshes/cylinder_coarse.su2
//   build/bin/tb-comp2d --shadow 'gmres(restart=30,rtol=1e-1,maxit=60)+block_jacobi'
//   build/bin/tb-comp2d --ab 'fgmres(restart=30,rtol=1e-1,maxit=60)+bilu0' --ab
//   'fgmres(restart=30,rtol=1e-1,maxit=60)+block_jacobi' build/bin/tb-comp2d --set run.checkpoint_every=50 --out out/c
//   ... then: build/bin/tb-comp2d --restart out/c build/bin/tb-comp2d --steps 20 --dump-systems 20 (MatrixMarket
//   systems for tb-solve) build/bin/tb-comp2d --help                                (every case key and solver name)
#include "miniapps/common/time_loop.hpp"
#include "miniapps/compressible/comp_case.hpp"
#include "miniapps/compressible/comp_simulation.hpp"

int main(int argc, char** argv) {
  using namespace tb;
  harness::MiniappDescription app;
  app.name = "tb-comp2d";
  app.summary = "implicit pseudo-time Euler solver on unstructured 2D meshes (cylinder)";
  app.samples = {"tb-comp2d", "tb-comp2d inputs/compressible/cylinder_inviscid.toml --out out/cylinder",
                 "tb-comp2d --set mesh.ordering=rcm --set scheme.flux=rusanov",
                 "tb-comp2d --shadow 'gmres(restart=30,rtol=1e-1,maxit=60)+block_jacobi'",
                 "tb-comp2d --set run.checkpoint_every=50 --out out/c; tb-comp2d --restart out/c"};
  app.systems = {"flow"};
  app.declare_keys = compressible::declare_case_keys;
  app.default_steps = 1000;
  app.make = [](const harness::CaseConfig& config) -> std::unique_ptr<harness::Simulation> {
    return std::make_unique<compressible::CompressibleSimulation>(config);
  };
  return harness::run_miniapp(app, argc, argv);
}
