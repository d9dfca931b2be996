#pragma once
// What the systems of a run keep of each solve: its statistics, whether the
// physics accepts it, and sums over a run.
#include <string>

#include "solvers/krylov/solve_stats.hpp"

namespace tb::systems {

// A solve is accepted when it converged, or, for a system that accepts its
// iteration limit (SystemDeclaration::accepts_iteration_limit), when it
// stopped there with a smaller residual than it started from.
bool accepted_solve(const SolveStats& s, bool accepts_iteration_limit);

// The one rule for a solve stopped at its iteration limit: on a system that
// accepts it with a smaller residual (an inexact Newton-Krylov step, whose
// outer iteration judges the step) it is accepted, counted in `at_limit`, and
// is no failure; anywhere else it is a failure. Every report (the stderr line
// of a failed solve, steps.csv's reason, summary.json's totals, the last line)
// counts it so.
struct SolverTotals {
  long solves = 0;
  long iterations = 0;
  long failures = 0;  // solves not accepted (accepted_solve)
  double setup_seconds = 0.0;
  double solve_seconds = 0.0;
  long at_limit = 0;  // accepted solves that stopped at their iteration limit
  void add(const SolveStats& s, bool accepted);
};

struct SolveRecord {
  std::string system;  // the system's name (a label)
  SolveStats stats;
  std::string checksum;   // "-" where no result uses it
  int candidate = -1;     // an autopilot's candidate that solved it (0-based); -1 without an autopilot
  bool probe = false;     // the autopilot probed every candidate on this system
  bool accepted = false;  // accepted_solve
};

}  // namespace tb::systems
