#pragma once
// tb-comp2d's case as the tests build it (the miniapp's keys, the built-in
// cylinder unless set otherwise), a step's results without its timings, and
// a host run beside one resident on the host backend, for tests that compare
// the two step by step.
#include <string>
#include <utility>
#include <vector>

#include "../common/memory_storage.hpp"
#include "miniapps/common/case_config.hpp"
#include "miniapps/common/simulation.hpp"
#include "miniapps/common/time_loop.hpp"
#include "miniapps/compressible/comp_case.hpp"
#include "miniapps/compressible/comp_simulation.hpp"
#include "solvers/systems/system_set.hpp"

namespace tb::test {

inline harness::CaseConfig comp2d_config() {
  harness::MiniappDescription app;
  app.name = "tb-comp2d";
  app.systems = {"flow"};
  app.declare_keys = compressible::declare_case_keys;
  return harness::CaseConfig(harness::make_schema(app));
}

// The step's results without its timings (residual_s, jacobian_s).
inline std::vector<std::pair<std::string, double>> untimed(const harness::StepResult& r) {
  std::vector<std::pair<std::string, double>> out = {{"cfl", r.cfl}, {"factor", r.residual_factor}};
  for (const auto& [name, value] : r.residuals)
    if (name != "residual_s" && name != "jacobian_s") out.emplace_back(name, value);
  return out;
}

// One case run on the host and resident on the host backend (MemoryStorage
// standing in for the device), each with its systems solved by `spec`; on
// the pieces of a decomposed mesh (under mpiexec) where `decompose`.
struct ResidentTwins {
  compressible::CompressibleSimulation host, flow;
  MemoryStorage device;
  systems::SystemSet on_host, on_device;

  ResidentTwins(const harness::CaseConfig& config, const std::string& spec, bool decompose)
      : host(config, decompose),
        flow(config, decompose),
        on_host(systems_for(spec, decompose, nullptr)),
        on_device(systems_for(spec, decompose, &device)) {
    flow.reside_on(Backend::host);
    host.declare_systems(on_host);
    flow.declare_systems(on_device);
  }
  // Step `step` of both: their results without timings, the host's first.
  std::pair<std::vector<std::pair<std::string, double>>, std::vector<std::pair<std::string, double>>> advance(
      long step) {
    on_host.begin_step(step);
    on_device.begin_step(step);
    const harness::StepResult a = host.advance(on_host);
    return {untimed(a), untimed(flow.advance(on_device))};
  }

 private:
  static systems::SystemSet systems_for(const std::string& spec, bool decompose, systems::DeviceStorage* storage) {
    return systems::SystemSet(
        {.specs = {{"flow", spec}}, .decomposed = decompose, .speaks = false, .device_storage = storage});
  }
};

}  // namespace tb::test
