#pragma once
// The asynchronous block ILU's apply sweep on the GPU against the device's
// STREAM triad, per block size and CUDA mapping (a thread or a group of lanes
// per block row: async_ilu::GpuRows): one forward and one backward sweep on
// a generated 7-point block system of about `bytes` of factor values.
#include <string>

#include "solvers/core/machine.hpp"

namespace tb::bench {

// Prints the table and writes the JSON (if json_path is set). Without a
// visible device it says so and returns false.
bool sweep_bandwidth_study(const Machine& machine, const std::string& json_path, int reps);

}  // namespace tb::bench
