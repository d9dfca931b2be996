#include "autopilot_policy.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "solvers/core/error.hpp"

namespace tb::systems {

AutopilotPolicy::AutopilotPolicy(int candidates, const AutopilotSpec& spec)
    : spec_(spec),
      estimate_(std::size_t(candidates), unknown),
      refused_(std::size_t(candidates), 0),
      interval_(std::size_t(candidates), 1),
      failures_(std::size_t(candidates), 0),
      barred_until_(std::size_t(candidates), 0),
      failed_once_(std::size_t(candidates), 0),
      met_(std::size_t(candidates), 0),
      fresh_(std::size_t(candidates), 0),
      cut_(std::size_t(candidates), 0),
      weight_(std::size_t(candidates), 1.0),
      penalty_(std::size_t(candidates), 1.0),
      in_charge_(spec.start) {}

double AutopilotPolicy::seconds_per_efold() const {
  if (spec_.tenure <= 0 || long(window_cost_.size()) < spec_.tenure) return unknown;
  double cost = 0.0, drop = 0.0;
  for (std::size_t i = 0; i < window_cost_.size(); ++i) cost += window_cost_[i], drop += window_drop_[i];
  return drop > 0.0 ? cost / drop : std::numeric_limits<double>::infinity();
}

void AutopilotPolicy::start_tenure(int from, long step) {
  review_from_ = from;
  review_reference_ = seconds_per_efold();
  review_at_ = step + spec_.tenure;
  window_cost_.clear();
  window_drop_.clear();
}

// The one in charge took the charge `tenure` steps ago as the cheaper a step:
// its seconds per e-fold of residual against those of the one it replaced
// over that one's last `tenure` steps. (NACA 0012: block Jacobi, cheaper a
// step than BiLU(0) on its probe, then took 170 ms of solves per e-fold where
// BiLU(0) had taken 75, its systems growing harder along its own trajectory.)
void AutopilotPolicy::review(long step, double cfl) {
  const int from = review_from_;
  review_from_ = -1;
  const double mine = seconds_per_efold();
  if (!std::isfinite(review_reference_) || std::isnan(mine)) return;   // nothing to compare with
  if (!(mine > (1.0 + spec_.hysteresis) * review_reference_)) return;  // confirmed
  const auto k = std::size_t(in_charge_);
  penalty_[k] = std::isfinite(mine) ? std::min(mine / review_reference_, max_penalty) : max_penalty;
  hand_charge(from, step, "slower", cfl);
}

void AutopilotPolicy::check_first_step(long step, double cost, double cfl) {
  const double bar = std::max(check_price_, check_reference_);
  if (!std::isfinite(cost) || !(bar > 0.0) || !(cost > (1.0 + 2.0 * spec_.hysteresis) * bar)) return;
  const auto k = std::size_t(in_charge_);
  penalty_[k] = std::min(penalty_[k] * cost / check_price_, max_penalty);
  hand_charge(check_from_, step, "dearer", cfl);
}

void AutopilotPolicy::hand_charge(int to, long step, const char* reason, double cfl) {
  switches_.push_back({step + 1, in_charge_, to, reason});
  in_charge_ = to;
  risky_charge_ = failed_once_[std::size_t(to)] != 0;  // the risk leaves with the one that took it
  review_from_ = -1;
  window_cost_.clear();
  window_drop_.clear();
  pending_ = -1;
  confirmations_ = trigger_confirmations_ = 0;
  // The smoothed figures and the drift reference start again from its next step in charge.
  smoothed_ = unknown;
  if (!round_requested()) state_ = State::handed_over;  // a round asked for sets the reference itself
  cfl_low_ = cfl_high_ = cfl;
}

double AutopilotPolicy::progress_weight(double progress, double best) {
  if (!(best < 1.0 - min_progress) || std::isnan(progress)) return 1.0;
  if (!(progress < 1.0)) return max_weight;
  return std::min(std::log(best) / std::log(progress), max_weight);
}

long AutopilotPolicy::trigger_gap() const {
  const long base = std::max(1L, spec_.every / 4);
  return std::min(base << std::min(trigger_confirmations_, 20L), std::max(base, schedule()));
}

long AutopilotPolicy::schedule() const {
  const long doublings = std::clamp(confirmations_ - 1, 0L, 30L);
  return spec_.every * std::min(1L << doublings, spec_.backoff);
}

bool AutopilotPolicy::probes(long step) const {
  return round_requested() || last_probe_ == 0 || (step - last_probe_ >= schedule() && within_budget());
}

bool AutopilotPolicy::within_budget() const {
  double round = 0.0;
  if (std::isfinite(smoothed_))
    for (int k = 0; k < int(estimate_.size()); ++k)
      if (k != in_charge_ && !refused_[std::size_t(k)] && joins_round(k)) round += smoothed_;
  return probe_spent_ + round <= spec_.budget * (linear_spent_ + round);
}

bool AutopilotPolicy::probes(long step, int k) const {
  if (!probes(step) || refused_[std::size_t(k)]) return false;
  return k == in_charge_ || joins_round(k);
}

bool AutopilotPolicy::joins_round(int k) const {
  // A narrow win is confirmed on the winner alone: the others lost that round.
  if (state_ == State::confirming) return k == pending_;
  return last_probe_ == 0 || state_ == State::round_for_all || round_ % interval_[std::size_t(k)] == 0;
}

void AutopilotPolicy::refuse(int candidate) {
  refused_[std::size_t(candidate)] = 1;
  if (candidate != in_charge_) return;
  for (int k = 0; k < int(refused_.size()); ++k)
    if (!refused_[std::size_t(k)]) {
      in_charge_ = k;
      return;
    }
  throw Error("autopilot: every candidate was refused");
}

std::vector<int> AutopilotPolicy::fallback_order() const {
  std::vector<int> order;
  // Three passes: measured and finite by cost, never measured, failed last.
  std::vector<int> rest;
  for (int k = 0; k < int(estimate_.size()); ++k)
    if (k != in_charge_ && !refused_[std::size_t(k)]) rest.push_back(k);
  std::vector<int> finite, never, failed;
  for (int k : rest) {
    const double e = estimate_[std::size_t(k)];
    (std::isnan(e) ? never : std::isfinite(e) ? finite : failed).push_back(k);
  }
  std::stable_sort(finite.begin(), finite.end(),
                   [&](int a, int b) { return estimate_[std::size_t(a)] < estimate_[std::size_t(b)]; });
  for (const auto* v : {&finite, &never, &failed}) order.insert(order.end(), v->begin(), v->end());
  return order;
}

void AutopilotPolicy::decide(long step, bool first) {
  // The cheapest of the candidates measured on this step's systems: an estimate
  // from an earlier probe was taken on other systems (an easier Newton step, a
  // lower CFL) and does not compare. A candidate that failed in charge is not put
  // back for every x 2^(failures - 1) steps: cheap on one probe, it may fail
  // again on the next harder system. One that failed any solve of this run
  // takes the charge from a working one only when cheaper by 2x: on the harder
  // systems ahead it may fail in charge (maxit iterations, then the fallback)
  // or, converging to the same tolerance another way, slow the nonlinear
  // iteration (NACA 0012: block Jacobi, failing alone, won probes by 1.4-1.6x
  // and the run took 72 steps where BiLU(0)'s took 58).
  // One in charge that is barred (it failed in charge) or was cut short (the
  // start-up round's race, AutopilotSlot::solve) holds the charge against no
  // one: the cheapest measured takes it without hysteresis.
  // In a round where no candidate met its tolerance (the miss is the system's
  // norm: tb-comp2d's matrix-free inner solves) a past failure, a miss where
  // another met it, says nothing about these systems: the costs decide as for
  // any candidate. (The cylinder: the device's async BILU missed at step 1,
  // where BiLU(0) met it, and then won the all-missed rounds of steps 6 and
  // 10 by 1.2-1.8x, costing 0.75x BiLU(0) alone, and never took the charge.)
  // Should it miss in charge where another meets its tolerance again, the
  // risk is still priced (risky_charge_, yield_charge).
  const bool two_x = round_met_tolerance();
  const auto k0 = std::size_t(in_charge_);
  const double current = step < barred_until_[k0] || cut_[k0] ? std::numeric_limits<double>::infinity() : estimate_[k0];
  int best = -1;
  for (int k = 0; k < int(estimate_.size()); ++k) {
    const auto i = std::size_t(k);
    const double e = estimate_[i];
    if (refused_[i] || !fresh_[i] || cut_[i] || !std::isfinite(e) || step < barred_until_[i]) continue;
    if (two_x && k != in_charge_ && failed_once_[i] && std::isfinite(current) && !(e <= 0.5 * current)) continue;
    if (best < 0 || e < estimate_[std::size_t(best)]) best = k;
  }
  if (best < 0 || best == in_charge_) {
    pending_ = -1;  // the one in charge won this round: a win before it is not confirmed
    return;
  }
  // Hysteresis: a candidate within the band of the one in charge is noise.
  if (std::isfinite(current) && !(estimate_[std::size_t(best)] < (1.0 - spec_.hysteresis) * current)) {
    pending_ = -1;
    return;
  }
  // A win by less than 2x, measured on one step, is confirmed by a second probe
  // on the next step before the charge moves: one noisy step does not switch.
  // At the start-up round 1.5x will do: the one in charge was put there blind,
  // and a confirmation costs a step of it in charge (it may be the worst).
  const double at_once = first ? 1.0 / 1.5 : 0.5;
  if (std::isfinite(current) && estimate_[std::size_t(best)] > at_once * current && pending_ != best) {
    pending_ = best;
    state_ = State::confirming;
    return;
  }
  pending_ = -1;
  const bool cheaper = std::isfinite(current);
  switches_.push_back({step + 1, in_charge_, best, cheaper ? "cheaper" : cut_[k0] ? "cut" : "failed"});
  if (cheaper && spec_.tenure > 0) {
    start_tenure(in_charge_, step);
    check_from_ = in_charge_, check_price_ = estimate_[std::size_t(best)], check_reference_ = current;
  } else {
    review_from_ = -1, window_cost_.clear(), window_drop_.clear();
  }
  in_charge_ = best;
  risky_charge_ = failed_once_[std::size_t(best)] != 0;
}

bool AutopilotPolicy::round_met_tolerance() const {
  for (std::size_t k = 0; k < met_.size(); ++k)
    if (fresh_[k] && !refused_[k] && met_[k]) return true;
  return false;
}

void AutopilotPolicy::bar(std::size_t k, long step) {
  ++failures_[k];
  barred_until_[k] = step + spec_.every * (1L << std::min(failures_[k] - 1, 10L));
}

bool AutopilotPolicy::yield_charge(long step, double cfl) {
  int best = -1;
  for (int k = 0; k < int(estimate_.size()); ++k) {
    const auto i = std::size_t(k);
    if (k == in_charge_ || refused_[i] || !met_[i] || !std::isfinite(estimate_[i]) || step + 1 < barred_until_[i])
      continue;
    if (best < 0 || estimate_[i] < estimate_[std::size_t(best)]) best = k;
  }
  if (best < 0) return false;
  bar(std::size_t(in_charge_), step);
  estimate_[std::size_t(in_charge_)] = std::numeric_limits<double>::infinity();
  hand_charge(best, step, "missed", cfl);
  return true;
}

void AutopilotPolicy::observe(long step, std::span<const double> cost, std::span<const long> iterations,
                              std::span<const char> failed, double cfl, std::span<const double> progress,
                              double residual_factor, long solves) {
  const int before = in_charge_;
  const bool probing = probes(step);
  // The tenure window: what the one in charge paid this step and how far the step went.
  const auto k0 = std::size_t(before);
  if (spec_.tenure > 0 && residual_factor > 0.0 && std::isfinite(residual_factor) && std::isfinite(cost[k0])) {
    window_cost_.push_back(cost[k0]);
    window_drop_.push_back(-std::log(residual_factor));
    if (long(window_cost_.size()) > spec_.tenure) {
      window_cost_.erase(window_cost_.begin());
      window_drop_.erase(window_drop_.begin());
    }
  }
  observe_costs(step, probing, cost, iterations, failed, cfl, progress, std::max(1L, solves));
  // The newcomer's first step in charge, where it moved the charge no other way.
  if (check_from_ >= 0 && check_from_ != before) {
    if (in_charge_ == before) check_first_step(step, cost[k0], cfl);
    check_from_ = -1;
  }
  // A review falls due on a step that moved the charge no other way.
  if (review_from_ >= 0 && step >= review_at_ && in_charge_ == before) review(step, cfl);
  // What probing has cost, after the decisions (probing was read before them).
  if (std::isfinite(cost[k0])) linear_spent_ += cost[k0];
  for (std::size_t k = 0; probing && k < cost.size(); ++k)
    if (k != k0 && std::isfinite(cost[k])) {
      const double one_solve = cost[k] / double(std::max(1L, solves));
      probe_spent_ += one_solve;
      linear_spent_ += one_solve;
    }
}

void AutopilotPolicy::observe_costs(long step, bool probing, std::span<const double> cost,
                                    std::span<const long> iterations, std::span<const char> failed, double cfl,
                                    std::span<const double> progress, long solves) {
  const auto progress_of = [&](std::size_t k) { return k < progress.size() ? progress[k] : unknown; };
  const auto k0 = std::size_t(in_charge_);
  const bool k0_failed = failed[k0] == solve_failed;
  // Whether a candidate other than k met its tolerance: on this step's systems
  // on a probe step, else at its last probe. A missed tolerance counts as
  // failed only then: the one that missed bought a less accurate step (block
  // Jacobi at the NACA 0012's iteration limit is cheap a step and costs
  // pseudo-steps). When all missed, the miss is the system's norm (tb-comp2d's
  // matrix-free steps stop each inner solve at maxit=10) and the costs decide.
  const auto another_met = [&](std::size_t k) {
    for (std::size_t j = 0; j < estimate_.size(); ++j) {
      if (j == k || refused_[j]) continue;
      if (probing ? !std::isnan(cost[j]) && !failed[j] : met_[j] && std::isfinite(estimate_[j])) return true;
    }
    return false;
  };
  const bool k0_missed_alone = failed[k0] == missed_tolerance && another_met(k0);
  // One that had failed before it took the charge (by the 2x rule) and now
  // misses its tolerance in charge where another met it: the risk that rule priced came true.
  const bool risk_came_true = k0_missed_alone && risky_charge_;
  if (k0_failed || k0_missed_alone) failed_once_[k0] = 1;
  if (k0_failed) bar(k0, step);
  if (probing) {
    const bool first = last_probe_ == 0;  // the start-up round
    // The furthest any update of this round goes: what the weights compare with.
    double best = 1.0;
    for (std::size_t k = 0; k < estimate_.size(); ++k)
      if (!std::isnan(cost[k]) && failed[k] != solve_failed && failed[k] != cut_short && progress_of(k) < best)
        best = progress_of(k);
    for (std::size_t k = 0; k < estimate_.size(); ++k) {
      fresh_[k] = cut_[k] = 0;
      if (refused_[k] || (std::isnan(cost[k]) && !failed[k])) continue;
      const bool missed = failed[k] == missed_tolerance, cut = failed[k] == cut_short;
      const bool counts_failed = failed[k] == solve_failed || (missed && another_met(k));
      weight_[k] = cut ? 1.0 : progress_weight(progress_of(k), best);
      estimate_[k] = counts_failed ? std::numeric_limits<double>::infinity() : weighted(k, cost[k]);
      fresh_[k] = 1;
      cut_[k] = char(cut);
      met_[k] = char(!failed[k]);
      // Cut at the start-up round: not known to converge on the first system
      // within what the cheapest spent (AutopilotSlot::solve): as one that failed.
      if (counts_failed || (cut && first)) failed_once_[k] = 1;
      probes_.push_back({step, int(k), cost[k], iterations[k], counts_failed, cut, missed && !counts_failed,
                         progress_of(k), weighted(k, 1.0)});
    }
    if (risk_came_true) bar(k0, step);
    // Drift, a failure or a CFL change asked for this round; a narrow win's confirmation did not.
    const bool confirming = state_ == State::confirming;
    const bool triggered = !first && round_requested() && !confirming;
    last_probe_ = step;
    state_ = State::holding;
    const int before = in_charge_;
    decide(step, first);
    const auto k1 = std::size_t(in_charge_);
    track_in_charge(in_charge_ != before || first, true,
                    (std::isnan(cost[k1]) ? estimate_[k1] : cost[k1]) / double(solves),
                    double(iterations[k1]) / double(solves), cfl);
    // Back-off: scheduled rounds that keep the one in charge space out; a switch,
    // drift, a failure or a CFL change brings the schedule back to every.
    if (in_charge_ != before || triggered)
      confirmations_ = 0;
    else if (pending_ < 0)
      ++confirmations_;
    // Drift and CFL changes that asked for a round the one in charge kept
    // space out the next such round (trigger_gap): on a CFL ramp every
    // candidate's systems grow harder together, and the matrix-free cylinder
    // asked for a round every other step without a switch.
    if (in_charge_ != before)
      trigger_confirmations_ = 0;
    else if (triggered && pending_ < 0)
      ++trigger_confirmations_;
    // Back off from candidates far behind the one in charge on this step's
    // systems: their probes cost more than they are likely to win. Far is 2x
    // for the runner-up (the likely challenger), 1.5x for the others, and for
    // one that failed (it takes the charge by 2x only, decide()) anything short
    // of a 2x win: on the NACA 0012, block Jacobi and the multicolour solver,
    // cut at the start-up round, won no round by 2x and were probed in each.
    int runner_up = -1;
    for (std::size_t k = 0; k < estimate_.size(); ++k)
      if (fresh_[k] && !cut_[k] && k != k1 && std::isfinite(estimate_[k]) &&
          (runner_up < 0 || estimate_[k] < estimate_[std::size_t(runner_up)]))
        runner_up = int(k);
    const bool two_x = round_met_tolerance();
    for (std::size_t k = 0; k < estimate_.size(); ++k) {
      if (!fresh_[k]) continue;
      const double far = two_x && failed_once_[k] ? 0.5 : int(k) == runner_up ? 2.0 : 1.5;
      const bool far_behind = cut_[k] || !(estimate_[k] <= far * estimate_[k1]);
      interval_[k] = int(k) != in_charge_ && far_behind ? std::min(2 * interval_[k], 8L) : 1;
    }
    if (!confirming) ++round_;  // the rounds that count for the backed-off candidates
    return;
  }
  if (k0_failed) {
    // The step fell back on another candidate; the next step probes them all.
    estimate_[k0] = std::numeric_limits<double>::infinity();
    state_ = State::round_for_all;
    return;
  }
  if (std::isnan(cost[k0])) return;
  // Where another candidate met its tolerance at its last probe, the risky one
  // is barred as one that failed in charge, and the charge goes at once to the
  // cheapest of the last probe, without a probe round (NACA 0012: block Jacobi,
  // failed at step 1, took the charge at step 13 by 2.4x, then missed at steps
  // 14, 16, 18 and 20 and won the probe between on an easier system).
  if (risk_came_true && yield_charge(step, cfl)) return;
  // Drift: the iterations in charge (noise-free) growing by the drift fraction,
  // or its seconds by twice that (the machine's load changed); both smoothed
  // since the one in charge took the charge, so that iterations that swing from
  // step to step (Newton steps of a CFL ramp) do not read as drift.
  track_in_charge(false, false, cost[k0] / double(solves), double(iterations[k0]) / double(solves), cfl);
  if (state_ == State::handed_over) reference_ = smoothed_, reference_its_ = smoothed_its_, state_ = State::holding;
  estimate_[k0] = weighted(k0, smoothed_ * double(solves));
  // Drift and regime changes probe early, but not sooner than a quarter of the
  // schedule after the last probe: a CFL ramp would otherwise probe every step.
  const long since = step + 1 - last_probe_;
  if (since < std::max(1L, spec_.every / 4)) return;
  bool drifted = std::isfinite(reference_) && smoothed_ > (1.0 + 2.0 * spec_.drift) * reference_;
  drifted = drifted || smoothed_its_ > std::max((1.0 + spec_.drift) * reference_its_, reference_its_ + 2.0);
  // A regime change: the CFL number 2x outside the range of the probes since
  // the one in charge took the charge (a CFL that swings within it was probed).
  bool regime = std::isfinite(cfl) && std::isfinite(cfl_low_) && cfl_low_ > 0.0 &&
                (cfl > 2.0 * cfl_high_ || cfl < 0.5 * cfl_low_);
  // A solve in charge stopped at its iteration limit while another candidate
  // met its tolerance at its last probe.
  const bool missed = k0_missed_alone;
  // Drift and regime changes wait out the gap that confirmed triggers have grown.
  if (since < trigger_gap()) drifted = regime = false;
  if (regime) state_ = State::round_for_regime;
  // Drift and a missed tolerance say the one in charge got worse on its own
  // systems, so the candidates backed off against it are probed too. A regime
  // change alone does not: the CFL ramp moves every candidate, and probing the
  // backed-off ones at each of its doublings costs probing time for nothing
  // (docs/autopilot.md, "How it decides").
  if (drifted || missed) state_ = State::round_for_all;
}

void AutopilotPolicy::track_in_charge(bool restart, bool probe, double cost, double iterations, double cfl) {
  if (restart || !std::isfinite(smoothed_)) {
    smoothed_ = cost;
    smoothed_its_ = iterations;
  } else {
    smoothed_ = 0.75 * smoothed_ + 0.25 * cost;
    smoothed_its_ = 0.75 * smoothed_its_ + 0.25 * iterations;
  }
  if (restart) cfl_low_ = cfl_high_ = cfl;
  if (probe && !restart && std::isfinite(cfl)) {
    cfl_low_ = std::isfinite(cfl_low_) ? std::min(cfl_low_, cfl) : cfl;
    cfl_high_ = std::isfinite(cfl_high_) ? std::max(cfl_high_, cfl) : cfl;
  }
  if (probe) reference_ = smoothed_, reference_its_ = smoothed_its_;
}

std::string AutopilotPolicy::save() const {
  std::ostringstream o;
  // The state as the flags it replaced (a round asked for, every candidate, the
  // winner alone; the drift reference to set): checkpoints of either read alike.
  o << "policy " << estimate_.size() << " " << in_charge_ << " " << last_probe_ << " " << int(round_requested()) << " "
    << int(state_ == State::round_for_all) << " " << int(state_ == State::confirming) << " " << exact_text(reference_)
    << " " << exact_text(smoothed_) << " " << exact_text(cfl_low_) << " " << exact_text(cfl_high_) << " " << round_
    << " " << confirmations_ << " " << pending_ << " " << exact_text(reference_its_) << " " << exact_text(smoothed_its_)
    << " " << review_from_ << " " << exact_text(review_reference_) << " " << review_at_ << " "
    << int(state_ == State::handed_over) << " " << int(risky_charge_) << " " << trigger_confirmations_ << " "
    << check_from_ << " " << exact_text(check_price_) << " " << exact_text(check_reference_) << " "
    << window_cost_.size() << "\n";
  for (std::size_t i = 0; i < window_cost_.size(); ++i)
    o << exact_text(window_cost_[i]) << " " << exact_text(window_drop_[i]) << "\n";
  for (std::size_t k = 0; k < estimate_.size(); ++k)
    o << exact_text(estimate_[k]) << " " << int(refused_[k]) << " " << interval_[k] << " " << failures_[k] << " "
      << barred_until_[k] << " " << int(failed_once_[k]) << " " << int(cut_[k]) << " " << int(met_[k]) << " "
      << exact_text(weight_[k]) << " " << exact_text(penalty_[k]) << "\n";
  o << probes_.size() << "\n";
  for (const auto& p : probes_)
    o << p.step << " " << p.candidate << " " << exact_text(p.cost) << " " << p.iterations << " " << int(p.failed) << " "
      << int(p.cut) << " " << int(p.missed) << " " << exact_text(p.progress) << " " << exact_text(p.weight) << "\n";
  o << switches_.size() << "\n";
  for (const auto& s : switches_) o << s.step << " " << s.from << " " << s.to << " " << s.reason << "\n";
  o << "spent " << exact_text(probe_spent_) << " " << exact_text(linear_spent_) << "\n";
  return o.str();
}

void AutopilotPolicy::load(const std::string& text) {
  std::istringstream in(text);
  std::string tag;
  std::size_t n = 0;
  int requested = 0, all = 0, confirm = 0;
  in >> tag >> n >> in_charge_ >> last_probe_ >> requested >> all >> confirm;
  if (tag != "policy" || n != estimate_.size())
    throw Error("autopilot state in the checkpoint is for another candidate list");
  reference_ = read_exact(in), smoothed_ = read_exact(in);
  cfl_low_ = read_exact(in), cfl_high_ = read_exact(in);
  in >> round_ >> confirmations_ >> pending_;
  reference_its_ = read_exact(in), smoothed_its_ = read_exact(in);
  std::size_t window = 0;
  in >> review_from_;
  review_reference_ = read_exact(in);
  int rereference = 0, risky = 0;
  in >> review_at_ >> rereference >> risky >> trigger_confirmations_ >> check_from_;
  check_price_ = read_exact(in), check_reference_ = read_exact(in);
  in >> window;
  risky_charge_ = risky != 0;
  if (confirm != 0)
    state_ = State::confirming;
  else if (requested != 0)
    state_ = all != 0 ? State::round_for_all : last_probe_ == 0 ? State::start_up : State::round_for_regime;
  else
    state_ = rereference != 0 ? State::handed_over : State::holding;
  if (!in || window > 1000000) throw Error("autopilot state in the checkpoint is truncated");
  window_cost_.assign(window, 0.0), window_drop_.assign(window, 0.0);
  for (std::size_t i = 0; i < window; ++i) window_cost_[i] = read_exact(in), window_drop_[i] = read_exact(in);
  for (std::size_t k = 0; k < n; ++k) {
    int r = 0, f = 0, c = 0, m = 0;
    estimate_[k] = read_exact(in);
    in >> r >> interval_[k] >> failures_[k] >> barred_until_[k] >> f >> c >> m;
    refused_[k] = char(r), failed_once_[k] = char(f), cut_[k] = char(c), met_[k] = char(m);
    weight_[k] = read_exact(in);
    penalty_[k] = read_exact(in);
  }
  in >> n;
  probes_.assign(n, {});
  for (auto& p : probes_) {
    int f = 0, c = 0, m = 0;
    in >> p.step >> p.candidate;
    p.cost = read_exact(in);
    in >> p.iterations >> f >> c >> m;
    p.failed = f != 0, p.cut = c != 0, p.missed = m != 0;
    p.progress = read_exact(in), p.weight = read_exact(in);
  }
  in >> n;
  switches_.assign(n, {});
  for (auto& s : switches_) in >> s.step >> s.from >> s.to >> s.reason;
  in >> tag;
  if (!in || tag != "spent") throw Error("autopilot state in the checkpoint is truncated");
  probe_spent_ = read_exact(in), linear_spent_ = read_exact(in);
  if (!in) throw Error("autopilot state in the checkpoint is truncated");
}

}  // namespace tb::systems
