#pragma once
// What a miniapp's physics provides to the time loop. The physics declares its
// linear systems once (declare_systems) and owns their order within a step
// (momentum, then pressure...), solving each through the systems library
// (solvers/systems: SystemSet keeps one solver per system, symbolic set-up
// once per pattern, shadows, records, dumps and the step's accounting).
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <filesystem>
#include <iosfwd>
#include <limits>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "solvers/systems/linear_systems.hpp"

namespace tb::harness {

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
  // How many of `residuals`, from the first, are residuals that a blow-up
  // grows (run.max_growth bounds them); those after them are the step's other
  // figures (an order, a timing, a force, a settling estimate that is
  // unbounded until the forces settle), which must only be finite.
  std::size_t growth_bounded = std::numeric_limits<std::size_t>::max();
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
  // Declares the linear systems, each once, in the order a step solves them,
  // keeping the handles for advance(); called once, before the first step.
  virtual void declare_systems(systems::SystemRegistry& registry) = 0;
  virtual StepResult advance(systems::LinearSystems& systems) = 0;
  // Steady cases stop early once converged.
  virtual bool steady_state_reached() const { return false; }
  // A case that must converge (a pseudo-transient steady solver): reaching the
  // step limit without steady_state_reached() is a failed run, exit status 1.
  virtual bool must_converge() const { return false; }
  // Largest magnitudes of the state (e.g. {"velocity", max |u|}), checked after
  // every step: not finite, or grown past run.max_growth times their size in
  // the first steps, stops the run (step_guard.hpp).
  virtual std::vector<std::pair<std::string, double>> state_magnitudes() const { return {}; }
  // Everything needed to continue bit for bit after a restart.
  virtual void save_state(std::ostream& out) const = 0;
  virtual void load_state(std::istream& in) = 0;
  // The last accepted step's state kept where the state lives, for a
  // simulation whose state is on a device: save_state would bring it to the
  // host every step. True: kept, restore_kept_state() puts it back; false
  // (the default): the harness keeps save_state's bytes instead.
  virtual bool keep_state() { return false; }
  virtual void restore_kept_state() {}
  // Field output (VTK) for step 'step' into 'dir'. In a decomposed run every
  // rank writes its piece, and rank 0 the file that collects them.
  virtual void write_fields(const std::filesystem::path& dir, long step) { (void)dir, (void)step; }
  // In a decomposed run, how the domain was split ("2 ranks own 2,981 / 2,982
  // cells..."), printed once at start-up; empty otherwise.
  virtual std::string decomposition() const { return {}; }
  // The numerical method as the case resolved it (defaults that depend on other
  // keys included), printed once at start-up; empty: nothing beyond the keys.
  virtual std::string scheme() const { return {}; }
  // Final figures of the case (drag, centreline error...), for summary.json.
  virtual std::vector<std::pair<std::string, double>> figures_of_merit() const { return {}; }
};

}  // namespace tb::harness
