#pragma once
// What a miniapp's physics provides to the time-loop harness. The physics owns
// the order of its linear systems within a step (momentum, then pressure...) and
// solves each through LinearSystems, which the harness implements: it keeps one
// solver per system (symbolic set-up once per pattern), runs shadow solvers on
// the identical systems, records statistics and dumps chosen steps.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iosfwd>
#include <limits>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "solvers/dist/row_distribution.hpp"
#include "solvers/krylov/solve_stats.hpp"
#include "solvers/matrix/bsr.hpp"

namespace tb::harness {

class LinearSystems {
 public:
  virtual ~LinearSystems() = default;
  // Solves A x = b for the named system; x holds the initial guess on entry.
  // In a decomposed run (MiniappDescription::decomposes, under mpiexec) every
  // rank calls it at once with its own block rows of A (global block columns,
  // rank r's rows after rank r-1's; or their owned columns alone where
  // Simulation::split_rows names the rest) and its own entries of b and x.
  virtual SolveStats solve(const std::string& system, const BsrMatrix& a, std::span<const double> b,
                           std::span<double> x) = 0;
  // From the next solve of `system` on, until changed: at most max_iterations
  // iterations a solve where its specification allows more (0: its own
  // maxit). tb-comp2d caps the solves that precondition its matrix-free outer
  // iteration (jacobian.matrix_free_inner_maxit). An autopilot's candidates
  // take the cap as their own limit (AutopilotSlot::cap_iterations).
  virtual void cap_iterations(const std::string& system, int max_iterations) = 0;
  // solve(), and when it did not converge a line on stderr,
  //   PROGRAM: step N: the SYSTEM solve did not converge: STATS
  // written by a rank that speaks (rank 0 of a decomposed run, whose ranks'
  // solves are one and the same).
  SolveStats solve_or_warn(const char* program, long step, const std::string& system, const BsrMatrix& a,
                           std::span<const double> b, std::span<double> x, bool speaks) {
    SolveStats s = solve(system, a, b, x);
    if (!s.converged() && speaks)
      std::fprintf(stderr, "%s: step %ld: the %s solve did not converge: %s\n", program, step, system.c_str(),
                   s.line().c_str());
    return s;
  }
};

struct StepResult {
  double time = 0.0;  // simulated time after the step
  double dt = 0.0;
  double cfl = std::numeric_limits<double>::quiet_NaN();  // NaN where the scheme has none
  std::vector<std::pair<std::string, double>> residuals;  // nonlinear residuals, fixed names and order
  // A steady iteration's step: its nonlinear residual after the update over
  // the one it started from, both of the same discretisation (below 1: it
  // went forward); NaN where the physics has none. The solver autopilot
  // reviews a new candidate in charge by it (AutopilotSpec::tenure).
  double residual_factor = std::numeric_limits<double>::quiet_NaN();
};

// max |v| over the values, NaN when any value is NaN (std::max would skip it):
// what state_magnitudes() reports.
inline double max_magnitude(std::span<const double> v) {
  double m = 0.0;
  for (double x : v) {
    if (x != x) return x;
    m = std::max(m, std::abs(x));
  }
  return m;
}

class Simulation {
 public:
  virtual ~Simulation() = default;
  // Names of the linear systems, in the order a step solves them.
  virtual std::vector<std::string> linear_systems() const = 0;
  virtual StepResult advance(LinearSystems& solvers) = 0;
  // Steady cases stop early once converged.
  virtual bool steady_state_reached() const { return false; }
  // A case that must converge (a pseudo-transient steady solver): reaching the
  // step limit without steady_state_reached() is a failed run, exit status 1.
  virtual bool must_converge() const { return false; }
  // Whether a solve of `system` that stopped at its iteration limit after
  // reducing the residual is an acceptable step rather than a failed solve: an
  // inexact Newton step, as seed 001's pseudo-time method takes (FGMRES "up to a
  // maximum of 60 iterations", §6).
  virtual bool accepts_iteration_limit(const std::string& system) const {
    (void)system;
    return false;
  }
  // Called from within advance(), inside the solve of `system`: how far its
  // solution x would carry the nonlinear iteration, as the factor by which the
  // update would cut the nonlinear residual (below 1: progress; +inf: a
  // non-physical state); NaN where the physics cannot tell (the default). The
  // solver autopilot weighs its candidates' costs with it: solved to the same
  // tolerance, two candidates' steps may still differ in how far they go.
  virtual double update_progress(const std::string& system, std::span<const double> x) {
    (void)system, (void)x;
    return std::numeric_limits<double>::quiet_NaN();
  }
  // Largest magnitudes of the state (e.g. {"velocity", max |u|}), checked after
  // every step: not finite, or grown past run.max_growth times their size in
  // the first steps, stops the run (step_guard.hpp).
  virtual std::vector<std::pair<std::string, double>> state_magnitudes() const { return {}; }
  // Everything needed to continue bit for bit after a restart.
  virtual void save_state(std::ostream& out) const = 0;
  virtual void load_state(std::istream& in) = 0;
  // Field output (VTK) for step 'step' into 'dir'. In a decomposed run every
  // rank writes its piece, and rank 0 the file that collects them.
  virtual void write_fields(const std::filesystem::path& dir, long step) { (void)dir, (void)step; }
  // In a decomposed run, how the domain was split ("2 ranks own 2,981 / 2,982
  // cells..."), printed once at start-up; empty otherwise.
  virtual std::string decomposition() const { return {}; }
  // The numerical method as the case resolved it (defaults that depend on other
  // keys included), printed once at start-up; empty: nothing beyond the keys.
  virtual std::string scheme() const { return {}; }
  // In a decomposed run whose physics assembles a system's rows split
  // (tb-comp2d's pieces, tb-incomp's slabs): the rest of this rank's rows,
  // beside the local block (owned rows and columns, numbered from 0) each
  // solve of `system` gets, kept and refilled by the physics for the whole
  // run, read there by the solvers (no split copy per rank). No blocks (the
  // default): rows in global columns.
  virtual dist::OffRankRows split_rows(const std::string& system) const {
    (void)system;
    return {};
  }
  // Final figures of the case (drag, centreline error...), for summary.json.
  virtual std::vector<std::pair<std::string, double>> figures_of_merit() const { return {}; }
};

}  // namespace tb::harness
