#include "linear_systems.hpp"

#include "solvers/core/error.hpp"

namespace tb::systems {

namespace {

[[noreturn]] void no_device_matrix() {
  throw Error("internal: these linear systems hold no device matrix (values written on the device need SystemSet)");
}

}  // namespace

void LinearSystems::set_pattern(SystemId, const BsrMatrix&) { no_device_matrix(); }
DeviceValues LinearSystems::device_values(SystemId) { no_device_matrix(); }
void LinearSystems::values_written(SystemId) { no_device_matrix(); }
SolveStats LinearSystems::solve(SystemId, std::span<const double>, std::span<double>) { no_device_matrix(); }
SolveStats LinearSystems::solve(SystemId, const Vector&, Vector&) { no_device_matrix(); }

}  // namespace tb::systems
