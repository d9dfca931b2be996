// The solver autopilot's decisions (solvers/systems/autopilot_policy.hpp) on
// made-up cost streams, and its specification's text form.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <sstream>

#include "solvers/core/error.hpp"
#include "solvers/systems/autopilot_policy.hpp"

namespace tb {
namespace {

using namespace systems;

const double nan_cost = std::nan("");

// One step of made-up costs: every candidate measured (a probe's view).
struct FakeStep {
  FakeStep(std::vector<double> c, std::vector<char> f = {}, double step_cfl = std::nan(""), std::vector<double> p = {},
           double step_factor = std::nan(""))
      : cost(std::move(c)), failed(std::move(f)), cfl(step_cfl), progress(std::move(p)), factor(step_factor) {}
  std::vector<double> cost;
  std::vector<char> failed;
  double cfl;
  std::vector<double> progress;  // each update's residual factor (empty: the physics cannot tell)
  double factor;                 // the step's residual factor (StepResult::residual_factor)
};

// Feeds the policy what the slot would: the costs of the candidates it probes
// on probe steps, only the in-charge cost otherwise.
void feed(AutopilotPolicy& p, long step, const FakeStep& s) {
  std::vector<double> cost(s.cost.size(), nan_cost);
  std::vector<long> its(s.cost.size(), 0);
  std::vector<char> failed = s.failed.empty() ? std::vector<char>(s.cost.size(), 0) : s.failed;
  std::vector<double> progress(s.progress.size(), nan_cost);
  const bool probing = p.probes(step);
  for (std::size_t k = 0; k < cost.size(); ++k) {
    if (p.probes(step, int(k)) || int(k) == p.in_charge())
      cost[k] = s.cost[k], its[k] = long(100 * s.cost[k]);
    else
      failed[k] = 0;
    if (probing && k < progress.size() && !std::isnan(cost[k])) progress[k] = s.progress[k];
  }
  p.observe(step, cost, its, failed, s.cfl, progress, s.factor);
}

// The schedule alone (budget 1): the tests of the rounds' other rules; the
// budget's own tests set it.
AutopilotSpec spec_of(int start, long every, double hysteresis = 0.15, double budget = 1.0) {
  AutopilotSpec s;
  s.start = start, s.every = every, s.hysteresis = hysteresis, s.budget = budget;
  return s;
}

TEST(AutopilotSpec, ParsesCandidatesAndNamesWhatIsWrong) {
  const AutopilotSpec s = parse_autopilot_spec(
      "autopilot(candidates=[fgmres+bilu0; fgmres+async_bilu(build_sweeps=1,apply_sweeps=3); "
      "gmres+parilut(fill=2)], every=7, hysteresis=0.2, mode=deterministic, start=3)");
  ASSERT_EQ(s.candidates.size(), 3u);
  EXPECT_EQ(s.candidates[1], "fgmres+async_bilu(build_sweeps=1,apply_sweeps=3)");
  EXPECT_EQ(s.every, 7);
  EXPECT_DOUBLE_EQ(s.hysteresis, 0.2);
  EXPECT_TRUE(s.deterministic);
  EXPECT_EQ(s.start, 2);
  EXPECT_TRUE(is_autopilot_spec(" autopilot(candidates=[a;b])"));
  EXPECT_FALSE(is_autopilot_spec("gmres+bilu0"));
  auto message = [](const std::string& text) {
    try {
      parse_autopilot_spec(text);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message("autopilot(candidates=[gmres+bilu0], every=3)").find("at least two"), std::string::npos);
  EXPECT_NE(message("autopilot(candidates=[a;b], every=zero)").find("'every'"), std::string::npos);
  EXPECT_FALSE(s.progress);
  EXPECT_TRUE(parse_autopilot_spec("autopilot(candidates=[a;b], progress=on)").progress);
  EXPECT_NE(message("autopilot(candidates=[a;b], progress=yes)").find("progress 'yes' is not one of on, off"),
            std::string::npos);
  EXPECT_TRUE(s.price_to_tolerance);
  EXPECT_TRUE(parse_autopilot_spec("autopilot(candidates=[a;b], limit_price=tolerance)").price_to_tolerance);
  EXPECT_FALSE(parse_autopilot_spec("autopilot(candidates=[a;b], limit_price=as_run)").price_to_tolerance);
  EXPECT_NE(message("autopilot(candidates=[a;b], limit_price=free)").find("not one of tolerance, as_run"),
            std::string::npos);
  EXPECT_NE(message("autopilot(candidates=[a;b], speed=3)").find("unknown autopilot parameter 'speed'"),
            std::string::npos);
  EXPECT_NE(message("autopilot(candidates=[a;b], mode=fast)").find("timed, deterministic"), std::string::npos);
  EXPECT_NE(message("autopilot(candidates=[a;b], start=3)").find("2 candidates"), std::string::npos);
}

TEST(AutopilotPolicy, PicksTheCheapestAfterTheFirstProbe) {
  AutopilotPolicy p(3, spec_of(0, 10));
  EXPECT_TRUE(p.probes(1));
  feed(p, 1, {{3.0, 1.0, 2.0}});
  EXPECT_EQ(p.in_charge(), 1);
  ASSERT_EQ(p.switches().size(), 1u);
  EXPECT_EQ(p.switches()[0].step, 2);
  EXPECT_EQ(p.switches()[0].from, 0);
  EXPECT_EQ(p.switches()[0].to, 1);
  EXPECT_EQ(p.probes_log().size(), 3u);
  for (long step = 2; step <= 10; ++step) EXPECT_FALSE(p.probes(step)) << step;
  EXPECT_TRUE(p.probes(11));
  // Candidate 1 cost 3x the one in charge: it sits out the next scheduled probe.
  EXPECT_FALSE(p.probes(11, 0));
  EXPECT_TRUE(p.probes(11, 1));
  EXPECT_TRUE(p.probes(11, 2));
  feed(p, 11, {{nan_cost, 1.0, 2.0}});
  EXPECT_TRUE(p.probes(21, 0));
}

TEST(AutopilotPolicy, SwitchesAtTheFirstProbeAfterTheCheapestChanges) {
  AutopilotPolicy p(2, spec_of(0, 10));
  for (long step = 1; step <= 60; ++step) feed(p, step, {{1.0, step <= 30 ? 2.0 : 0.5}});
  ASSERT_EQ(p.switches().size(), 1u);
  EXPECT_EQ(p.switches()[0].step, 32);  // probes at 1, 11, 31 (backed off): the one at 31 sees the change
  EXPECT_EQ(p.in_charge(), 1);
}

// Costs jittered by +-5 % with a fixed-seed generator.
double jitter(unsigned& seed, double cost) {
  seed = seed * 1664525u + 1013904223u;
  return cost * (0.95 + 0.1 * double(seed >> 8) / double(1u << 24));
}

TEST(AutopilotPolicy, HoldsUnderNoiseWithinTheHysteresisAndSwitchesBeyondIt) {
  unsigned seed = 7;
  AutopilotPolicy hold(2, spec_of(0, 3, 0.15));
  for (long step = 1; step <= 300; ++step) feed(hold, step, {{jitter(seed, 1.0), jitter(seed, 0.95)}});
  EXPECT_TRUE(hold.switches().empty());  // 5 % cheaper at best 14 % (0.9025 / 1.05): within the band
  EXPECT_EQ(hold.in_charge(), 0);
  AutopilotPolicy go(2, spec_of(0, 3, 0.15));
  for (long step = 1; step <= 300; ++step) feed(go, step, {{jitter(seed, 1.0), jitter(seed, 0.7)}});
  ASSERT_EQ(go.switches().size(), 1u);  // once there, it stays: 0.7 is never within 15 % of 1.0
  EXPECT_EQ(go.switches()[0].step, 3);  // won by less than 2x at step 1: confirmed by the probe of step 2
}

TEST(AutopilotPolicy, GrowingCostInChargeProbesBeforeTheSchedule) {
  // Whatever the budget: with 10 % the probes are over it from the start-up
  // round on (1.5 of 2.5), and drift still gets its round.
  for (const double budget : {1.0, 0.1}) {
    AutopilotPolicy p(2, spec_of(0, 20, 0.15, budget));
    feed(p, 1, {{1.0, 1.5}});
    long probed = 0;
    for (long step = 2; step <= 20; ++step) {
      if (p.probes(step) && !probed) probed = step;
      feed(p, step, {{step < 5 ? 1.0 : 3.0, 1.5}});
    }
    // Iterations in charge (100 x cost here), smoothed 1/4 a step: 150, 187.5 after
    // steps 5, 6 (> (1 + drift 0.5) x 100).
    EXPECT_EQ(probed, 7) << budget;
    EXPECT_EQ(p.in_charge(), 1) << budget;  // 1.5 is half of 3.0: no confirming probe needed
    EXPECT_EQ(p.switches().at(0).step, 8) << budget;
  }
}

TEST(AutopilotPolicy, ACflRegimeChangeProbes) {
  AutopilotPolicy p(2, spec_of(0, 8));
  feed(p, 1, {{1.0, 2.0}, {}, 1.0});
  feed(p, 2, {{1.0, 2.0}, {}, 1.9});
  EXPECT_FALSE(p.probes(3));
  feed(p, 3, {{1.0, 2.0}, {}, 2.1});
  EXPECT_TRUE(p.probes(4));
  // Not sooner than a quarter of the schedule after the last probe (a CFL ramp).
  AutopilotPolicy slow(2, spec_of(0, 100));
  feed(slow, 1, {{1.0, 2.0}, {}, 1.0});
  for (long step = 2; step <= 24; ++step) {
    feed(slow, step, {{1.0, 2.0}, {}, std::pow(2.0, double(step))});
    EXPECT_FALSE(slow.probes(step + 1)) << step;
  }
  feed(slow, 25, {{1.0, 2.0}, {}, 1e9});
  EXPECT_TRUE(slow.probes(26));
}

TEST(AutopilotPolicy, AFailureInChargeProbesNextAndFallsBackByCost) {
  AutopilotPolicy p(4, spec_of(0, 100));
  feed(p, 1, {{1.0, 3.0, 2.0, 1.5}, {0, 0, 0, 1}});  // candidate 4 failed its probe
  EXPECT_EQ(p.in_charge(), 0);
  EXPECT_EQ(p.fallback_order(), (std::vector<int>{2, 1, 3}));  // by cost, the failed one last
  feed(p, 2, {{1.0, 3.0, 2.0, 1.5}, {1, 0, 0, 0}});
  EXPECT_TRUE(p.probes(3));
  feed(p, 3, {{5.0, 3.0, 2.0, 1.5}, {1, 0, 0, 0}});
  EXPECT_EQ(p.in_charge(), 3);
  EXPECT_EQ(p.switches().back().reason, "failed");
  // Candidate 1 failed in charge at steps 2 and 3: cheapest again, it is barred
  // for every x 2 = 200 steps after the second failure.
  for (long step = 4; step <= 104; ++step) feed(p, step, {{0.1, 3.0, 2.0, 1.5}});
  EXPECT_EQ(p.in_charge(), 3);
  p.refuse(3);
  EXPECT_NE(p.in_charge(), 3);
}

// tb-comp2d's flow accepts a solve stopped at its iteration limit: the one in
// charge that stops there keeps the charge and its cost (no fallback ran, no
// immediate probe of every candidate as after a failure), while a probe that
// stops there cannot take the charge.
TEST(AutopilotPolicy, AToleranceMissedWhereTheSystemAcceptsItIsNoFailureInCharge) {
  constexpr char missed = AutopilotPolicy::missed_tolerance;
  AutopilotPolicy p(2, spec_of(0, 10));
  feed(p, 1, {{1.0, 1.5}});
  feed(p, 2, {{1.0, nan_cost}, {missed, 0}});
  EXPECT_EQ(p.in_charge(), 0);
  EXPECT_TRUE(std::isfinite(p.estimates()[0]));
  feed(p, 11, {{1.0, 0.4}, {0, missed}});  // 2.5x cheaper, but it missed its tolerance
  EXPECT_EQ(p.in_charge(), 0);
  EXPECT_TRUE(std::isinf(p.estimates()[1]));
  // Candidate 1 has failed its probe: a miss in charge asks for no probe.
  feed(p, 14, {{1.0, nan_cost}, {missed, 0}});
  EXPECT_FALSE(p.probes(15)) << "no other candidate met its tolerance when last probed";
  feed(p, 16, {{1.0, nan_cost}, {AutopilotPolicy::solve_failed, 0}});  // a real failure still probes
  EXPECT_TRUE(p.probes(17));
}

// The NACA 0012's CFL ramp: block Jacobi, cheaper a step and converged at a
// low CFL, took the charge; at a higher CFL it stops at its iteration limit
// while BILU(0) still meets the tolerance. The miss asks for a probe round (not
// sooner than every/4 after the last), and there the miss counts as failed.
TEST(AutopilotPolicy, AToleranceMissedInChargeProbesAndYieldsToOneThatMetIt) {
  constexpr char missed = AutopilotPolicy::missed_tolerance;
  AutopilotPolicy p(2, spec_of(1, 20));  // starts with candidate 1 (block Jacobi) in charge
  feed(p, 1, {{1.0, 0.4}});
  ASSERT_EQ(p.in_charge(), 1);
  feed(p, 2, {{nan_cost, 0.4}, {0, missed}});
  EXPECT_FALSE(p.probes(3)) << "not sooner than every/4 = 5 steps after the last probe";
  for (long step = 3; step <= 4; ++step) feed(p, step, {{nan_cost, 0.4}, {0, missed}});
  feed(p, 5, {{nan_cost, 0.4}, {0, missed}});
  ASSERT_TRUE(p.probes(6));
  feed(p, 6, {{1.0, 0.4}, {0, missed}});
  EXPECT_EQ(p.in_charge(), 0);
  EXPECT_TRUE(std::isinf(p.estimates()[1]));
}

// tb-comp2d's matrix-free steps stop each inner solve at maxit=10 by design:
// where no candidate met its tolerance, a miss is no failure and the costs
// (the slot's, priced to the tolerance) decide; nor does it put the 2x rule
// on anyone. (Before: every probe that missed was failed, and the autopilot
// put on async BILU kept the charge for the whole cylinder run, 1.8x BiLU(0)'s
// linear time.)
TEST(AutopilotPolicy, WhereEveryCandidateMissesItsToleranceTheCostsDecide) {
  constexpr char missed = AutopilotPolicy::missed_tolerance;
  AutopilotPolicy q(2, spec_of(0, 20));
  feed(q, 1, {{1.0, 0.4}, {missed, missed}});
  EXPECT_EQ(q.in_charge(), 1);
  ASSERT_EQ(q.probes_log().size(), 2u);
  EXPECT_FALSE(q.probes_log()[1].failed);
  EXPECT_TRUE(q.probes_log()[1].missed);
  // Candidate 0 missed where nobody met: no failure on its record, so it takes
  // the charge back by the hysteresis (0.5 against 0.7 is not 2x), not by 2x.
  for (long step = 2; step <= 20; ++step) feed(q, step, {{1.0, 0.7}, {0, missed}});
  feed(q, 21, {{0.5, 0.7}, {missed, missed}});
  feed(q, 22, {{0.5, 0.7}, {missed, missed}});
  EXPECT_EQ(q.in_charge(), 0);
  // Where one met its tolerance, the one that missed is failed as before.
  AutopilotPolicy r(2, spec_of(0, 20));
  feed(r, 1, {{1.0, 0.4}, {0, missed}});
  EXPECT_EQ(r.in_charge(), 0);
  EXPECT_TRUE(r.probes_log()[1].failed);
}

// The cylinder on a GPU: the device's async BILU misses its tolerance at
// step 1, where BiLU(0) meets it (a failure: the 2x rule), and later every
// candidate stops at its limit. In those rounds the old failure says nothing
// about the systems: a 1.7x win takes the charge as any other would (confirmed
// on the next step). Where the one in charge meets its tolerance again, the
// 2x rule holds.
TEST(AutopilotPolicy, AnOldFailureIsNoBarWhereEveryCandidateMisses) {
  constexpr char missed = AutopilotPolicy::missed_tolerance;
  for (const bool all_miss : {true, false}) {
    SCOPED_TRACE(all_miss ? "every candidate misses" : "the one in charge meets its tolerance");
    AutopilotPolicy p(2, spec_of(0, 4));
    feed(p, 1, {{1.0, 0.9}, {0, missed}});
    ASSERT_EQ(p.in_charge(), 0);
    ASSERT_TRUE(p.probes_log()[1].failed);
    const std::vector<char> now{all_miss ? missed : char(0), missed};
    long step = 2;
    for (; step < 40 && p.in_charge() == 0; ++step) feed(p, step, {{1.0, 0.6}, now});
    if (all_miss) {
      EXPECT_EQ(p.in_charge(), 1);
      ASSERT_EQ(p.switches().size(), 1u);
      // Backed off after its failure, it sat out the rounds of steps 5 and 9;
      // it won the round of step 13 and the confirmation at step 14.
      EXPECT_EQ(p.switches()[0].step, 15);
    } else {
      EXPECT_EQ(p.in_charge(), 0);
      EXPECT_TRUE(p.switches().empty());
    }
  }
}

// Drift is judged per solve: a step solved five or six times (tb-comp2d's
// matrix-free outer iterations, more of them as the CFL grows) costs more a
// step without the one in charge getting worse.
TEST(AutopilotPolicy, MoreSolvesAStepAreNoDrift) {
  AutopilotPolicy p(2, spec_of(0, 40));
  const std::vector<char> none(2, 0);
  for (long step = 1; step <= 30; ++step) {
    const long solves = 1 + step / 3;  // 1 to 11 solves a step, each of 10 iterations costing 1.0
    const bool probing = p.probes(step);
    const std::vector<double> cost{double(solves), probing ? 2.0 * double(solves) : nan_cost};
    const std::vector<long> its{10 * solves, probing ? 20 * solves : 0};
    p.observe(step, cost, its, none, nan_cost, {}, nan_cost, solves);
  }
  EXPECT_EQ(p.probes_log().size(), 2u) << "the start-up round only; the schedule's next is at step 41";
}

TEST(AutopilotPolicy, ARestoredStateRepeatsTheDecisionsExactly) {
  auto stream = [](long step) {
    return FakeStep{
        {1.0 + 0.01 * double(step % 7), step < 20 ? 2.0 : 0.6, step < 40 ? 3.0 : 0.2 + 0.01 * double(step % 3)},
        {},
        1.0 + double(step / 15)};
  };
  AutopilotPolicy whole(3, spec_of(0, 4));
  std::vector<int> charge_whole, charge_split;
  for (long step = 1; step <= 100; ++step) feed(whole, step, stream(step)), charge_whole.push_back(whole.in_charge());
  AutopilotPolicy first(3, spec_of(0, 4));
  for (long step = 1; step <= 25; ++step) feed(first, step, stream(step)), charge_split.push_back(first.in_charge());
  AutopilotPolicy resumed(3, spec_of(0, 4));
  resumed.load(first.save());
  for (long step = 26; step <= 100; ++step)
    feed(resumed, step, stream(step)), charge_split.push_back(resumed.in_charge());
  EXPECT_EQ(charge_whole, charge_split);
  ASSERT_GT(whole.switches().size(), 1u);  // the stream does make it switch
  ASSERT_EQ(whole.switches().size(), resumed.switches().size());
  for (std::size_t i = 0; i < whole.switches().size(); ++i) {
    EXPECT_EQ(whole.switches()[i].step, resumed.switches()[i].step);
    EXPECT_EQ(whole.switches()[i].to, resumed.switches()[i].to);
  }
  ASSERT_EQ(whole.probes_log().size(), resumed.probes_log().size());
  for (std::size_t i = 0; i < whole.probes_log().size(); ++i)
    EXPECT_EQ(whole.probes_log()[i].cost, resumed.probes_log()[i].cost);  // bitwise
  EXPECT_EQ(whole.save(), resumed.save());
}

// The steps on which the policy probes over steps 1..last, fed stream(step).
template <class Stream>
std::vector<long> probe_steps(AutopilotPolicy& p, long last, Stream stream) {
  std::vector<long> out;
  for (long step = 1; step <= last; ++step) {
    if (p.probes(step)) out.push_back(step);
    feed(p, step, stream(step));
  }
  return out;
}

// What parse_autopilot_spec says of a text it refuses ("accepted" if it does not).
std::string spec_error(const std::string& text) {
  try {
    parse_autopilot_spec(text);
  } catch (const Error& e) {
    return e.what();
  }
  return "accepted";
}

TEST(AutopilotPolicy, AScheduledRoundWaitsUntilProbingFitsTheBudget) {
  // In charge 1.0 a step, the other 2.0 (not far enough behind to sit out).
  // After the start-up round the probes have cost 2 of 3. A round at one
  // solve in charge (1.0) fits 10 % once 2 + 1 <= 0.1 (linear + 1): linear
  // 29, which steps 1..27 reach (3 + 26). With the schedule alone: step 6.
  // No back-off, so that the schedule alone would probe 2 of every 7.
  const auto steady = [](long) { return FakeStep{{1.0, 2.0}}; };
  AutopilotSpec every5 = spec_of(0, 5, 0.15, 0.1);
  every5.backoff = 1;
  AutopilotSpec alone_spec = every5;
  alone_spec.budget = 1.0;
  AutopilotPolicy alone(2, alone_spec);
  EXPECT_EQ(probe_steps(alone, 8, steady), (std::vector<long>{1, 6}));
  AutopilotPolicy held(2, every5);
  const std::vector<long> steps = probe_steps(held, 28, steady);
  EXPECT_EQ(steps, (std::vector<long>{1, 28}));
  EXPECT_DOUBLE_EQ(held.probe_spent(), 4.0);  // the candidate's two probes
  EXPECT_DOUBLE_EQ(held.linear_spent(), 32.0);
  // Over a long run probing stays at the budget: each round waits for it
  // (a round priced at 1 costs 2: over by at most 1 / linear just after one).
  for (long step = 29; step <= 2000; ++step) feed(held, step, steady(step));
  EXPECT_LT(held.probe_spent() / held.linear_spent(), 0.1 + 1.0 / held.linear_spent());
  EXPECT_GT(held.probe_spent() / held.linear_spent(), 0.09);
  // And a restored state holds the same rounds back.
  AutopilotPolicy resumed(2, every5);
  resumed.load(held.save());
  for (long step = 2001; step <= 2400; ++step) {
    EXPECT_EQ(resumed.probes(step), held.probes(step)) << step;
    feed(held, step, steady(step)), feed(resumed, step, steady(step));
  }
  EXPECT_EQ(held.save(), resumed.save());
}

TEST(AutopilotPolicy, AFailureProbesWhateverTheBudget) {
  // Drift does too: GrowingCostInChargeProbesBeforeTheSchedule. A failed
  // solve in charge, over the budget: the next step probes.
  AutopilotPolicy f(2, spec_of(0, 20, 0.15, 0.1));
  feed(f, 1, {{1.0, 1.5}});
  feed(f, 2, {{1.0, 1.5}, {1, 0}});
  EXPECT_TRUE(f.probes(3));
  // Budget 0: no scheduled round after the first.
  AutopilotPolicy none(2, spec_of(0, 5, 0.15, 0.0));
  EXPECT_EQ(probe_steps(none, 200, [](long) { return FakeStep{{1.0, 2.0}}; }), (std::vector<long>{1}));
}

// backoff: a positive factor of every; budget: a share of the linear time.
TEST(AutopilotSpec, BackoffAndBudgetHaveTheirDefaultsAndRanges) {
  EXPECT_EQ(parse_autopilot_spec("autopilot(candidates=[a;b], every=5, backoff=4)").backoff, 4);
  EXPECT_EQ(parse_autopilot_spec("autopilot(candidates=[a;b])").backoff, 8);
  EXPECT_DOUBLE_EQ(parse_autopilot_spec("autopilot(candidates=[a;b], budget=0.05)").budget, 0.05);
  EXPECT_DOUBLE_EQ(parse_autopilot_spec("autopilot(candidates=[a;b])").budget, 0.1);
  for (const auto& [text, says] : {std::pair{"backoff=0", "'backoff' = '0' is not a number in [1"},
                                   std::pair{"budget=1.5", "'budget' = '1.5' is not a number in [0"}}) {
    const std::string e = spec_error(std::string("autopilot(candidates=[a;b], ") + text + ")");
    EXPECT_NE(e.find(says), std::string::npos) << e;
  }
}

TEST(AutopilotPolicy, TheScheduleBacksOffWhileTheOneInChargeIsConfirmedAndResetsOnDrift) {
  AutopilotPolicy p(2, spec_of(0, 10));  // backoff 8 (the default)
  // Candidate 2 at 1.5x: never cheaper, never far enough behind to sit out.
  const auto calm = [](long) { return FakeStep{{1.0, 1.5}}; };
  // Intervals 10, 10, 20, 40, 80, then 80 (8 x every).
  EXPECT_EQ(probe_steps(p, 240, calm), (std::vector<long>{1, 11, 31, 71, 151, 231}));
  EXPECT_EQ(p.schedule(), 80);
  EXPECT_TRUE(p.switches().empty());
  // The iterations in charge grow 3x: a drift probe, and the schedule is every again.
  const auto harder = [](long) { return FakeStep{{3.0, 4.0}}; };
  std::vector<long> after;
  for (long step = 241; step <= 270; ++step) {
    if (p.probes(step)) after.push_back(step);
    feed(p, step, harder(step));
  }
  // Smoothed 1/4 a step: 150, 200 after steps 241, 242 (> 1.5 x 100); not
  // sooner than every/4 = 2 steps after the probe of 231.
  ASSERT_FALSE(after.empty());
  EXPECT_EQ(after[0], 243);
  EXPECT_EQ(after.at(1), 253);  // back to every = 10 after the drift probe
  EXPECT_EQ(p.in_charge(), 0);
  // A switch also brings the schedule back to every.
  AutopilotPolicy q(2, spec_of(0, 10));
  const auto flip = [](long step) { return FakeStep{{1.0, step < 100 ? 1.5 : 0.4}}; };
  EXPECT_EQ(probe_steps(q, 200, flip), (std::vector<long>{1, 11, 31, 71, 151, 161, 171, 191}));
  ASSERT_EQ(q.switches().size(), 1u);
  EXPECT_EQ(q.switches()[0].step, 152);
}

TEST(AutopilotPolicy, AWideLoserSitsOutAlternateRoundsAndIsStillProbed) {
  AutopilotSpec spec = spec_of(0, 10);
  spec.backoff = 1;  // a round every 10 steps, so that the rounds are easy to count
  AutopilotPolicy p(3, spec);
  std::vector<long> probed;
  for (long step = 1; step <= 200; ++step) {
    if (p.probes(step, 2) && p.in_charge() != 2) probed.push_back(step);
    // Candidate 3 at 3x the one in charge until step 100, then the cheapest.
    feed(p, step, {{1.0, 1.2, step < 100 ? 3.0 : 0.3}});
  }
  // Every round (1), then every 2nd (21), 4th (41), 8th (81), 8th (161).
  EXPECT_EQ(probed, (std::vector<long>{1, 21, 41, 81, 161}));
  ASSERT_EQ(p.switches().size(), 1u);
  EXPECT_EQ(p.switches()[0].step, 162);  // more than 2x cheaper: at once
  EXPECT_EQ(p.in_charge(), 2);
}

// A drift probe measures the candidates that were sitting out as well: their
// back-off was decided on systems the drift says have changed.
TEST(AutopilotPolicy, ADriftProbeAlsoMeasuresTheCandidatesThatSatOut) {
  AutopilotSpec spec = spec_of(0, 10);
  spec.backoff = 1;
  AutopilotPolicy p(3, spec);
  std::vector<long> probed;
  for (long step = 1; step <= 12; ++step) {
    if (step > 1 && p.probes(step, 2)) probed.push_back(step);
    // Candidate 3 at 3x at step 1 (it sits out the next round); from step 3 the
    // one in charge needs 3x its iterations and candidate 3 is the cheapest.
    feed(p, step, {{step < 3 ? 1.0 : 3.0, 1.2, step < 3 ? 3.0 : 0.5}});
  }
  ASSERT_FALSE(probed.empty());
  EXPECT_EQ(probed.front(), 5);  // the drift probe (backed off, it would have waited for step 21)
  ASSERT_EQ(p.switches().size(), 1u);
  EXPECT_EQ(p.switches()[0].step, 6);  // 6x cheaper: at once
  EXPECT_EQ(p.in_charge(), 2);
  // A CFL regime change moves every candidate: its probe leaves the backed-off one out.
  AutopilotPolicy q(3, spec);
  feed(q, 1, {{1.0, 1.2, 3.0}, {}, 1.0});
  feed(q, 2, {{1.0, 1.2, 3.0}, {}, 3.0});
  EXPECT_TRUE(q.probes(3));
  EXPECT_TRUE(q.probes(3, 1));
  EXPECT_FALSE(q.probes(3, 2));
}

TEST(AutopilotPolicy, ANarrowWinIsConfirmedOnTheWinnerAloneAndOnlyOnTheNextStep) {
  AutopilotPolicy p(3, spec_of(0, 10));
  feed(p, 1, {{1.0, 0.8, 0.9}});  // candidate 2 wins by 20 %: pending
  EXPECT_EQ(p.in_charge(), 0);
  EXPECT_TRUE(p.probes(2));
  EXPECT_TRUE(p.probes(2, 0));
  EXPECT_TRUE(p.probes(2, 1));
  EXPECT_FALSE(p.probes(2, 2));   // lost the round the win was in
  feed(p, 2, {{1.0, 1.1, 0.9}});  // not confirmed: the one in charge won
  EXPECT_EQ(p.in_charge(), 0);
  EXPECT_EQ(p.probes_log().size(), 5u);
  // The win of step 1 does not count for the next round (every = 10 steps
  // after the confirming probe of step 2): a new win is confirmed again rather
  // than taken at once.
  for (long step = 3; step <= 11; ++step) EXPECT_FALSE(p.probes(step)) << step;
  feed(p, 12, {{1.0, 0.8, 0.9}});
  EXPECT_EQ(p.in_charge(), 0);
  EXPECT_TRUE(p.probes(13));
  feed(p, 13, {{1.0, 0.8, 0.9}});
  EXPECT_EQ(p.in_charge(), 1);
  ASSERT_EQ(p.switches().size(), 1u);
  EXPECT_EQ(p.switches()[0].step, 14);
}

TEST(AutopilotPolicy, AnEstimateFromAnEarlierProbeDoesNotTakeTheCharge) {
  AutopilotSpec spec = spec_of(0, 10);
  spec.backoff = 1;
  AutopilotPolicy p(3, spec);
  feed(p, 1, {{1.0, 1.2, 2.5}});  // candidate 3 far behind: it sits out the next round
  EXPECT_FALSE(p.probes(11, 2));
  // Step 11's systems are 3x harder for everyone: candidate 3's 2.5 from step 1
  // looks cheaper than the 3.0 in charge, but was measured on other systems.
  feed(p, 11, {{3.0, 3.6, 7.5}});
  EXPECT_EQ(p.in_charge(), 0);
  EXPECT_FALSE(p.probes(12));  // no confirmation of a win that was not measured
  EXPECT_TRUE(p.switches().empty());
  // The fallback order still uses it (the best guess there is).
  EXPECT_EQ(p.fallback_order(), (std::vector<int>{2, 1}));
}

TEST(AutopilotPolicy, ACandidateThatFailedOnceTakesTheChargeOnlyByTwice) {
  AutopilotPolicy p(3, spec_of(0, 10));
  feed(p, 1, {{1.0, 1.5, 1.2}});
  feed(p, 11, {{1.0, 1.5, 1.2}, {0, 1, 0}});  // candidate 2 fails a probe: it sits out the next round
  EXPECT_FALSE(p.probes(21));
  EXPECT_TRUE(p.probes(31, 1));
  feed(p, 31, {{1.0, 0.6, 1.2}});  // then wins by 1.7x: not enough, and not confirmed
  EXPECT_EQ(p.in_charge(), 0);
  EXPECT_FALSE(p.probes(32));
  EXPECT_TRUE(p.probes(71));
  EXPECT_FALSE(p.probes(71, 1)) << "a win short of 2x by one that failed: far behind, it sits out";
  feed(p, 71, {{1.0, 0.6, 0.7}});  // candidate 3, never failed, wins by 1.4x: confirmed next step
  EXPECT_TRUE(p.probes(72));
  feed(p, 72, {{1.0, 0.6, 0.7}});
  EXPECT_EQ(p.in_charge(), 2);
  long step = 73;
  for (; p.in_charge() == 2 && step < 300; ++step) feed(p, step, {{1.0, 0.3, 0.7}});  // candidate 2 by 2.3x
  EXPECT_EQ(p.in_charge(), 1);
  ASSERT_EQ(p.switches().size(), 2u);
  EXPECT_EQ(p.switches()[0].step, 73);
  EXPECT_EQ(p.switches()[1].step, step) << "at once, at its first round back";
}

// The NACA 0012's block Jacobi: failed its first probe, later won one by 2.5x
// on an easy system and took the charge, then missed its tolerance in charge.
// The risk the 2x rule priced came true: the charge goes back at once, without
// a probe round, and the candidate is barred as one that failed in charge.
TEST(AutopilotPolicy, ACandidateThatFailedBeforeAndMissesInChargeGivesTheChargeBackAtOnce) {
  constexpr char missed = AutopilotPolicy::missed_tolerance;
  AutopilotPolicy p(2, spec_of(0, 20));
  feed(p, 1, {{1.0, 0.8}, {0, missed}});
  long step = 2;
  for (; p.in_charge() == 0 && step < 200; ++step) feed(p, step, {{1.0, 0.4}});  // by 2.5x when probed: at once
  ASSERT_EQ(p.in_charge(), 1);
  feed(p, step, {{nan_cost, 0.4}});
  EXPECT_EQ(p.in_charge(), 1);
  feed(p, ++step, {{nan_cost, 0.4}, {0, missed}});
  EXPECT_EQ(p.in_charge(), 0);
  EXPECT_FALSE(p.probes(step + 1)) << "the estimates of the last round decide";
  ASSERT_EQ(p.switches().size(), 2u);
  EXPECT_EQ(p.switches()[1].step, step + 1);
  EXPECT_EQ(p.switches()[1].reason, "missed");
  // Barred for every = 20 steps: 3x cheaper at a round before then (drift
  // asks for it), it stays out.
  const long barred_until = step + 20;
  feed(p, ++step, {{1.0, nan_cost}});
  for (++step; !p.probes(step) && step < barred_until; ++step) feed(p, step, {{4.0, nan_cost}});
  ASSERT_LT(step, barred_until);
  ASSERT_TRUE(p.probes(step, 1));
  feed(p, step, {{1.0, 0.3}});
  EXPECT_EQ(p.in_charge(), 0);
  // A candidate that had not failed before keeps the charge through a miss.
  AutopilotPolicy q(2, spec_of(0, 20));
  feed(q, 1, {{1.0, 0.4}});
  ASSERT_EQ(q.in_charge(), 1);
  feed(q, 2, {{nan_cost, 0.4}, {0, missed}});
  EXPECT_EQ(q.in_charge(), 1);
}

// The risk belongs to the one in charge: after a tenure review gives the
// charge back from a candidate that had failed before to one that never
// failed, a miss of the latter is an ordinary miss (it keeps the charge).
TEST(AutopilotPolicy, TheRiskOfACandidateLeavesWithItsCharge) {
  constexpr char missed = AutopilotPolicy::missed_tolerance;
  AutopilotSpec spec = spec_of(0, 10);
  spec.tenure = 4;
  AutopilotPolicy p(2, spec);
  const double nan = std::nan("");
  feed(p, 1, {{1.0, 0.8}, {0, missed}, nan, {}, std::exp(-0.2)});
  long step = 2;
  for (; p.in_charge() == 0 && step < 200; ++step) feed(p, step, {{1.0, 0.4}, {}, nan, {}, std::exp(-0.2)});
  ASSERT_EQ(p.in_charge(), 1);  // by 2.5x, having failed: the risky charge
  for (int k = 0; k < 4; ++k, ++step) feed(p, step, {{nan_cost, 0.4}, {}, nan, {}, std::exp(-0.01)});
  ASSERT_EQ(p.in_charge(), 0);
  ASSERT_EQ(p.switches().back().reason, "slower");
  feed(p, step, {{1.0, nan_cost}, {missed, 0}, nan, {}, std::exp(-0.2)});
  EXPECT_EQ(p.in_charge(), 0);
  EXPECT_EQ(p.switches().back().reason, "slower");
}

// A probe cut short where it could no longer take the charge (the slot's
// SolveLimit: the cheapest finished probe's cost or twice the last solve in
// charge): its cost is a lower bound, so it takes no charge, even where that
// bound reads cheaper, is no failure after the start-up round (no 2x rule
// later), and sits out rounds as one far behind.
TEST(AutopilotPolicy, AProbeCutShortIsALowerBoundNotAFailure) {
  const char c = AutopilotPolicy::cut_short;
  AutopilotSpec spec = spec_of(0, 10);
  spec.backoff = 1;
  AutopilotPolicy p(3, spec);
  feed(p, 1, {{1.0, 1.1, 1.2}});  // the start-up round: every probe finished, the one in charge cheapest
  EXPECT_EQ(p.in_charge(), 0);
  feed(p, 11, {{1.0, 0.6, 1.0}, {0, c, c}});  // candidate 2's 0.6 is a bound, not a measurement
  EXPECT_EQ(p.in_charge(), 0);
  EXPECT_TRUE(p.switches().empty());
  EXPECT_FALSE(p.probes(12));  // no win to confirm
  ASSERT_EQ(p.probes_log().size(), 6u);
  EXPECT_TRUE(p.probes_log()[4].cut);
  EXPECT_FALSE(p.probes_log()[4].failed);
  // A full win by 1.7x from then on (the cut ones sit out rounds as far behind): confirmed, then taken (no 2x rule).
  long step = 21;
  for (; p.in_charge() == 0 && step < 100; ++step) feed(p, step, {{1.0, 0.6, 1.0}});
  EXPECT_EQ(p.in_charge(), 1);
  ASSERT_EQ(p.switches().size(), 1u);
  EXPECT_EQ(p.switches()[0].reason, "cheaper");
  // Without the cut flag the same figures take the charge at once.
  AutopilotPolicy q(3, spec);
  feed(q, 1, {{1.0, 0.6, 1.0}});
  EXPECT_EQ(q.in_charge(), 1);
}

// The start-up round cuts its probes too (each at the cheapest finished one's
// cost): whether one cut there converges on the first system is not known, so
// it is treated as one that failed and takes the charge only when cheaper by
// 2x (block Jacobi on the NACA 0012 fails step 1 and wins later probes by
// 1.4-1.6x).
TEST(AutopilotPolicy, OneCutAtTheStartUpRoundTakesTheChargeByTwiceOnly) {
  const char c = AutopilotPolicy::cut_short;
  AutopilotSpec spec = spec_of(0, 10);
  spec.backoff = 1;
  AutopilotPolicy p(3, spec);
  feed(p, 1, {{1.0, 1.0, 1.0}, {0, c, c}});
  EXPECT_EQ(p.in_charge(), 0);
  ASSERT_EQ(p.probes_log().size(), 3u);
  EXPECT_TRUE(p.probes_log()[1].cut);
  EXPECT_FALSE(p.probes(11, 1));  // both sit out a round as far behind
  EXPECT_FALSE(p.probes(11, 2));
  long step = 11;
  for (; step < 100; ++step) feed(p, step, {{1.0, 0.6, 1.0}});  // full wins by 1.7x: not enough
  EXPECT_EQ(p.in_charge(), 0);
  EXPECT_TRUE(p.switches().empty());
  for (; p.in_charge() == 0 && step < 200; ++step) feed(p, step, {{1.0, 0.45, 1.0}});  // by 2.2x
  EXPECT_EQ(p.in_charge(), 1);
  ASSERT_EQ(p.switches().size(), 1u);
  EXPECT_EQ(p.switches()[0].reason, "cheaper");
}

// One that failed takes the charge by 2x only, so a round it does not win by
// 2x is one it could not have won: it sits out the next round as one far
// behind, where a sound one within 1.5x is probed again.
TEST(AutopilotPolicy, OneThatFailedAndCannotWinByTwiceSitsOutTheNextRound) {
  const char failed = AutopilotPolicy::solve_failed;
  AutopilotSpec spec = spec_of(0, 10);
  spec.backoff = 1;
  AutopilotPolicy p(3, spec);
  feed(p, 1, {{1.0, 1.0, 1.0}, {0, failed, 0}});  // candidate 1 fails the start-up round
  EXPECT_FALSE(p.probes(11, 1));                  // failed: it sits out a round
  feed(p, 11, {{1.0, 0.8, 1.2}});
  ASSERT_TRUE(p.probes(21, 1));
  feed(p, 21, {{1.0, 0.8, 1.2}});  // both short of a win; 1 needed 2x
  EXPECT_EQ(p.in_charge(), 0);
  EXPECT_FALSE(p.probes(31, 1)) << "failed, and 0.8x is no 2x win: far behind";
  EXPECT_TRUE(p.probes(31, 2)) << "sound, 1.2x: within 1.5x";
  feed(p, 31, {{1.0, 0.8, 1.2}});
  ASSERT_TRUE(p.probes(41, 1));
  feed(p, 41, {{1.0, 0.4, 1.2}});  // by 2.5x: taken at once
  EXPECT_EQ(p.in_charge(), 1);
}

// progress=on: a cost is weighted by the steps its updates would take against
// the update that went furthest on the same system, ln(best) / ln(factor),
// within [1, 4], and not at all while no update cuts the residual by 1 %.
TEST(AutopilotPolicy, ProgressWeighsACostByTheStepsItsUpdatesWouldTake) {
  EXPECT_DOUBLE_EQ(AutopilotPolicy::progress_weight(0.5, 0.25), 2.0);
  EXPECT_DOUBLE_EQ(AutopilotPolicy::progress_weight(0.25, 0.25), 1.0);
  EXPECT_NEAR(AutopilotPolicy::progress_weight(0.8, 0.5), std::log(0.5) / std::log(0.8), 1e-15);
  EXPECT_DOUBLE_EQ(AutopilotPolicy::progress_weight(0.9, 0.1), 4.0);  // 21.9 steps: capped
  EXPECT_DOUBLE_EQ(AutopilotPolicy::progress_weight(1.3, 0.5), 4.0);  // went back
  EXPECT_DOUBLE_EQ(AutopilotPolicy::progress_weight(std::nan(""), 0.5), 1.0);
  EXPECT_DOUBLE_EQ(AutopilotPolicy::progress_weight(1.2, 0.995), 1.0);  // nobody got anywhere
  EXPECT_DOUBLE_EQ(AutopilotPolicy::progress_weight(1.2, 1.1), 1.0);

  // Cheaper a step by 1.67x but 3.1x the steps: the one in charge stays; the
  // same costs without progress switch at once.
  AutopilotPolicy p(2, spec_of(0, 10));
  feed(p, 1, {{1.0, 0.6}, {}, std::nan(""), {0.5, 0.8}});
  EXPECT_EQ(p.in_charge(), 0);
  ASSERT_EQ(p.probes_log().size(), 2u);
  EXPECT_DOUBLE_EQ(p.probes_log()[0].weight, 1.0);
  EXPECT_NEAR(p.probes_log()[1].weight, std::log(0.5) / std::log(0.8), 1e-15);
  EXPECT_DOUBLE_EQ(p.probes_log()[1].progress, 0.8);
  EXPECT_DOUBLE_EQ(p.probes_log()[1].cost, 0.6);  // the measured cost, unweighted
  EXPECT_NEAR(p.estimates()[1], 0.6 * std::log(0.5) / std::log(0.8), 1e-15);
  AutopilotPolicy q(2, spec_of(0, 10));
  feed(q, 1, {{1.0, 0.6}});
  EXPECT_EQ(q.in_charge(), 1);

  // The other way round: the one in charge is the cheapest a step, but its
  // update goes back (weight 4); the second takes twice the third's steps
  // (weight 2) and wins: 0.5 x 2 against 0.6 x 4 and 3.0 x 1.
  AutopilotPolicy r(3, spec_of(0, 10));
  feed(r, 1, {{0.6, 0.5, 3.0}, {}, std::nan(""), {1.05, 0.5, 0.25}});
  EXPECT_EQ(r.in_charge(), 1);
  // Between probes the one in charge keeps its weight; a restored policy has it too.
  feed(r, 2, {{nan_cost, 0.5, nan_cost}});
  EXPECT_DOUBLE_EQ(r.estimates()[1], 1.0);
  AutopilotPolicy restored(3, spec_of(0, 10));
  restored.load(r.save());
  EXPECT_EQ(restored.save(), r.save());
  EXPECT_DOUBLE_EQ(restored.probes_log()[0].weight, 4.0);
  EXPECT_DOUBLE_EQ(restored.probes_log()[0].progress, 1.05);
}

// The first step in charge: B, priced on A's probe steps at 0.4 a step
// against A's 1.0, takes the charge. A probe counts A's solves a step, and
// where each solve preconditions an outer iteration the one in charge sets
// how many there are: B in charge costs 1.6 a step (NACA 0012 from CFL 1,
// block Jacobi against BiLU(0): 40 outer iterations a step for 10-12,
// docs/harness.md). Dearer than 1.3x A's price, it gives the charge back after
// that one step ("dearer"), and its estimates carry 1.6 / 0.4: the next probe
// at 0.4 reads 1.6 and keeps A. At 0.45 in charge B keeps the charge.
TEST(AutopilotPolicy, ANewcomerDearerInChargeThanItsPriceGivesTheChargeBackAtOnce) {
  for (const double b_in_charge : {1.6, 0.45}) {
    SCOPED_TRACE(b_in_charge);
    AutopilotPolicy p(2, spec_of(0, 4));
    long took = 0;
    for (long step = 1; step <= 30; ++step) {
      const bool b_leads = p.in_charge() == 1;
      feed(p, step, {{1.0, b_leads ? b_in_charge : 0.4}});
      if (p.in_charge() == 1 && took == 0) took = step + 1;
    }
    ASSERT_GT(took, 0);
    ASSERT_GE(p.switches().size(), 1u);
    EXPECT_EQ(p.switches()[0].reason, "cheaper");
    if (b_in_charge < 1.0) {
      EXPECT_EQ(p.in_charge(), 1);
      EXPECT_EQ(p.switches().size(), 1u);
      continue;
    }
    ASSERT_EQ(p.switches().size(), 2u) << "B took the charge once, and never again";
    EXPECT_EQ(p.switches()[1].reason, "dearer");
    EXPECT_EQ(p.switches()[1].step, took + 1) << "after one step in charge";
    EXPECT_EQ(p.in_charge(), 0);
    EXPECT_NEAR(p.probes_log().back().weight, 4.0, 1e-12);
  }
}

// The tenure review: B, cheaper a step than A on the probes, takes the charge;
// after `tenure` steps its seconds per e-fold of residual are compared with
// A's over A's last `tenure` steps. Slower by more than the hysteresis, the
// charge goes back with the reason "slower" and B's estimates carry the
// ratio, so the next probe keeps A; as fast, B keeps it.
TEST(AutopilotPolicy, ATenureReviewGivesTheChargeBackWhenTheNewOneMakesLessHeadway) {
  for (const double b_drop : {0.05, 0.2}) {
    AutopilotSpec spec = spec_of(0, 10);
    spec.tenure = 4;
    AutopilotPolicy p(2, spec);
    const double nan = std::nan("");
    for (long step = 1; step <= 10; ++step) feed(p, step, {{1.0, 1.5}, {}, nan, {}, std::exp(-0.2)});
    feed(p, 11, {{1.0, 0.6}, {}, nan, {}, std::exp(-0.2)});  // B by 1.67x: confirmed on the next step
    feed(p, 12, {{1.0, 0.6}, {}, nan, {}, std::exp(-0.2)});
    ASSERT_EQ(p.in_charge(), 1);
    // A: 4 s for 0.8 e-folds, 5 s per e-fold. B: 2.4 s for 0.2 (12 s), or for 0.8 (3 s).
    for (long step = 13; step <= 16; ++step) feed(p, step, {{nan_cost, 0.6}, {}, nan, {}, std::exp(-b_drop)});
    if (b_drop == 0.2) {
      EXPECT_EQ(p.in_charge(), 1) << "as fast: B keeps the charge";
      EXPECT_EQ(p.switches().size(), 1u);
      continue;
    }
    ASSERT_EQ(p.in_charge(), 0);
    ASSERT_EQ(p.switches().size(), 2u);
    EXPECT_EQ(p.switches()[1].step, 17);
    EXPECT_EQ(p.switches()[1].reason, "slower");
    for (long step = 17; step <= 21; ++step) feed(p, step, {{1.0, nan_cost}, {}, nan, {}, std::exp(-0.2)});
    ASSERT_TRUE(p.probes(22, 1));
    feed(p, 22, {{1.0, 0.6}, {}, nan, {}, std::exp(-0.2)});  // 0.6 x 2.4 against 1.0
    EXPECT_EQ(p.in_charge(), 0);
    EXPECT_FALSE(p.probes(23)) << "no narrow win to confirm";
    EXPECT_NEAR(p.probes_log().back().weight, 2.4, 1e-12);
    AutopilotPolicy restored(2, spec);
    restored.load(p.save());
    EXPECT_EQ(restored.save(), p.save());
  }
}

TEST(AutopilotPolicy, OnlyTheRunnerUpIsProbedUpToTwiceTheCostTheOthersUpToOneAndAHalf) {
  AutopilotSpec spec = spec_of(0, 10);
  spec.backoff = 1;
  AutopilotPolicy p(4, spec);
  feed(p, 1, {{1.0, 1.6, 1.8, 1.4}});  // runner-up: candidate 4 (1.4x)
  EXPECT_TRUE(p.probes(11, 3));
  EXPECT_FALSE(p.probes(11, 1));  // 1.6x and 1.8x, not the runner-up: they sit out a round
  EXPECT_FALSE(p.probes(11, 2));
  feed(p, 11, {{1.0, nan_cost, nan_cost, 1.4}});
  EXPECT_TRUE(p.probes(21, 1));
  EXPECT_TRUE(p.probes(21, 2));
  AutopilotPolicy q(3, spec);
  feed(q, 1, {{1.0, 1.9, 2.5}});  // the runner-up at 1.9x is probed on
  EXPECT_TRUE(q.probes(11, 1));
  EXPECT_FALSE(q.probes(11, 2));
}

TEST(AutopilotPolicy, TheStartUpRoundSwitchesAtOnceFromOneAndAHalfTimes) {
  AutopilotPolicy p(2, spec_of(0, 10));
  feed(p, 1, {{1.0, 0.6}});  // 1.67x at the start-up round: at once
  ASSERT_EQ(p.switches().size(), 1u);
  EXPECT_EQ(p.switches()[0].step, 2);
  EXPECT_FALSE(p.probes(2));
  feed(p, 11, {{0.6, 1.0}});  // later 1.67x is confirmed first
  EXPECT_EQ(p.in_charge(), 1);
  EXPECT_TRUE(p.probes(12));
  feed(p, 12, {{0.6, 1.0}});
  EXPECT_EQ(p.in_charge(), 0);
  EXPECT_EQ(p.switches().back().step, 13);
  // Below 1.5x the start-up round waits for the confirmation too.
  AutopilotPolicy q(2, spec_of(0, 10));
  feed(q, 1, {{1.0, 0.7}});
  EXPECT_EQ(q.in_charge(), 0);
  EXPECT_TRUE(q.probes(2));
}

TEST(AutopilotPolicy, ACflSwingingWithinTheProbedRangeDoesNotProbe) {
  AutopilotPolicy p(2, spec_of(0, 8));
  const auto stream = [](long step) {
    const double cfl = step <= 2 ? 100.0 : step <= 4 ? 40.0 : step <= 20 ? (step % 2 ? 45.0 : 190.0) : 400.0;
    return FakeStep{{1.0, 2.0}, {}, cfl};
  };
  // 1: the start-up (CFL 100); 4: the CFL fell to 40 at step 3, below 100 / 2;
  // 12 and 20: scheduled, the CFL swinging between 45 and 190 meanwhile (inside
  // the probed range [40, 100], then [40, 190], widened by 2x each way); 24:
  // 400 from step 21 is above 2 x 190, and the round waits out the gap of 4
  // steps that the round at step 4 (a CFL change the one in charge kept) set.
  EXPECT_EQ(probe_steps(p, 24, stream), (std::vector<long>{1, 4, 12, 20, 24}));
}

// A CFL ramp asks for a round at each doubling; each such round the one in
// charge keeps doubles the gap to the next (every / 4 = 2, then 4, then 8,
// the schedule), and a switch brings it back to every / 4.
TEST(AutopilotPolicy, TriggeredRoundsThatKeepTheChargeSpaceOutTheNext) {
  AutopilotPolicy p(2, spec_of(0, 8));
  const auto stream = [](long step) { return FakeStep{{1.0, step < 20 ? 2.0 : 0.3}, {}, std::pow(2.0, double(step))}; };
  // The CFL doubles each step; a round asked at a step's end probes the next.
  // 4: CFL 8 is above 2 x 2 (step 1's); 8 and 16: gaps of 4, then 8 (also the
  // schedule); 24 switches (0.3 against 1.0: at once); 27: CFL 2^26 is above 2
  // x 2^24 (the new one in charge's first), and the gap is 2 again.
  EXPECT_EQ(probe_steps(p, 27, stream), (std::vector<long>{1, 4, 8, 16, 24, 27}));
  EXPECT_EQ(p.in_charge(), 1);
}

TEST(AutopilotPolicy, IterationsThatSwingFromStepToStepAreNotDrift) {
  AutopilotPolicy p(2, spec_of(0, 40));
  // 100 and 300 iterations on alternate steps (a Newton solve's easy and hard
  // steps), the other candidate always 1.5x.
  const auto stream = [](long step) {
    const double c = step % 2 ? 1.0 : 3.0;
    return FakeStep{{c, 1.5 * c}};
  };
  const std::vector<long> probed = probe_steps(p, 200, stream);
  // One drift probe while the smoothing catches up from step 1's low count
  // (11, every/4 after the first), then the schedule: 51, 91, then 20 x 2.
  EXPECT_EQ(probed, (std::vector<long>{1, 11, 51, 91, 171}));
}

}  // namespace
}  // namespace tb
