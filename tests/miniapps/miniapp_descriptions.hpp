#pragma once
// tb-incomp's and tb-comp2d's descriptions as their main() builds them, less
// the samples and the decomposition (the harness tests run one process), for
// tests that run the miniapps in process (run_miniapp).
#include <memory>

#include "miniapps/common/time_loop.hpp"
#include "miniapps/compressible/comp_case.hpp"
#include "miniapps/compressible/comp_simulation.hpp"
#include "miniapps/incompressible/incomp_case.hpp"
#include "miniapps/incompressible/incomp_simulation.hpp"

namespace tb::test {

inline harness::MiniappDescription incomp_app() {
  harness::MiniappDescription app;
  app.name = "tb-incomp";
  app.systems = {"momentum", "pressure"};
  app.gpu_specs = {{"momentum", incompressible::gpu_momentum_solver},
                   {"pressure", incompressible::gpu_pressure_solver}};
  app.declare_keys = incompressible::declare_case_keys;
  app.resolve_defaults = incompressible::resolve_case_defaults;
  app.check_case = incompressible::check_case_keys;
  app.make = [](const harness::CaseConfig& c) -> std::unique_ptr<harness::Simulation> {
    return std::make_unique<incompressible::IncompressibleSimulation>(c);
  };
  return app;
}

inline harness::MiniappDescription comp_app() {
  harness::MiniappDescription app;
  app.name = "tb-comp2d";
  app.systems = {"flow"};
  app.gpu_specs = {{"flow", compressible::gpu_flow_solver}};
  app.declare_keys = compressible::declare_case_keys;
  app.check_case = compressible::check_case_keys;
  app.make = [](const harness::CaseConfig& c) -> std::unique_ptr<harness::Simulation> {
    return std::make_unique<compressible::CompressibleSimulation>(c);
  };
  return app;
}

}  // namespace tb::test
