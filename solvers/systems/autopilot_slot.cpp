#include "autopilot_slot.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <memory>
#include <optional>
#include <sstream>
#include <utility>

#include "solvers/core/error.hpp"
#include "solvers/core/timer.hpp"
#include "solvers/factory/registry.hpp"
#include "solvers/factory/solver_communicator.hpp"
#include "solvers/systems/checksum.hpp"
#include "solvers/systems/solve_record.hpp"

namespace tb::systems {

namespace {

// A calibrated cost on a grid of quarter powers of two (19 % apart), so that
// two runs whose timings differ by a few per cent usually calibrate the same.
double quantise(double seconds) {
  if (!(seconds > 0.0) || !std::isfinite(seconds)) return seconds;
  return std::exp2(std::round(4.0 * std::log2(seconds)) / 4.0);
}

// The largest of each value over the ranks (-1 stands for NaN: costs are >= 0).
void max_over_ranks(std::vector<double>& v) {
  for (double& x : v)
    if (std::isnan(x)) x = -1.0;
  solver_communicator()->space().reduce(nullptr, 0, v.data(), int(v.size()));
  for (double& x : v)
    if (x < 0.0) x = std::nan("");
}

// A step's outcome flags from the best to the worst: the index is what the
// ranks reduce with a max, so that all decide from the worst rank's outcome.
constexpr char by_severity[] = {0, AutopilotPolicy::cut_short, AutopilotPolicy::missed_tolerance,
                                AutopilotPolicy::solve_failed};

// A solve that stopped at its iteration limit having cut the residual by
// `reached` (its final over its initial residual) would need ln(cut) /
// ln(reached) times its iterations to make the cut it had to make (its target
// residual over its initial one: rtol, or less under relative_to = b) at the
// same rate, at most max_reach_factor (one that went nowhere: as a failed one,
// but priced).
constexpr double max_reach_factor = 8.0;
double reach_factor(const SolveStats& st) {
  if (st.converged() || !(st.initial_residual > 0.0)) return 1.0;
  const double cut = st.target_residual / st.initial_residual;
  if (!(cut > 0.0 && cut < 1.0)) return 1.0;
  const double reached = st.final_residual / st.initial_residual;
  if (!(reached < 1.0)) return max_reach_factor;
  if (reached <= cut) return 1.0;
  return std::min(std::log(cut) / std::log(reached), max_reach_factor);
}

double severity(char flag) {
  return double(std::find(std::begin(by_severity), std::end(by_severity), flag) - by_severity);
}

}  // namespace

AutopilotSlot::AutopilotSlot(std::string system, AutopilotSpec spec)
    : system_(std::move(system)), spec_(std::move(spec)), policy_(int(spec_.candidates.size()), spec_) {
  const std::size_t n = spec_.candidates.size();
  slots_.resize(n);
  per_iteration_.assign(n, std::nan("")), per_update_.assign(n, std::nan("")), per_setup_.assign(n, std::nan(""));
  setup_seconds_.assign(n, 0.0);
  startup_setup_.assign(n, 0.0);
  step_cost_.assign(n, std::nan("")), step_iterations_.assign(n, 0), step_failed_.assign(n, 0);
  step_progress_.assign(n, std::nan(""));
  last_update_.assign(n, 0.0);
  probe_accepted_.assign(n, 0), probe_stats_.resize(n), probe_x_.resize(n);
  probe_cost_.assign(n, 0.0), probe_update_cost_.assign(n, 0.0), probe_iterations_.assign(n, 0),
      step_runs_.assign(n, 0);
  for (std::size_t k = 0; k < n; ++k) {
    parse_spec(spec_.candidates[k]);  // a syntax error is bad input, not a refusal
    try {
      slots_[k].solver = make_solver(spec_.candidates[k]);
    } catch (const Error& e) {
      refuse(int(k), e.what());
    }
  }
  // The candidates solve one at a time: one set of Krylov vectors serves them
  // all (three FGMRES(30) candidates on the NACA 0012 coarse mesh held 45 MiB
  // of bases, one each, against 15).
  for (SolverSlot& slot : slots_)
    if (slot.solver && slot.solver->complete() == nullptr) slot.solver->method().share_workspace(krylov_);
}

void AutopilotSlot::use_clock(StepClock* clock) {
  clock_ = clock;
  for (SolverSlot& slot : slots_) slot.clock = clock;
}

// Charges the step's clock, where there is one, with `a` while in scope.
class AutopilotSlot::Charge {
 public:
  Charge(StepClock* clock, Account a, bool held) {
    if (clock) scope_.emplace(*clock, a, held);
  }

 private:
  std::optional<StepClock::Scope> scope_;
};

void AutopilotSlot::refuse(int k, const std::string& why) {
  const std::string line = "candidate " + std::to_string(k + 1) + " (" + spec_.candidates[std::size_t(k)] + "): " + why;
  std::fprintf(stderr, "autopilot for system '%s': refused %s\n", system_.c_str(), line.c_str());
  refused_.push_back(line);
  slots_[std::size_t(k)].solver.reset();
  try {
    policy_.refuse(k);
  } catch (const Error&) {
    throw Error("autopilot for system '" + system_ + "': every candidate was refused (last: " + line + ")");
  }
}

void AutopilotSlot::begin_step(long step) {
  step_ = step;
  std::fill(step_cost_.begin(), step_cost_.end(), std::nan(""));
  std::fill(step_iterations_.begin(), step_iterations_.end(), 0L);
  std::fill(step_failed_.begin(), step_failed_.end(), char(0));
  std::fill(step_progress_.begin(), step_progress_.end(), std::nan(""));
  probing_ = policy_.probes(step);
  solves_this_step_ = 0;
  step_new_matrices_ = 0;
  std::fill(probe_cost_.begin(), probe_cost_.end(), 0.0);
  std::fill(probe_iterations_.begin(), probe_iterations_.end(), 0L);
  std::fill(step_runs_.begin(), step_runs_.end(), 0L);
  solved_by_ = -1;
  stand_in_ = -1;
  step_probe_seconds_ = 0.0;
}

// Each candidate set up on the first system: one that cannot take it is
// refused here, before the first step writes anything.
void AutopilotSlot::start_up(const BsrMatrix& a, std::span<const double> b, std::span<const double> x0) {
  for (int k = 0; k < int(slots_.size()); ++k) {
    if (policy_.refused(k)) continue;
    const bool in_charge = k == policy_.in_charge();
    const Charge charge(clock_, in_charge ? Account::linear_setup : Account::probe, !in_charge);
    WallTimer t;
    try {
      slots_[std::size_t(k)].refresh(a);
    } catch (const Error& e) {
      refuse(k, e.what());
      continue;
    }
    setup_seconds_[std::size_t(k)] = slots_[std::size_t(k)].solver->setup_seconds();
    if (k == policy_.in_charge()) {
      pending_setup_ = t.seconds();
    } else {
      probe_seconds_ += t.seconds();
      startup_setup_[std::size_t(k)] = t.seconds();
    }
  }
  if (spec_.deterministic && std::isnan(per_iteration_[std::size_t(policy_.in_charge())])) {
    const Charge charge(clock_, Account::probe, true);
    WallTimer t;
    calibrate(a, b, x0);
    probe_seconds_ += t.seconds();
  }
  if (!restored_) pattern_hash_ = hash_of_values(a);
}

// Deterministic mode's costs, measured once: the set-up just done, the best of
// three numeric updates, and the best of three solves from the initial guess
// per iteration.
void AutopilotSlot::calibrate(const BsrMatrix& a, std::span<const double> b, std::span<const double> x0) {
  const std::size_t n = slots_.size();
  std::vector<double> all(3 * n, std::nan(""));
  for (std::size_t k = 0; k < n; ++k) {
    if (policy_.refused(int(k))) continue;
    LinearSolver& s = *slots_[k].solver;
    all[3 * k + 2] = setup_seconds_[k];
    // The best of three, as for the solves: a single timing of an update of
    // microseconds is at the mercy of the machine, and one read too dear makes
    // the candidate's every step after the first look dear (drift, then a
    // probe it loses): the likely cause of
    // AutopilotLoop.MovesToTheCheaperCandidateAndRecordsItsDecisions failing
    // once in 300 runs with a single timing, and in none of 1,500 since.
    double update_best = 1e300;
    for (int rep = 0; rep < 3; ++rep) {
      WallTimer update;
      s.update(a);
      update_best = std::min(update_best, update.seconds());
    }
    all[3 * k + 1] = update_best;
    double best = 1e300;
    int iterations = 1;
    for (int rep = 0; rep < 3; ++rep) {
      x_.assign(x0.begin(), x0.end());
      const SolveStats st = s.solve(b, x_);
      if (st.solve_seconds < best) best = st.solve_seconds, iterations = std::max(1, st.iterations);
    }
    all[3 * k] = best / iterations;
  }
  max_over_ranks(all);
  for (std::size_t k = 0; k < n; ++k) {
    per_iteration_[k] = quantise(all[3 * k]);
    per_update_[k] = quantise(all[3 * k + 1]);
    per_setup_[k] = quantise(all[3 * k + 2]);
  }
}

void AutopilotSlot::track_pattern(const BsrMatrix& a) {
  if (a.row_ptr == pattern_rows_ && a.col_idx == pattern_cols_) return;
  // After a restart the first system re-establishes the pattern: no change.
  if (pattern_rows_.empty() && !restored_) pattern_start_ = step_;
  if (!pattern_rows_.empty()) {
    std::fill(startup_setup_.begin(), startup_setup_.end(), 0.0);  // set up again on the new pattern
    ++pattern_changes_;
    pattern_steps_ += step_ - pattern_start_;
    pattern_start_ = step_;
    pattern_hash_ = hash_of_values(a);
  }
  pattern_rows_ = a.row_ptr;
  pattern_cols_ = a.col_idx;
}

double AutopilotSlot::amortise_steps() const {
  if (pattern_changes_ > 0) return std::max(1.0, double(pattern_steps_) / double(pattern_changes_));
  if (planned_steps_ > 0) return double(std::max(1L, planned_steps_ - pattern_start_ + 1));
  return double(spec_.every);
}

double AutopilotSlot::update_cost(int k, const SolveStats& st) const {
  const auto i = std::size_t(k);
  // Deterministic: a step's first solve is priced with an update wherever
  // values vary (the same after a restart, whose first solve sets up anew);
  // its later solves where they brought values not factored yet.
  if (spec_.deterministic)
    return values_vary_ && (solves_this_step_ <= 1 || slots_[i].last_refresh != Refresh::none) ? per_update_[i] : 0.0;
  return slots_[i].last_refresh == Refresh::numeric ? st.setup_seconds : 0.0;
}

double AutopilotSlot::cost_of(int k, const SolveStats& st) const { return update_cost(k, st) + iteration_cost(k, st); }

double AutopilotSlot::iteration_cost(int k, const SolveStats& st) const {
  return spec_.deterministic ? per_iteration_[std::size_t(k)] * double(st.iterations) : st.solve_seconds;
}

double AutopilotSlot::priced_iterations(int k, const SolveStats& st) const {
  const double cost = iteration_cost(k, st);
  LinearSolver& solver = *slots_[std::size_t(k)].solver;
  // A complete solver (bicgstab_dia, cg_stencil) keeps its own stopping rules.
  if (!spec_.price_to_tolerance || !limit_ok_ || st.reason != StopReason::max_iterations ||
      solver.complete() != nullptr)
    return cost;
  return cost * reach_factor(st);
}

SolveLimit AutopilotSlot::probe_limit(int k, double budget) const {
  const auto i = std::size_t(k);
  if (!std::isfinite(budget)) return {};
  if (!spec_.deterministic) {
    // This process's clock is fair here: a candidate's solve is its rank's own
    // (the autopilot refuses decomposed runs), so ranks may stop it apart.
    return {0, std::max(1e-9, budget - last_update_[i])};
  }
  // Deterministic: iterations priced by the calibration, so that the cut too
  // depends on iteration counts only.
  const double left = budget - (values_vary_ ? per_update_[i] : 0.0);
  if (!(per_iteration_[i] > 0.0) || !std::isfinite(left)) return {};
  return {int(std::clamp(std::ceil(left / per_iteration_[i]), 1.0, 1e9)), 0.0};
}

void AutopilotSlot::cap_iterations(int n) {
  for (SolverSlot& slot : slots_) slot.iteration_cap = n;
}

SolveStats AutopilotSlot::run(int k, const BsrMatrix& a, std::span<const double> b, std::span<double> x,
                              SolveLimit limit) {
  SolverSlot& slot = slots_[std::size_t(k)];
  const SolveStats st = slot.run(a, b, x, limit);
  const auto i = std::size_t(k);
  if (slot.last_refresh == Refresh::symbolic) setup_seconds_[i] = st.setup_seconds;
  if (slot.last_refresh == Refresh::numeric) last_update_[i] = st.setup_seconds;
  step_iterations_[i] += st.iterations;
  ++step_runs_[i];
  // A solve that missed its tolerance where the loop accepts it is no fallback,
  // but the policy must know: its seconds bought a less accurate step (block
  // Jacobi at the NACA 0012's iteration limit looks cheap a step and costs
  // pseudo-steps: 2.69 s of linear time alone against BILU(0)'s 0.70 s).
  // A probe stopped at its limit could not take the charge: no failure, and the
  // system's verdict on an unconverged solve does not apply.
  // The physics' cap (SolverSlot::iteration_cap) is the solve's own limit, as maxit is.
  const bool cut = slot.last_limited && st.reason == StopReason::max_iterations && st.iterations < slot.own_limit();
  last_cut_ = cut;
  // A cut probe's cost is a lower bound as it stands; a solve stopped at its own limit is priced.
  last_update_cost_ = update_cost(k, st);
  last_iteration_cost_ = cut ? iteration_cost(k, st) : priced_iterations(k, st);
  last_cost_ = last_update_cost_ + last_iteration_cost_;
  step_cost_[i] = (std::isnan(step_cost_[i]) ? 0.0 : step_cost_[i]) + last_cost_;
  if (cut) {
    if (step_failed_[i] == 0) step_failed_[i] = AutopilotPolicy::cut_short;
  } else if (!accepted_solve(st, limit_ok_)) {
    step_failed_[i] = AutopilotPolicy::solve_failed;
  } else if (!st.converged() && step_failed_[i] != AutopilotPolicy::solve_failed) {
    step_failed_[i] = AutopilotPolicy::missed_tolerance;
  }
  return st;
}

SolveStats AutopilotSlot::solve(const BsrMatrix& a, std::span<const double> b, std::span<double> x) {
  track_pattern(a);
  if (!started_) {
    start_up(a, b, x);
    started_ = true;
  }
  if (spec_.deterministic && !values_vary_ && hash_of_values(a) != pattern_hash_) values_vary_ = true;
  x0_.assign(x.begin(), x.end());
  // The one in charge lost the start-up race on this step's first solve: the
  // winner takes the step's other solves too (the charge moves at the step's end).
  const int in_charge = stand_in_ >= 0 ? stand_in_ : policy_.in_charge();
  // The probes take the step's first solve only: a step that solves its system
  // several times (tb-comp2d's matrix-free steps: one solve of the same
  // first-order matrix per outer iteration, five or six a step) is priced at
  // that solve's cost per solve (end_step), not probed five times over.
  const bool probe_now = probing_ && solves_this_step_++ == 0;
  const bool first_round = probe_now && policy_.probes_log().empty();
  double cheapest = std::numeric_limits<double>::infinity();  // of this step's probes that converged
  if (probe_now) {
    // Before the solve in charge, as they always ran: measured after one
    // another, the probes and the one in charge share their conditions (run
    // first, the one in charge measured 1.3-1.8x cheaper per iteration than
    // the same solver as a probe on the cylinder, whose data the steps between
    // probes had pushed out of the caches, and kept the charge it should lose).
    // Each probe stops once it has cost what the cheapest finished probe did,
    // or twice the last solve in charge: past that it cannot take the charge,
    // or is far behind, and the rest of its solve would be spent for nothing.
    // The likely cheapest runs first, so that the budget tightens early. The
    // first round has no solve in charge to bound it: its first probe runs to
    // its end, and each later one stops at the cheapest finished. Whether a
    // candidate cut there would have converged is not known, so the policy
    // treats it as one that failed (taking the charge by 2x only): block
    // Jacobi on the NACA 0012, which fails step 1 at its 60 iterations, won
    // later probes by 1.4-1.6x and slowed the run when it took the charge.
    // (No solve in charge has run before the first round: NaN.)
    double budget =
        std::isnan(last_in_charge_cost_) ? std::numeric_limits<double>::infinity() : 2.0 * last_in_charge_cost_;
    const Charge charge(clock_, Account::probe, true);
    WallTimer probes;
    std::fill(probe_accepted_.begin(), probe_accepted_.end(), char(0));
    for (int k : policy_.probe_order()) {
      if (!policy_.probes(step_, k)) continue;
      x_.assign(x0_.begin(), x0_.end());
      const SolveStats p = run(k, a, b, x_, probe_limit(k, budget));
      probe_cost_[std::size_t(k)] = last_iteration_cost_, probe_update_cost_[std::size_t(k)] = last_update_cost_;
      probe_iterations_[std::size_t(k)] = p.iterations;
      if (p.converged()) budget = std::min(budget, cost_of(k, p)), cheapest = std::min(cheapest, cost_of(k, p));
      ask_progress(k, x_);
      const auto i = std::size_t(k);
      if (accepted_solve(p, limit_ok_) && step_failed_[i] != AutopilotPolicy::cut_short) {
        probe_accepted_[i] = 1, probe_stats_[i] = p;
        probe_x_[i].assign(x_.begin(), x_.end());
      }
    }
    step_probe_seconds_ += probes.seconds();
  }
  // A candidate set up at start-up and now in charge on the same pattern: its
  // set-up was not probing but what running it takes (the slot reuses it).
  // A probe's symbolic set-up on a later pattern stays in that step's probe
  // seconds (time_split.autopilot_probes has counted it already).
  const double moved = std::exchange(startup_setup_[std::size_t(in_charge)], 0.0);
  probe_seconds_ -= moved;
  // The start-up round is a race: the one in charge was put there blind, and
  // it stops once it has cost what the cheapest probe did. Cut short, it has
  // lost the charge, and its step is that probe's solution (the fallback
  // below, without solving again): on the NACA 0012 the multicolour solver,
  // started in charge, spent 2.3x BiLU(0)'s solve on step 1. Timed mode cuts
  // on one rank's clock: only where the ranks cannot part (one rank).
  const bool race = first_round && (spec_.deterministic || solver_communicator()->size() == 1);
  SolveStats st = run(in_charge, a, b, x, race ? probe_limit(in_charge, cheapest) : SolveLimit{});
  // A later solve of the step on values the one in charge had not factored: a new matrix.
  if (solves_this_step_ > 1 && slots_[std::size_t(in_charge)].last_refresh != Refresh::none) ++step_new_matrices_;
  last_in_charge_cost_ = cost_of(in_charge, st);
  const bool lost_race = last_cut_;
  st.setup_seconds += pending_setup_ + moved;
  pending_setup_ = 0.0;
  solved_by_ = in_charge;
  if (probe_now) {
    const Charge charge(clock_, Account::probe, true);
    WallTimer asking;
    ask_progress(in_charge, x);
    step_probe_seconds_ += asking.seconds();
  }
  if (accepted_solve(st, limit_ok_) && !lost_race) return st;
  // The one in charge failed: the next candidates take this solve in turn. One
  // that solved it as a probe of this step already has the solution: the same
  // system from the same initial guess with the same solver gives it again.
  // Those go first, the cheapest first.
  std::vector<int> order = policy_.fallback_order();
  if (probe_now)
    std::stable_sort(order.begin(), order.end(), [&](int p, int q) {
      const auto i = std::size_t(p), j = std::size_t(q);
      if (probe_accepted_[i] != probe_accepted_[j]) return probe_accepted_[i] > probe_accepted_[j];
      return probe_accepted_[i] && step_cost_[i] < step_cost_[j];
    });
  for (int k : order) {
    const auto i = std::size_t(k);
    const bool from_probe = probe_now && probe_accepted_[i];
    SolveStats next;
    if (from_probe) {
      std::copy(probe_x_[i].begin(), probe_x_[i].end(), x.begin());
      next = probe_stats_[i];
      next.setup_seconds = next.solve_seconds = 0.0;  // the probe's own seconds are probing, counted there
      ++fallbacks_from_probes_;
    } else {
      std::copy(x0_.begin(), x0_.end(), x.begin());
      next = run(k, a, b, x);
    }
    ++fallbacks_;
    next.setup_seconds += st.setup_seconds;
    next.solve_seconds += st.solve_seconds;
    next.detail = "fallback after " + spec_.candidates[std::size_t(solved_by_)] +
                  (lost_race ? " lost the start-up race" : " failed (" + std::string(to_string(st.reason)) + ")") +
                  (from_probe ? ", the solution of this step's probe" : "") + "; " + next.detail;
    st = std::move(next);
    solved_by_ = k;
    if (accepted_solve(st, limit_ok_)) {
      if (lost_race) stand_in_ = k;
      break;
    }
  }
  return st;
}

void AutopilotSlot::ask_progress(int k, std::span<const double> x) {
  const auto i = std::size_t(k);
  // A probe cut short is no candidate this round; a failed solve's update is not taken.
  if (!spec_.progress || !progress_ || step_failed_[i] == AutopilotPolicy::cut_short ||
      step_failed_[i] == AutopilotPolicy::solve_failed)
    return;
  step_progress_[i] = progress_->progress(x);
}

void AutopilotSlot::end_step(double cfl, double residual_factor) {
  probe_seconds_ += step_probe_seconds_;
  if (std::all_of(step_cost_.begin(), step_cost_.end(), [](double c) { return std::isnan(c); })) return;
  const std::size_t n = step_cost_.size();
  // A probe's solve stands for each of the step's solves it did not run
  // (solve(); a fallback may have run it on some): its iterations for each,
  // and its numeric update for each new matrix among them. The later solves of
  // a matrix-free step take the same matrix, factored once: priced with the
  // update each time, a candidate whose update is dear and solve cheap (a GPU
  // one: the copy to the device and the factorisation there) read 2-3x its
  // cost on the cylinder and never took the charge it should have.
  for (std::size_t k = 0; k < n; ++k) {
    const long missing = solves_this_step_ - step_runs_[k];
    if (probe_iterations_[k] == 0 || missing <= 0) continue;
    const long updates = std::min(missing, step_new_matrices_);
    step_cost_[k] += double(missing) * probe_cost_[k] + double(updates) * probe_update_cost_[k];
    step_iterations_[k] += missing * probe_iterations_[k];
  }
  std::vector<double>& cost = cost_;  // reused: no allocation per step
  cost.assign(step_cost_.begin(), step_cost_.end());
  for (std::size_t k = 0; k < n; ++k)
    if (!std::isnan(cost[k])) cost[k] += (spec_.deterministic ? per_setup_[k] : setup_seconds_[k]) / amortise_steps();
  // All ranks decide from the same numbers: the slowest rank's, and a failure anywhere.
  // The progress too: a probe cut on one rank's clock has none there.
  if (!spec_.deterministic) {
    for (const char failed : step_failed_) cost.push_back(severity(failed));
    cost.insert(cost.end(), step_progress_.begin(), step_progress_.end());
    max_over_ranks(cost);
    for (std::size_t k = 0; k < n; ++k) step_failed_[k] = by_severity[std::size_t(std::lround(cost[n + k]))];
    std::copy_n(cost.begin() + std::ptrdiff_t(2 * n), n, step_progress_.begin());
    cost.resize(n);
  }
  policy_.observe(step_, cost, step_iterations_, step_failed_, cfl, step_progress_, residual_factor,
                  std::max(1L, solves_this_step_));
}

AutopilotReport AutopilotSlot::report() const {
  return {system_,
          spec_,
          refused_,
          per_iteration_,
          per_update_,
          per_setup_,
          policy_.probes_log(),
          policy_.switches(),
          probe_seconds_,
          fallbacks_,
          fallbacks_from_probes_,
          double(krylov_->bytes()) / double(1 << 20),
          policy_.linear_spent() > 0.0 ? policy_.probe_spent() / policy_.linear_spent() : 0.0};
}

std::string AutopilotSlot::save() const {
  std::ostringstream o;
  o << policy_.save() << "slot " << pattern_start_ << " " << pattern_changes_ << " " << pattern_steps_ << " "
    << int(values_vary_) << " " << pattern_hash_ << " " << exact_text(probe_seconds_) << " " << fallbacks_ << " "
    << fallbacks_from_probes_ << " " << exact_text(last_in_charge_cost_) << "\n";
  for (std::size_t k = 0; k < slots_.size(); ++k)
    o << exact_text(per_iteration_[k]) << " " << exact_text(per_update_[k]) << " " << exact_text(per_setup_[k]) << "\n";
  o << refused_.size() << "\n";
  for (const auto& r : refused_) o << r << "\n";
  return o.str();
}

void AutopilotSlot::load(const std::string& text) {
  const auto at = text.find("slot ");
  if (at == std::string::npos) throw Error("autopilot state in the checkpoint is truncated");
  policy_.load(text.substr(0, at));
  std::istringstream in(text.substr(at + 5));
  int vary = 0;
  in >> pattern_start_ >> pattern_changes_ >> pattern_steps_ >> vary >> pattern_hash_;
  values_vary_ = vary != 0;
  probe_seconds_ = read_exact(in);
  in >> fallbacks_ >> fallbacks_from_probes_;
  last_in_charge_cost_ = read_exact(in);
  for (std::size_t k = 0; k < slots_.size(); ++k)
    per_iteration_[k] = read_exact(in), per_update_[k] = read_exact(in), per_setup_[k] = read_exact(in);
  std::size_t n = 0;
  in >> n;
  in.ignore(1);
  refused_.assign(n, {});
  for (auto& r : refused_) std::getline(in, r);
  if (!in) throw Error("autopilot state in the checkpoint is truncated");
  for (int k = 0; k < int(slots_.size()); ++k)
    if (policy_.refused(k)) slots_[std::size_t(k)].solver.reset();
  restored_ = true;
}

}  // namespace tb::systems
