#pragma once
// One case run twice, on the host and with its step resident on the host
// backend (MemoryStorage standing in for the device: what run.backend = cuda
// runs on the GPU), each with its systems, for tests that compare the two
// step by step; on the pieces of a decomposed mesh or grid (under mpiexec)
// where asked.
#include <cmath>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "../common/memory_storage.hpp"
#include "miniapps/common/case_config.hpp"
#include "miniapps/common/simulation.hpp"
#include "solvers/systems/system_set.hpp"

namespace tb::test {

// A step's results without its timings (the names ending in _s); the
// residual factor where the physics has one (NaN, which equals nothing, otherwise).
inline std::vector<std::pair<std::string, double>> untimed(const harness::StepResult& r) {
  std::vector<std::pair<std::string, double>> out = {{"cfl", r.cfl}};
  if (!std::isnan(r.residual_factor)) out.emplace_back("factor", r.residual_factor);
  for (const auto& [name, value] : r.residuals)
    if (!name.ends_with("_s")) out.emplace_back(name, value);
  return out;
}

template <class Sim>
struct ResidentTwins {
  Sim host, flow;
  MemoryStorage device;
  systems::SystemSet on_host, on_device;

  // resident_solves: the resident twin's decomposed solves resident on the
  // host backend too, as a method's backend=cuda keeps them on each rank's GPU.
  ResidentTwins(const harness::CaseConfig& config, const std::map<std::string, std::string>& specs, bool decompose,
                bool resident_solves = false)
      : host(config, decompose),
        flow(config, decompose),
        on_host(systems_for(specs, decompose, nullptr, false)),
        on_device(systems_for(specs, decompose, &device, resident_solves)) {
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
  static systems::SystemSet systems_for(const std::map<std::string, std::string>& specs, bool decompose,
                                        systems::DeviceStorage* storage, bool resident_solves) {
    return systems::SystemSet({.specs = specs,
                               .decomposed = decompose,
                               .speaks = false,
                               .device_storage = storage,
                               .resident_drivers = resident_solves ? std::optional(Backend::host) : std::nullopt});
  }
};

}  // namespace tb::test
