#pragma once
// summary.json of one run and the A/B report that lines several up.
#include <filesystem>
#include <string>
#include <vector>

#include "time_loop.hpp"

namespace tb::harness {

void write_summary(const std::filesystem::path& out_dir, const LoopSettings& s, const CaseConfig& config,
                   const RunResult& r);

struct StudyRow {
  std::string label;  // "baseline", "ab-1", "shadow-1"
  std::string spec;   // the specification(s) it ran
  SolverTotals totals;
  long steps = 0;
  bool steady = false;
  double wall_seconds = 0.0;  // independent runs only; NaN for shadows
};

// DIR/ab_report.md, .csv and .json.
void write_ab_report(const std::filesystem::path& dir, const std::string& mode, const std::vector<StudyRow>& rows);


}  // namespace tb::harness
