#pragma once
// The solver autopilot's specification. A system whose solver is written
//   autopilot(candidates=[fgmres+bilu0; fgmres+fgbilu; gmres+parilut(fill=2)], every=20)
// is solved by one candidate at a time, the one in charge; on probe steps every
// candidate also solves the same system from the same initial guess (a shadow
// solve: the trajectory always comes from the one in charge), and the policy
// (autopilot_policy.hpp) moves the charge to the cheapest.
#include <iosfwd>
#include <string>
#include <vector>

namespace tb::systems {

struct AutopilotSpec {
  std::vector<std::string> candidates;  // solver specifications, in the order written
  long every = 20;                      // the scheduled probe interval while the charge is new
  long backoff = 8;                     // confirmed again and again, the interval doubles up to this x every
  double hysteresis = 0.15;             // switch only to a candidate cheaper by this fraction
  double drift = 0.5;                   // probe when the iterations in charge grow by this fraction (seconds: twice it)
  // The share of the run's linear time that probing may take before a
  // scheduled round waits (AutopilotPolicy::within_budget; docs/autopilot.md).
  // Rounds asked for by drift, a failure, a CFL change or a narrow win never
  // wait, nor does the first; 1: the schedule alone; 0: no scheduled rounds.
  double budget = 0.1;
  bool deterministic = false;  // decide from iterations x calibrated cost per iteration
  int start = 0;               // the candidate in charge at the first step (0-based)
  // Weigh each probe's cost by how far its update carries the nonlinear
  // iteration (AutopilotPolicy::progress_weight; physics that can tell:
  // tb-comp2d). Off by default: one step's residual reduction ranks the
  // candidates as their whole runs do on the cylinder and the other way round
  // on the NACA 0012, and with the tenure review beside it the runs measured
  // gained on the first as often as they lost on both (docs/harness.md).
  bool progress = false;
  // The tenure review: a candidate that took the charge as cheaper a step is
  // reviewed after this many steps in charge (0: never, and no
  // AutopilotPolicy::check_first_step either) by the seconds its
  // solves took per e-fold of the nonlinear residual
  // (SystemSet::end_step, physics with a steady iteration: tb-comp2d),
  // against the same figure of the one it took the charge from over as many
  // of its last steps. Slower by more than the hysteresis, the charge goes
  // back and its estimates are weighted by how much slower (at most
  // max_penalty): a cheaper step that makes less headway costs pseudo-steps.
  long tenure = 8;
  // How a solve stopped at its own iteration limit, where the system accepts
  // that (tb-comp2d's matrix-free inner solves), is priced: carried to its
  // tolerance at the rate it went (the default; AutopilotSlot::priced_iterations),
  // or as it ran (limit_price=as_run). Neither sees how the outer iteration
  // responds; priced as run, block Jacobi takes the charge on the NACA 0012
  // from CFL 1 and the first-step check must give it back (docs/autopilot.md,
  // "Measured": bench/results/host-autopilot-limit-price.json).
  bool price_to_tolerance = true;
};

// The doubles of the autopilots' checkpoint state (AutopilotPolicy and
// AutopilotSlot save/load): hexadecimal floating point (%a), an exact round
// trip, nan and inf included.
std::string exact_text(double v);
double read_exact(std::istream& in);

// True for text that starts with "autopilot(".
bool is_autopilot_spec(const std::string& text);
// Why a decomposed run refuses an autopilot specification (the start-up check
// says it first, naming the place; SystemSet again for callers without one).
inline constexpr const char* autopilot_on_ranks_refusal =
    "the autopilot runs on one process, or on ranks that each run the whole physics (run.decompose = false); a "
    "decomposed run takes one specification";
// Throws tb::Error quoting the text and naming the parameter and what is allowed.
AutopilotSpec parse_autopilot_spec(const std::string& text);

}  // namespace tb::systems
