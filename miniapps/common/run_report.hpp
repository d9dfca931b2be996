#pragma once
// summary.json of one run and the A/B report that lines several up.
#include <cmath>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "time_loop.hpp"

namespace tb::harness {

void write_summary(const std::filesystem::path& out_dir, const LoopSettings& s, const CaseConfig& config,
                   const RunResult& r);

// What a driving run did to the physics: the nonlinear residuals of its last
// step ("res:<name>", as steps.csv names them), its figures of merit and its
// driver solvers' set-up + solve seconds. Shadow rows drove nothing: not found.
struct Outcome {
  bool found = false;
  std::vector<std::pair<std::string, double>> residuals;
  std::vector<std::pair<std::string, double>> figures;
  double linear_seconds = std::nan("");
};

struct StudyRow {
  std::string label;  // "baseline", "ab-1", "shadow-1"
  std::string spec;   // the specification(s) it ran
  SolverTotals totals;
  long steps = 0;
  bool steady = false;
  double wall_seconds = 0.0;  // independent runs only; NaN for shadows
  Outcome outcome;
};

// DIR/ab_report.md, .csv and .json.
void write_ab_report(const std::filesystem::path& dir, const std::string& mode, const std::vector<StudyRow>& rows);

}  // namespace tb::harness
