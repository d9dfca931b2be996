#pragma once
// The solver autopilot's decisions (autopilot_spec.hpp says what it is): which
// candidate is in charge of a system, when the candidates are probed, when the
// charge moves. This file holds no solver: costs in, decisions out, so the
// decisions are tested with made-up cost streams.
#include <limits>
#include <span>
#include <string>
#include <vector>

#include "solvers/systems/autopilot_spec.hpp"

namespace tb::systems {

struct AutopilotProbe {
  long step = 0;
  int candidate = 0;
  double cost = 0.0;  // seconds per step (deterministic mode: calibrated seconds)
  long iterations = 0;
  bool failed = false;
  bool cut = false;  // stopped at its limit, unable to take the charge: cost is a lower bound
  // Stopped at its iteration limit where the system accepts that (tb-comp2d's
  // flow) and no other candidate of the round met its tolerance: no failure,
  // its cost is priced to its tolerance (AutopilotSlot::priced).
  bool missed = false;
  // The factor by which its update would cut the nonlinear residual
  // (ProgressProbe::progress; NaN where the physics cannot tell), and the
  // weight the policy gave its cost for it (1: none).
  double progress = std::numeric_limits<double>::quiet_NaN();
  double weight = 1.0;
};

struct AutopilotSwitch {
  long step = 0;  // the first step the new candidate is in charge
  int from = 0;
  int to = 0;
  std::string reason;  // "cheaper", "failed", "slower" (a tenure review)
};

// The policy is a state machine over the steps of a run. Its states, between
// two steps:
//
//   start_up          no round yet: the next step probes every candidate (the
//                     start-up round, a race: AutopilotSlot::solve)
//   holding           a candidate in charge; the next round is the schedule's
//                     (every step - last probe >= schedule(), within_budget())
//   handed_over       holding, the charge handed outside a round (a tenure
//                     review, a first-step check, a yield): the next step in
//                     charge sets the drift reference
//   round_for_all     a round asked for by a failure in charge, drift or a
//                     missed tolerance: the next step probes every candidate,
//                     the backed-off ones included
//   round_for_regime  a round asked for by a CFL regime change alone: the next
//                     step probes the candidates the back-off lets in
//   confirming        a narrow win to confirm: the next step probes the
//                     winner (pending) alone
//
// Its transitions, at the end of a step (observe()):
//
//   any state with a round --the round's probes--> holding, or confirming
//                              where a candidate won by less than 2x (1.5x at
//                              start-up) and is not the one being confirmed
//   holding --the schedule's round within the budget--> (a round, as above)
//   holding, handed_over --a failure in charge--> round_for_all
//   holding, handed_over --drift, or a tolerance missed where another met it--> round_for_all
//   holding, handed_over --a CFL regime change alone--> round_for_regime
//   holding, handed_over --a review, a first-step check or a yield hands the
//                          charge--> handed_over
//   handed_over --a step in charge sets the drift reference--> holding
//
// Beside the state, a newcomer that took the charge as the cheaper is on
// probation (AutopilotSpec::tenure): its first step in charge is checked
// against its price (check_first_step), and after `tenure` steps its headway
// is reviewed (review); either may hand the charge back.
class AutopilotPolicy {
 public:
  static constexpr double unknown = std::numeric_limits<double>::quiet_NaN();

  enum class State { start_up, holding, handed_over, round_for_all, round_for_regime, confirming };
  State state() const { return state_; }

  AutopilotPolicy(int candidates, const AutopilotSpec& spec);

  int in_charge() const { return in_charge_; }
  // Whether the candidates solve the systems of this step beside the one in charge,
  // and whether candidate k does: one found far behind the one in charge (the
  // runner-up more than 2x as costly, any other more than 1.5x) is probed on
  // every 2nd, 4th, then 8th probe only (the first probe, one after a failed
  // solve in charge and one for drift take every candidate; one for a CFL
  // regime change does not); the probe that confirms a narrow win takes only
  // the winner.
  bool probes(long step) const;
  // Whether a scheduled round at this step keeps probing within the budget:
  // the probes' cost so far plus this round's, each probe priced at a solve
  // in charge (the probes are cut at twice that, the cheaper ones finish
  // sooner), at most AutopilotSpec::budget of the linear time so far plus
  // the round. On a short run the start-up round alone can spend the budget:
  // tb-ib's sphere over 30 steps probed 11-12 % of its linear time, half of
  // it in one scheduled round at step 16 that changed nothing.
  bool within_budget() const;
  // The probes' cost and the whole linear cost (in charge and probes) so far,
  // as the costs given to observe() price them: a probe at one solve's cost.
  double probe_spent() const { return probe_spent_; }
  double linear_spent() const { return linear_spent_; }
  // Steps from the last probe to the next scheduled one: every, doubled with each
  // round after the first in a row that confirmed the one in charge, up to backoff x every.
  long schedule() const;
  // The fewest steps from the last probe to one asked for by drift or a CFL
  // change: every / 4, doubled by each such round the one in charge kept
  // since it took the charge, at most schedule(). (A missed tolerance and a
  // failure in charge ask regardless.)
  long trigger_gap() const;
  bool probes(long step, int k) const;
  // The candidates to try, in order, when the one in charge fails a solve:
  // the cheapest known first, never-measured ones after, failed ones last.
  std::vector<int> fallback_order() const;
  // Every candidate but the one in charge, in the same order: the order to probe
  // in, so that the likely cheapest sets the budget of the rest early.
  std::vector<int> probe_order() const { return fallback_order(); }
  // A candidate that cannot take the system: never probed nor put in charge.
  void refuse(int candidate);
  bool refused(int candidate) const { return refused_[std::size_t(candidate)] != 0; }

  // The end of a step. cost[k]: candidate k's cost this step, NaN when it did not
  // run; iterations[k] likewise; failed[k]: solve_failed when one of its solves
  // was not accepted, missed_tolerance when one stopped at its iteration limit
  // and the system accepted it (SystemDeclaration::accepts_iteration_limit), else 0.
  // A miss counts as failed where another candidate met its tolerance on the
  // same systems: a probe that missed cannot take the charge; the one in
  // charge that missed keeps its cost and the charge (nothing fell back) but
  // takes the charge back from another only by 2x, as a failed one; and when
  // another candidate met its tolerance at its last probe, it asks for a probe
  // round (drift), in which its miss counts as failed if another met its
  // tolerance again; one that had failed a solve before it took the charge
  // gives the charge back at once instead, barred as one that failed in charge
  // (yield_charge).
  // The one in charge cut short (the start-up race, AutopilotSlot::solve)
  // holds the charge against no one.
  // A probe cut short (cut_short: stopped at the limit AutopilotSlot sets, where
  // it can no longer take the charge) is no failure: its cost is a lower bound,
  // it cannot take the charge that round, and it counts as far behind for the
  // back-off.
  // When no candidate of the round met its tolerance (tb-comp2d's matrix-free
  // steps, whose inner solves stop at maxit=10 by design), a miss is the
  // system's norm, not a failure: the costs decide (the slot prices each such
  // solve to its tolerance), and no candidate takes the 2x rule for it.
  // cfl: the step's CFL number (NaN where the physics has none); a change by more
  // than 2x since the last probe is a regime change and triggers a probe.
  // progress[k] (empty, or NaN entries, where unknown): the factor by which
  // candidate k's update would cut the nonlinear residual. On a probe step
  // each measured cost is weighted by the steps the candidate would take
  // against the one that went furthest (progress_weight), so that the
  // estimates compare seconds per decade of nonlinear residual, not per step.
  // residual_factor: the step's nonlinear residual after over before (NaN: none),
  // for the tenure review. solves: how many times the step solved the system
  // (cost and iterations are the step's): drift is judged per solve, so that
  // a nonlinear step taking more outer iterations as its CFL grows does not
  // read as the one in charge getting worse.
  void observe(long step, std::span<const double> cost, std::span<const long> iterations, std::span<const char> failed,
               double cfl, std::span<const double> progress = {},
               double residual_factor = std::numeric_limits<double>::quiet_NaN(), long solves = 1);
  // The weight of a cost for its update's progress: ln(best) / ln(this), the
  // steps this candidate's updates would take for one of the best's, where
  // best is the smallest factor of the round; 1 while the best cuts the
  // residual by less than min_progress (a transient, or a loop near its
  // end: one step's factors are then noise), at most max_weight (an update
  // that goes nowhere or back: steps are not infinite, the ramp goes on).
  static double progress_weight(double progress, double best);
  static constexpr double min_progress = 0.01;
  static constexpr double max_weight = 4.0;
  static constexpr double max_penalty = 8.0;
  // The tenure review's measure over the last `tenure` steps in charge:
  // their cost over the log of their residual drop, seconds per e-fold; NaN
  // while fewer steps are known, +inf where the residual did not fall.
  double seconds_per_efold() const;

  static constexpr char solve_failed = 1;
  static constexpr char missed_tolerance = 2;
  static constexpr char cut_short = 3;

  const std::vector<AutopilotProbe>& probes_log() const { return probes_; }
  const std::vector<AutopilotSwitch>& switches() const { return switches_; }
  // The cost estimates in use (NaN: never measured, +inf: failed at its last probe).
  const std::vector<double>& estimates() const { return estimate_; }

  // Every number of the decision state, exactly (hexadecimal floats), for the
  // checkpoint: a restarted run makes the decisions the full run makes.
  std::string save() const;
  void load(const std::string& text);

 private:
  void decide(long step, bool first);
  // Candidate k failed in charge: not put in charge again for every x 2^(failures - 1) steps.
  void bar(std::size_t k, long step);
  // Whether a candidate probed this round met its tolerance (else the 2x rule
  // for those that failed before is off: decide()).
  bool round_met_tolerance() const;
  // The one in charge misses where it took the risk (risky_charge_): bars it and
  // hands the charge to the cheapest finite estimate of the last probe round;
  // false where there is none.
  bool yield_charge(long step, double cfl);
  // Candidate k's cost as the decisions compare it: x its progress weight and review penalty.
  double weighted(std::size_t k, double cost) const { return cost * weight_[k] * penalty_[k]; }
  // observe() less the tenure review: the costs, probes and decisions
  // (probing: probes(step), as begin_step read it).
  void observe_costs(long step, bool probing, std::span<const double> cost, std::span<const long> iterations,
                     std::span<const char> failed, double cfl, std::span<const double> progress, long solves);
  // The review of a candidate `tenure` steps after it took the charge (AutopilotSpec::tenure).
  void review(long step, double cfl);
  void start_tenure(int from, long step);
  // The first step of a candidate that took the charge as the cheaper: its
  // cost in charge against what it was priced at. A probe prices a step at
  // the one in charge's solves a step, but where each solve preconditions an
  // outer iteration the one in charge sets how many there are (NACA 0012 from
  // CFL 1: block Jacobi, priced at BiLU(0)'s 10 outer iterations, took the
  // maximum 40 in charge, 0.18 s a step against BiLU(0)'s 0.074). Dearer
  // than max(its price, the price of the one it replaced) by more than twice
  // the hysteresis, it gives the charge back at once ("dearer"), its
  // estimates weighted by its cost over its price (at most max_penalty).
  // Armed with the tenure review (decide()): tenure = 0 turns both off.
  void check_first_step(long step, double cost, double cfl);
  // The charge to `to` outside a probe round's decision (a review, a yield),
  // from the next step; the in-charge figures start again.
  void hand_charge(int to, long step, const char* reason, double cfl);
  // The in-charge cost and iterations smoothed, and the CFL range of the probes:
  // started again for a new one in charge (restart), else carried on; a probe
  // (probe) takes the smoothed figures as the reference for drift.
  void track_in_charge(bool restart, bool probe, double cost, double iterations, double cfl);
  // Whether candidate k (not in charge) takes part in a round at this point
  // of the schedule: probes(step, k) less the question whether there is a round.
  bool joins_round(int k) const;
  // Whether the state asks for a round at the next step, whatever the schedule.
  bool round_requested() const {
    return state_ == State::start_up || state_ == State::round_for_all || state_ == State::round_for_regime ||
           state_ == State::confirming;
  }

  AutopilotSpec spec_;
  std::vector<double> estimate_;
  std::vector<char> refused_;
  std::vector<long> interval_;      // each candidate's probe interval, in scheduled probes
  std::vector<long> failures_;      // solves each failed in charge
  std::vector<long> barred_until_;  // a candidate that failed in charge is not put in charge before this step
  std::vector<char> failed_once_;   // failed a solve of this run, probe or in charge: takes the charge by 2x only
  std::vector<char> met_;           // met its tolerance at its last probe
  std::vector<char> fresh_;         // measured by this probe round: only these may take the charge
  std::vector<char> cut_;           // cut short in this probe round: a lower bound, far behind
  std::vector<double> weight_;      // each one's progress weight at its last probe (1: none)
  std::vector<double> penalty_;     // found slower by a tenure review: its estimates x this (1: none)
  // The tenure review: the one in charge's last steps (cost, -ln residual
  // factor), the candidate it took the charge from with that one's seconds
  // per e-fold, and the step of the review (review_from_ -1: none pending).
  std::vector<double> window_cost_, window_drop_;
  int review_from_ = -1;
  double review_reference_ = unknown;
  long review_at_ = 0;
  // check_first_step: the one the charge came from (-1: no check pending), the
  // newcomer's price and the price of the one it replaced, at that round.
  int check_from_ = -1;
  double check_price_ = unknown, check_reference_ = unknown;
  bool risky_charge_ = false;       // the one in charge had failed a solve before it took the charge (the 2x rule)
  long round_ = 0;                  // probes done
  long confirmations_ = 0;          // scheduled rounds in a row that kept the one in charge
  long trigger_confirmations_ = 0;  // rounds asked for by drift or a CFL change that kept it, since it took the charge
  int in_charge_ = 0;
  long last_probe_ = 0;  // 0: none yet, so the first step probes
  State state_ = State::start_up;
  double reference_ = unknown;  // the smoothed cost in charge at the last probe
  double smoothed_ = unknown;   // the cost in charge, smoothed since it took the charge
  double reference_its_ = 0.0;  // the smoothed iterations in charge at the last probe
  double smoothed_its_ = 0.0;   // the iterations in charge, smoothed likewise
  int pending_ = -1;            // a candidate that won one probe by less than 2x: confirming
  double cfl_low_ = unknown;    // the CFL range of the probes since the one in charge took it
  double cfl_high_ = unknown;
  double probe_spent_ = 0.0;   // the probes' cost so far, one solve each (within_budget)
  double linear_spent_ = 0.0;  // the cost in charge and the probes' so far
  std::vector<AutopilotProbe> probes_;
  std::vector<AutopilotSwitch> switches_;
};

}  // namespace tb::systems
