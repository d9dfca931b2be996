// tb-incomp: incompressible Navier-Stokes on stretched structured grids by a
// collocated fractional-step method (docs/incompressible.md), its momentum and
// pressure systems solved through the shared solver layer at every step.
//
// Sample runs:
//   build/bin/tb-incomp                                   (built-in 2D cavity, Re 100, 32 x 32)
//   build/bin/tb-incomp inputs/incompressible/cavity2d_re100.toml --out out/cavity100
//   build/bin/tb-incomp inputs/incompressible/cavity2d_re1000.toml --out out/cavity1000
//   build/bin/tb-incomp inputs/incompressible/cavity3d_re1000.toml --steps 20 --out out/cavity3d
//   build/bin/tb-incomp inputs/incompressible/channel2d.toml --out out/channel
//   build/bin/tb-incomp --set grid.nx=64 --set grid.ny=64 --set time.dt=0.1
//   build/bin/tb-incomp --steps 20 --shadow 'gmres(restart=30)+bilu0' --shadow pressure=cg+jacobi
//   build/bin/tb-incomp --steps 20 --ab 'gmres+bilu0' --ab 'momentum=bicgstab+block_jacobi'
//   build/bin/tb-incomp --set run.checkpoint_every=10 --out out/c  ... then: build/bin/tb-incomp --restart out/c
//   build/bin/tb-incomp --steps 5 --dump-systems 5        (MatrixMarket systems for tb-solve)
//   build/bin/tb-incomp --help                             (every case key and solver name)
#include "miniapps/common/time_loop.hpp"
#include "miniapps/incompressible/incomp_case.hpp"
#include "miniapps/incompressible/incomp_simulation.hpp"

int main(int argc, char** argv) {
  using namespace tb;
  harness::MiniappDescription app;
  app.name = "tb-incomp";
  app.summary = "incompressible fractional-step solver on structured grids (cavity, channel)";
  app.samples = {"tb-incomp", "tb-incomp inputs/incompressible/cavity2d_re100.toml --out out/cavity100",
                 "tb-incomp inputs/incompressible/channel2d.toml --out out/channel",
                 "tb-incomp --steps 20 --shadow 'gmres(restart=30)+bilu0' --shadow pressure=cg+jacobi",
                 "tb-incomp --steps 20 --ab 'gmres+bilu0'"};
  app.systems = {"momentum", "pressure"};
  app.declare_keys = incompressible::declare_case_keys;
  app.make = [](const harness::CaseConfig& config) -> std::unique_ptr<harness::Simulation> {
    return std::make_unique<incompressible::IncompressibleSimulation>(config);
  };
  return harness::run_miniapp(app, argc, argv);
}
