#pragma once
// The loop's settings from a case and a command line, shared by a single run
// (miniapp_main.cpp) and the independent A/B study (ab_study.cpp).
#include <filesystem>
#include <map>
#include <string>

#include "case_config.hpp"
#include "command_line.hpp"
#include "time_loop.hpp"

namespace tb::harness {

LoopSettings settings_from(const MiniappDescription& app, const CaseConfig& config, const RunOptions& o,
                           const std::filesystem::path& out_dir);

// Whether this run splits the physics over its ranks: the miniapp decomposes,
// runs on more than one rank and its case keeps run.decompose = true.
bool decomposed_run(const MiniappDescription& app, const CaseConfig& config);

// "system=spec; system=spec" of the driving solvers.
std::string join_specs(const std::map<std::string, std::string>& specs);

}  // namespace tb::harness
