#pragma once
// The independent A/B study (--ab): one simulation per specification from the
// same initial state, lined up in DIR/ab_report.*; and the study rows a run
// with shadows adds to its own report.
#include <filesystem>
#include <string>
#include <vector>

#include "command_line.hpp"
#include "run_report.hpp"
#include "time_loop.hpp"

namespace tb::harness {

// The rows one run adds to a study: its driving solvers, then each shadow.
std::vector<StudyRow> study_rows(const std::string& label, const LoopSettings& s,
                                 const std::vector<std::string>& shadow_texts, const RunResult& r);

// Runs the baseline and every --ab specification; returns the exit status
// (1 when any run failed a solve, stopped or did not converge).
int run_independent_study(const MiniappDescription& app, const CaseConfig& base, const RunOptions& o,
                          const std::filesystem::path& out_dir, const std::vector<std::string>& notes = {});

}  // namespace tb::harness
