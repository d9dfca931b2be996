#pragma once
// Checkpoints: the physics state plus the harness's running totals, written
// atomically (temporary file, fsync, rename) to DIR/checkpoint.bin.
#include <filesystem>
#include <map>
#include <string>

#include "system_solvers.hpp"

namespace tb::harness {

struct CheckpointHeader {
  std::string app;
  long step = 0;
  double wall_seconds = 0.0;                   // wall time of the run so far
  std::map<std::string, SolverTotals> totals;  // "driver/<system>", "shadow<i>/<system>"
  std::string harness_state;                   // the autopilots' decision state ("" without)
};

void write_checkpoint(const std::filesystem::path& dir, const CheckpointHeader& header, const std::string& state);
// Returns the physics state; throws tb::Error naming the file when it is
// missing, from another miniapp or damaged.
std::string read_checkpoint(const std::filesystem::path& dir, const std::string& app, CheckpointHeader& header);

}  // namespace tb::harness
