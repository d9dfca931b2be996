// The time-loop harness: case files, the command line, shadow solves on
// identical systems, checkpoint/restart equality, independent A/B runs, dumps.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

#include "decay_simulation.hpp"
#include "miniapps/common/case_config.hpp"
#include "miniapps/common/rank_counts.hpp"
#include "miniapps/common/solver_check.hpp"
#include "miniapps/common/time_loop.hpp"
#include "refused_run.hpp"
#include "run_files.hpp"
#include "solvers/core/error.hpp"
#include "solvers/factory/registry.hpp"
#include "solvers/matrix/matrix_market.hpp"
#include "solvers/systems/solver_slot.hpp"

namespace tb {
namespace {

namespace fs = std::filesystem;
using namespace harness;

fs::path fresh_dir(const std::string& name) { return test::fresh_dir("tb-harness", name); }

using test::read_csv;

std::size_t column(const std::vector<std::string>& header, const std::string& name) {
  for (std::size_t i = 0; i < header.size(); ++i)
    if (header[i] == name) return i;
  ADD_FAILURE() << "no column " << name;
  return 0;
}

MiniappDescription decay_app(test::DecaySimulation** last = nullptr) {
  MiniappDescription app;
  app.name = "tb-decay";
  app.summary = "test simulation";
  app.systems = {"heat"};
  app.declare_keys = [](CaseSchema& s) {
    s.add({"solver.heat", KeyType::text, "gmres(rtol=1e-10)+bilu0", "solver of the implicit step"});
    s.add({"physics.nx", KeyType::integer, "5", "cells in x"});
    s.add({"physics.steady_tol", KeyType::real, "0", "stop when max |du| is below"});
    s.add({"physics.fail_at_step", KeyType::integer, "0", "step that throws StepFailure"});
    s.add({"physics.grow_from", KeyType::integer, "0", "step from which the state grows"});
    s.add({"physics.growth", KeyType::real, "1", "factor per step from physics.grow_from"});
    s.add({"physics.must_converge", KeyType::boolean, "false", "reaching run.steps unconverged fails"});
  };
  app.make = [last](const CaseConfig& c) {
    auto sim = std::make_unique<test::DecaySimulation>(index_t(c.integer("physics.nx")));
    sim->steady_tol = c.real("physics.steady_tol");
    sim->fail_at_step = c.integer("physics.fail_at_step");
    sim->grow_from = c.integer("physics.grow_from");
    sim->growth = c.real("physics.growth");
    sim->converge = c.boolean("physics.must_converge");
    if (last) *last = sim.get();
    return sim;
  };
  return app;
}

LoopSettings settings(const fs::path& out, long steps) {
  return test::quiet_settings("tb-decay", out, steps, {{"heat", "gmres(rtol=1e-10)+bilu0"}});
}

TEST(CaseConfig, DefaultsFileAndOverrides) {
  const CaseSchema schema = make_schema(decay_app());
  CaseConfig c(schema);
  EXPECT_EQ(c.integer("run.steps"), 100);
  const fs::path dir = fresh_dir("cfg");
  fs::create_directories(dir);
  std::ofstream(dir / "case.toml") << "# comment\n[run]\nsteps = 7\n\n[solver]\nheat = \"cg+jacobi\"\n";
  c.load_toml((dir / "case.toml").string());
  EXPECT_EQ(c.integer("run.steps"), 7);
  EXPECT_EQ(c.text("solver.heat"), "cg+jacobi");
  c.set("physics.steady_tol", "1e-3");
  EXPECT_DOUBLE_EQ(c.real("physics.steady_tol"), 1e-3);
  // The effective configuration reads back to the same values.
  std::ofstream(dir / "effective.toml") << c.to_toml();
  CaseConfig back(schema);
  back.load_toml((dir / "effective.toml").string());
  EXPECT_EQ(back.to_toml(), c.to_toml());
  fs::remove_all(dir);
}

TEST(CaseConfig, ErrorsNameFileLineAndNearestKey) {
  const CaseSchema schema = make_schema(decay_app());
  CaseConfig c(schema);
  const fs::path dir = fresh_dir("cfgerr");
  fs::create_directories(dir);
  const std::string path = (dir / "bad.toml").string();
  auto error_of = [&](const std::string& text) -> std::string {
    std::ofstream(path) << text;
    try {
      CaseConfig fresh(schema);
      fresh.load_toml(path);
    } catch (const Error& e) {
      return e.what();
    }
    return "no error";
  };
  std::string e = error_of("[run]\nsteps = 3\nstpes = 4\n");
  EXPECT_NE(e.find("bad.toml:3"), std::string::npos) << e;
  EXPECT_NE(e.find("did you mean 'run.steps'"), std::string::npos) << e;
  e = error_of("[run]\nsteps = \"many\"\n");
  EXPECT_NE(e.find("bad.toml:2"), std::string::npos) << e;
  EXPECT_NE(e.find("must be an integer"), std::string::npos) << e;
  e = error_of("[run\nsteps = 3\n");
  EXPECT_NE(e.find("bad.toml:1"), std::string::npos) << e;
  EXPECT_THROW(c.set("run.steps", "x"), Error);
  EXPECT_THROW(c.set("physics.nz", "3"), Error);
  fs::remove_all(dir);
}

TEST(CommandLine, OptionsAndErrors) {
  const char* argv[] = {"tb-decay",       "case.toml", "--out",    "d",  "--set", "a.b=1",
                        "--steps",        "5",         "--shadow", "cg", "--ab",  "heat=bicgstab(rtol=1e-3)",
                        "--dump-systems", "2,4"};
  const RunOptions o = parse_command_line(14, argv);
  EXPECT_EQ(o.case_file, "case.toml");
  EXPECT_EQ(o.out_dir, "d");
  ASSERT_EQ(o.sets.size(), 1u);
  EXPECT_EQ(*o.steps, 5);
  EXPECT_EQ(o.dump_steps, (std::vector<long>{2, 4}));
  const StudySpec s = parse_study_spec(o.ab[0], {"heat"});
  EXPECT_EQ(s.system, "heat");
  EXPECT_EQ(s.spec, "bicgstab(rtol=1e-3)");
  EXPECT_EQ(parse_study_spec("gmres(restart=5)", {"heat"}).system, "");
  EXPECT_THROW(parse_study_spec("pressure=cg", {"heat"}), Error);
  const char* bad1[] = {"x", "--stesp", "3"};
  EXPECT_THROW(parse_command_line(3, bad1), Error);
  const char* bad2[] = {"x", "--steps"};
  EXPECT_THROW(parse_command_line(2, bad2), Error);
  const char* bad3[] = {"x", "--steps", "-1"};
  EXPECT_THROW(parse_command_line(3, bad3), Error);
}

TEST(TimeLoop, ShadowsSolveTheDriversSystems) {
  const fs::path out = fresh_dir("shadow");
  test::DecaySimulation sim;
  CaseConfig config(make_schema(decay_app()));
  LoopSettings s = settings(out, 6);
  s.shadows = {{"", "bicgstab(rtol=1e-10)+jacobi"}, {"heat", "cg(rtol=1e-6)"}};
  const RunResult r = run_time_loop(sim, config, s);
  EXPECT_EQ(r.last_step, 6);
  const auto driver = read_csv(out / "steps.csv");
  ASSERT_EQ(driver.size(), 7u);
  for (int k = 1; k <= 2; ++k) {
    const auto shadow = read_csv(out / ("shadow-" + std::to_string(k) + ".csv"));
    ASSERT_EQ(shadow.size(), 7u);
    const std::size_t cd = column(driver[0], "heat:checksum"), cs = column(shadow[0], "heat:checksum");
    for (std::size_t i = 1; i < driver.size(); ++i) EXPECT_EQ(driver[i][cd], shadow[i][cs]) << "step " << i;
    // Different checksums from step to step: the systems really change.
    EXPECT_NE(driver[1][cd], driver[2][cd]);
  }
  EXPECT_EQ(r.totals.at("driver/heat").solves, 6);
  EXPECT_EQ(r.totals.at("shadow1/heat").solves, 6);
  EXPECT_EQ(r.totals.at("driver/heat").failures, 0);
  EXPECT_TRUE(fs::exists(out / "summary.json"));
  EXPECT_TRUE(fs::exists(out / "case.toml"));
  fs::remove_all(out);
}

TEST(TimeLoop, RestartGivesTheUninterruptedResultBitwise) {
  const fs::path whole = fresh_dir("whole"), split = fresh_dir("split");
  CaseConfig config(make_schema(decay_app()));
  test::DecaySimulation a;
  LoopSettings whole_settings = settings(whole, 10);
  whole_settings.checksums = true;
  run_time_loop(a, config, whole_settings);

  // A run that stops in step 8 (made to fail, as a killed run would), with
  // checkpoints every 3 steps...
  LoopSettings s = settings(split, 10);
  s.checksums = true;  // restart verification: the systems of the last step are the same bits
  s.checkpoint_every = 3;
  test::DecaySimulation b1;
  b1.fail_at_step = 8;
  ASSERT_EQ(run_time_loop(b1, config, s).last_step, 7);
  ASSERT_EQ(read_csv(split / "steps.csv").size(), 8u);
  // ...resumes from step 6, dropping the row of step 7, and finishes.
  s.restart = true;
  test::DecaySimulation b2;
  const RunResult r = run_time_loop(b2, config, s);
  EXPECT_EQ(r.last_step, 10);
  ASSERT_EQ(a.state().size(), b2.state().size());
  for (std::size_t i = 0; i < a.state().size(); ++i) ASSERT_EQ(a.state()[i], b2.state()[i]) << "entry " << i;
  const auto rows = read_csv(split / "steps.csv");
  ASSERT_EQ(rows.size(), 11u);
  for (std::size_t i = 1; i < rows.size(); ++i) EXPECT_EQ(rows[i][0], std::to_string(i));
  // Same figures in the last row, timings aside.
  const auto whole_rows = read_csv(whole / "steps.csv");
  for (const char* col : {"step", "time", "dt", "res:du", "heat:iterations", "heat:reason", "heat:checksum"}) {
    const std::size_t c = column(rows[0], col);
    EXPECT_EQ(whole_rows.back()[c], rows.back()[c]) << col;
  }
  EXPECT_EQ(r.totals.at("driver/heat").solves, 10);
  fs::remove_all(whole);
  fs::remove_all(split);
}

// steps.csv ends each row with the step's device launches: none on the host.
TEST(TimeLoop, EachRowCountsTheStepsDeviceLaunches) {
  const fs::path out = fresh_dir("launches");
  CaseConfig config(make_schema(decay_app()));
  test::DecaySimulation sim;
  run_time_loop(sim, config, settings(out, 3));
  const auto rows = read_csv(out / "steps.csv");
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_EQ(rows[0].back(), "launches");
  for (std::size_t i = 1; i < rows.size(); ++i) EXPECT_EQ(rows[i].back(), "0") << "step " << i;
  fs::remove_all(out);
}

// A step that solves its system several times (tb-comp2d's matrix-free steps:
// once per outer iteration, more as the CFL grows) keeps one set of columns:
// the header holds for every row, with the count, the iterations and seconds
// summed, and one checksum over the step's solves. (Before, each further
// solve added "heat#2", "heat#3"... columns to its row only, past the header.)
TEST(TimeLoop, AStepOfSeveralSolvesKeepsOneSetOfColumns) {
  const fs::path out = fresh_dir("folded");
  CaseConfig config(make_schema(decay_app()));
  test::DecaySimulation sim;
  sim.more_solves_each_step = 1;  // step k solves k times
  LoopSettings s = settings(out, 3);
  s.checksums = true;
  const RunResult r = run_time_loop(sim, config, s);
  const auto rows = read_csv(out / "steps.csv");
  ASSERT_EQ(rows.size(), 4u);
  for (const auto& row : rows) EXPECT_EQ(row.size(), rows[0].size());
  const std::size_t solves = column(rows[0], "heat:solves"), its = column(rows[0], "heat:iterations");
  const std::size_t cks = column(rows[0], "heat:checksum");
  long iterations = 0;
  for (long k = 1; k <= 3; ++k) {
    EXPECT_EQ(rows[std::size_t(k)][solves], std::to_string(k));
    iterations += std::stol(rows[std::size_t(k)][its]);
    EXPECT_EQ(rows[std::size_t(k)][cks].size(), 16u);
  }
  EXPECT_EQ(r.totals.at("driver/heat").solves, 6);
  EXPECT_EQ(iterations, r.totals.at("driver/heat").iterations);
  for (const auto& h : rows[0]) EXPECT_EQ(h.find('#'), std::string::npos) << h;
  fs::remove_all(out);
}

// Without shadows, dumps or run.checksums no checksum is computed: the column
// says "-" (hashing every system costs a noticeable share of a small step,
// docs/harness.md).
TEST(TimeLoop, ChecksumsOnlyWhereAResultUsesThem) {
  const fs::path off = fresh_dir("cks-off"), on = fresh_dir("cks-on");
  CaseConfig config(make_schema(decay_app()));
  test::DecaySimulation a, b;
  run_time_loop(a, config, settings(off, 2));
  LoopSettings s = settings(on, 2);
  s.checksums = true;
  run_time_loop(b, config, s);
  const auto rows_off = read_csv(off / "steps.csv"), rows_on = read_csv(on / "steps.csv");
  const std::size_t c = column(rows_off[0], "heat:checksum");
  EXPECT_EQ(rows_off[1][c], "-");
  EXPECT_EQ(rows_on[1][c].size(), 16u);
  EXPECT_NE(rows_on[1][c], rows_on[2][c]);
  fs::remove_all(off);
  fs::remove_all(on);
}

// A state that grows by 10^3 per step from step 8 passes the growth bound
// (10^6 times its largest value in steps 1-5) within a few steps: the run stops
// there, names the step and the quantity, leaves the last good state in
// fields/ and is not steady.
TEST(TimeLoop, AGrowingStateStopsTheRunAndLeavesTheLastGoodState) {
  const fs::path out = fresh_dir("grow");
  CaseConfig config(make_schema(decay_app()));
  test::DecaySimulation sim;
  sim.grow_from = 8;
  sim.growth = 1e3;
  LoopSettings s = settings(out, 40);
  const RunResult r = run_time_loop(sim, config, s);
  EXPECT_FALSE(r.steady);
  ASSERT_FALSE(r.stop_reason.empty());
  EXPECT_NE(r.stop_reason.find("has grown past"), std::string::npos) << r.stop_reason;
  EXPECT_NE(r.stop_reason.find("step " + std::to_string(r.last_step + 1) + ":"), std::string::npos) << r.stop_reason;
  // Steps 8 and 9 grow the state 10^6-fold over its size in steps 1-5 at most:
  // the stop comes at step 10 or 11 (the residual of step 10 already jumps).
  EXPECT_GE(r.last_step, 8);
  EXPECT_LE(r.last_step, 10);
  std::ifstream last(out / "fields" / ("u_" + std::to_string(r.last_step) + ".txt"));
  ASSERT_TRUE(last.good()) << "no fields for the last good step " << r.last_step;
  double v = 0.0, largest = 0.0;
  while (last >> v) largest = std::max(largest, std::abs(v));
  EXPECT_GT(largest, 0.0);
  EXPECT_LT(largest, 1e9);  // the last good state, not the blown-up one
  EXPECT_FALSE(fs::exists(out / "fields" / ("u_" + std::to_string(r.last_step + 1) + ".txt")));
  fs::remove_all(out);
}

// A simulation that keeps its last good state itself (Simulation::keep_state,
// as tb-incomp's device-resident step does) is never asked for save_state's
// bytes after the first step, and leaves the same last good state as one that
// is: the same step, the same values to the bit.
TEST(TimeLoop, AStateKeptByTheSimulationLeavesTheSameLastGoodState) {
  std::string fields[2];
  long last_step[2] = {0, 0}, saves[2] = {0, 0};
  for (int keeps = 0; keeps < 2; ++keeps) {
    const fs::path out = fresh_dir(keeps ? "kept" : "bytes");
    CaseConfig config(make_schema(decay_app()));
    test::DecaySimulation sim;
    sim.grow_from = 8;
    sim.growth = 1e3;
    sim.keeps_own_state = keeps == 1;
    const RunResult r = run_time_loop(sim, config, settings(out, 40));
    ASSERT_FALSE(r.stop_reason.empty());
    last_step[keeps] = r.last_step;
    saves[keeps] = sim.saves;
    std::ifstream last(out / "fields" / ("u_" + std::to_string(r.last_step) + ".txt"));
    ASSERT_TRUE(last.good()) << "no fields for the last good step " << r.last_step;
    fields[keeps].assign(std::istreambuf_iterator<char>(last), std::istreambuf_iterator<char>());
    fs::remove_all(out);
  }
  EXPECT_EQ(last_step[1], last_step[0]);
  EXPECT_EQ(fields[1], fields[0]);
  EXPECT_GE(saves[0], last_step[0]);  // every accepted step
  EXPECT_LE(saves[1], 1);             // the state before the first step at most
}

// From the second step on: a state that grows 10^7-fold in one step stops
// the run at that step, against the largest value of the steps before it.
TEST(TimeLoop, TheGrowthBoundHoldsFromTheSecondStep) {
  const fs::path out = fresh_dir("grow2");
  CaseConfig config(make_schema(decay_app()));
  test::DecaySimulation sim;
  sim.grow_from = 2;
  sim.growth = 1e7;
  const RunResult r = run_time_loop(sim, config, settings(out, 10));
  EXPECT_EQ(r.last_step, 1);
  EXPECT_NE(r.stop_reason.find("step 2: "), std::string::npos) << r.stop_reason;
  EXPECT_NE(r.stop_reason.find("has grown past 1e+06 times its largest value in step 1 ("), std::string::npos)
      << r.stop_reason;
  fs::remove_all(out);
}

// The console's thread line and summary.json's "threads" are one text (the
// policy); the counts the steps ran on are threads_in_steps.
TEST(TimeLoop, OneThreadDescription) {
  const fs::path out = fresh_dir("threads");
  const test::CapturedRun r =
      test::run_captured(decay_app(), {"--steps", "2", "--set", "run.progress=false", "--out", out.string()});
  ASSERT_EQ(r.status, 0) << r.error;
  const auto at = r.output.find("  threads: ");
  ASSERT_NE(at, std::string::npos) << r.output;
  const std::string line = r.output.substr(at + 11, r.output.find('\n', at) - at - 11);
  std::ifstream summary(out / "summary.json");
  std::stringstream text;
  text << summary.rdbuf();
  EXPECT_NE(text.str().find("\"threads\": \"" + line + "\""), std::string::npos) << line << "\n" << text.str();
  EXPECT_NE(text.str().find("\"threads_in_steps\": ["), std::string::npos);
  fs::remove_all(out);
}

TEST(TimeLoop, NonFiniteValuesStopTheRunAtOnce) {
  const fs::path out = fresh_dir("nan");
  CaseConfig config(make_schema(decay_app()));
  test::DecaySimulation sim;
  sim.grow_from = 3;
  sim.growth = std::nan("");
  LoopSettings s = settings(out, 10);
  s.guard.max_growth = 0.0;  // no growth bound: only finiteness
  const RunResult r = run_time_loop(sim, config, s);
  EXPECT_EQ(r.last_step, 2);
  EXPECT_NE(r.stop_reason.find("step 3: residual 'du' is not finite (nan)"), std::string::npos) << r.stop_reason;
  // Without the residual, the state's magnitude names it.
  StepGuard guard(s.guard);
  EXPECT_NE(guard.check(1, {}, {{"max |u|", std::nan("")}}, {}).find("step 1: state 'max |u|' is not finite"),
            std::string::npos);
  fs::remove_all(out);
}

// The growth bound holds for the residuals a step marks (growth_bounded, the
// first ones); a figure after them (a force from a symmetric start, a settling
// estimate that is unbounded until the forces settle) may grow past it, and
// stops the run only when it is not finite.
TEST(TimeLoop, TheGrowthBoundSparesAStepsOtherFigures) {
  StepGuard guard(GuardLimits{});
  const auto step = [](double residual, double figure) {
    harness::StepResult r{double(1), 1.0, 0.5, {{"rho", residual}, {"unsettled", figure}}};
    r.growth_bounded = 1;
    return r;
  };
  EXPECT_EQ(guard.check(1, step(1.0, 0.04), {}, {}), "");
  EXPECT_EQ(guard.check(2, step(0.5, 1e300), {}, {}), "") << "a figure past the bound";
  EXPECT_NE(guard.check(3, step(0.5, std::nan("")), {}, {}).find("step 3: residual 'unsettled' is not finite"),
            std::string::npos);
  EXPECT_NE(guard.check(4, step(1e7, 0.04), {}, {}).find("step 4: residual 'rho' = 1e+07 has grown past"),
            std::string::npos);
}

// richardson(maxit=1) never reaches rtol 1e-10: three failed steps in a row stop
// the run, naming the system and the last solve; with the limit off the run goes
// on, and a step whose solve failed is never steady.
TEST(TimeLoop, FailedSolvesInARowStopTheRunAndAreNeverSteady) {
  const fs::path out = fresh_dir("failed");
  CaseConfig config(make_schema(decay_app()));
  test::DecaySimulation a;
  a.steady_tol = 1e300;
  LoopSettings s = settings(out, 10);
  s.driver_specs = {{"heat", "richardson(maxit=1,rtol=1e-10)+jacobi"}};
  const RunResult r = run_time_loop(a, config, s);
  EXPECT_EQ(r.last_step, 2);
  EXPECT_NE(r.stop_reason.find("step 3: a solve failed in 3 steps in a row"), std::string::npos) << r.stop_reason;
  EXPECT_NE(r.stop_reason.find("failed in this step: 'heat'; first: richardson"), std::string::npos) << r.stop_reason;
  EXPECT_FALSE(r.steady);
  test::DecaySimulation b;
  b.steady_tol = 1e300;
  s.guard.max_failed_steps = 0;
  s.steps = 4;
  const RunResult unbounded = run_time_loop(b, config, s);
  EXPECT_TRUE(unbounded.stop_reason.empty()) << unbounded.stop_reason;
  EXPECT_EQ(unbounded.last_step, 4);
  EXPECT_FALSE(unbounded.steady);
  fs::remove_all(out);
}

// A resumed run is guarded as the uninterrupted one (the checkpoint carries
// the guard's record): resumed after two of three failed steps in a row, it
// stops in step 3 as the whole run does, not two steps later.
TEST(TimeLoop, AResumedRunCountsTheFailedStepsBeforeItsCheckpoint) {
  const fs::path out = fresh_dir("failed_resumed");
  CaseConfig config(make_schema(decay_app()));
  LoopSettings s = settings(out, 2);
  s.driver_specs = {{"heat", "richardson(maxit=1,rtol=1e-10)+jacobi"}};
  s.checkpoint_every = 1;
  test::DecaySimulation a;
  a.steady_tol = 1e300;
  ASSERT_TRUE(run_time_loop(a, config, s).stop_reason.empty());
  s.steps = 10;
  s.restart = true;
  test::DecaySimulation b;
  b.steady_tol = 1e300;
  const RunResult r = run_time_loop(b, config, s);
  EXPECT_EQ(r.last_step, 2);
  EXPECT_NE(r.stop_reason.find("step 3: a solve failed in 3 steps in a row"), std::string::npos) << r.stop_reason;
  fs::remove_all(out);
}

// The growth bound of a resumed run keeps the references of the run's first
// steps: a state that grows 30-fold a step from step 6 stops the run in the
// same step with the same words, whole or resumed from step 7 (where a fresh
// reference would have been taken from the grown steps 8-12).
TEST(TimeLoop, AResumedRunKeepsTheGrowthBoundsReferences) {
  const fs::path whole_dir = fresh_dir("grow_whole"), split_dir = fresh_dir("grow_split");
  CaseConfig config(make_schema(decay_app()));
  const auto growing = [] {
    test::DecaySimulation sim;
    sim.grow_from = 6;
    sim.growth = 30.0;
    return sim;
  };
  test::DecaySimulation whole = growing();
  const RunResult w = run_time_loop(whole, config, settings(whole_dir, 30));
  ASSERT_GT(w.last_step, 7);
  ASSERT_NE(w.stop_reason.find("has grown past 1e+06 times its largest value in steps 1-"), std::string::npos)
      << w.stop_reason;
  LoopSettings s = settings(split_dir, 7);
  s.checkpoint_every = 7;
  test::DecaySimulation first = growing();
  ASSERT_TRUE(run_time_loop(first, config, s).stop_reason.empty());
  s.steps = 30;
  s.restart = true;
  test::DecaySimulation resumed = growing();
  const RunResult r = run_time_loop(resumed, config, s);
  EXPECT_EQ(r.last_step, w.last_step);
  EXPECT_EQ(r.stop_reason.substr(0, r.stop_reason.find("; the last good state")),
            w.stop_reason.substr(0, w.stop_reason.find("; the last good state")));
  fs::remove_all(whole_dir);
  fs::remove_all(split_dir);
}

// A system that accepts its iteration limit (an inexact Newton step, seed 001
// §6): richardson(maxit=1) stops there every step with a smaller residual; the
// run goes past the three steps that stop it otherwise (TimeLoop.
// FailedSolvesInARowStopTheRunAndAreNeverSteady) with no failed solve, and a
// step whose solve stopped there may be steady.
TEST(TimeLoop, AnIterationLimitedSolveThatReducedTheResidualIsAcceptedWhereTheSystemSaysSo) {
  const fs::path out = fresh_dir("inexact");
  CaseConfig config(make_schema(decay_app()));
  test::DecaySimulation a;
  a.inexact = true;
  a.steady_tol = 0.0;  // never steady
  LoopSettings s = settings(out, 5);
  s.driver_specs = {{"heat", "richardson(maxit=1,rtol=1e-10)+jacobi"}};
  testing::internal::CaptureStderr();
  const RunResult r = run_time_loop(a, config, s);
  const std::string said = testing::internal::GetCapturedStderr();
  EXPECT_TRUE(r.stop_reason.empty()) << r.stop_reason;
  EXPECT_EQ(r.last_step, 5);
  EXPECT_EQ(r.totals.at("driver/heat").solves, 5);
  EXPECT_EQ(r.totals.at("driver/heat").failures, 0);
  // One rule everywhere: accepted at the limit, counted so, and no "did not converge" line for it.
  EXPECT_EQ(r.totals.at("driver/heat").at_limit, 5);
  EXPECT_EQ(said.find("did not converge"), std::string::npos) << said;
  std::ifstream summary(out / "summary.json");
  std::stringstream text;
  text << summary.rdbuf();
  EXPECT_NE(text.str().find("\"accepted_at_limit\": 5"), std::string::npos) << text.str();
  test::DecaySimulation b;
  b.inexact = true;
  b.steady_tol = 1e300;
  const RunResult steady = run_time_loop(b, config, s);
  EXPECT_TRUE(steady.steady);
  EXPECT_EQ(steady.last_step, 1);
  fs::remove_all(out);
}

SolveStats stopped_at_limit(double initial, double final) {
  SolveStats s;
  s.reason = StopReason::max_iterations;
  s.initial_residual = initial, s.final_residual = final;
  return s;
}

TEST(SolverTotals, CountAsFailedOnlyTheSolvesNotAccepted) {
  EXPECT_TRUE(systems::accepted_solve(stopped_at_limit(1.0, 0.5), true));
  EXPECT_FALSE(systems::accepted_solve(stopped_at_limit(1.0, 0.5), false));
  EXPECT_FALSE(systems::accepted_solve(stopped_at_limit(1.0, 1.0), true));  // no progress
  SolveStats broke = stopped_at_limit(1.0, 0.5);
  broke.reason = StopReason::breakdown;
  EXPECT_FALSE(systems::accepted_solve(broke, true));
  SolverTotals t;
  t.add(stopped_at_limit(1.0, 0.5), true);
  t.add(broke, false);
  EXPECT_EQ(t.solves, 2);
  EXPECT_EQ(t.failures, 1);
}

TEST(TimeLoop, RestartWithoutCheckpointIsAClearError) {
  const fs::path out = fresh_dir("nockpt");
  CaseConfig config(make_schema(decay_app()));
  LoopSettings s = settings(out, 3);
  s.restart = true;
  test::DecaySimulation sim;
  try {
    run_time_loop(sim, config, s);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("no checkpoint"), std::string::npos) << e.what();
  }
  fs::remove_all(out);
}

// A checkpoint restarts only the case that wrote it (run.steps and the output
// keys aside, docs/harness.md "Checkpoint and restart"); the refusal comes before
// any file of the run is rewritten.
TEST(TimeLoop, RestartOfAnotherCaseIsRefusedBeforeAnyOutput) {
  const fs::path out = fresh_dir("othercase");
  CaseConfig config(make_schema(decay_app()));
  LoopSettings s = settings(out, 4);
  s.checkpoint_every = 2;
  test::DecaySimulation first;
  run_time_loop(first, config, s);
  std::ifstream case_file(out / "case.toml");
  const std::string case_before((std::istreambuf_iterator<char>(case_file)), std::istreambuf_iterator<char>());

  CaseConfig other = config;
  other.set("physics.growth", "1.5");
  s.restart = true;
  s.steps = 6;
  test::DecaySimulation refused;
  try {
    run_time_loop(refused, other, s);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find((out / "checkpoint.bin").string() +
                                         ": not a usable checkpoint: written for another case"),
              std::string::npos)
        << e.what();
  }
  std::ifstream case_after(out / "case.toml");
  EXPECT_EQ(std::string((std::istreambuf_iterator<char>(case_after)), std::istreambuf_iterator<char>()), case_before);

  CaseConfig longer = config;
  longer.set("run.steps", "6");
  longer.set("run.output_every", "3");
  test::DecaySimulation resumed;
  EXPECT_EQ(run_time_loop(resumed, longer, s).last_step, 6);
  fs::remove_all(out);
}

TEST(RunMiniapp, IndependentStudyWritesReport) {
  const fs::path out = fresh_dir("ab");
  const std::string dir = out.string();
  const char* argv[] = {"tb-decay",
                        "--out",
                        dir.c_str(),
                        "--steps",
                        "4",
                        "--set",
                        "run.progress=false",
                        "--ab",
                        "gmres(rtol=1e-10)+jacobi",
                        "--ab",
                        "heat=bicgstab(rtol=1e-10)"};
  EXPECT_EQ(run_miniapp(decay_app(), 11, argv), 0);
  const auto rows = read_csv(out / "ab_report.csv");
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_EQ(rows[1][0], "baseline");
  EXPECT_EQ(rows[2][0], "ab-1");
  EXPECT_EQ(rows[2][1], "heat=gmres(rtol=1e-10)+jacobi");
  for (const char* label : {"baseline", "ab-1", "ab-2"}) EXPECT_TRUE(fs::exists(out / label / "steps.csv")) << label;
  EXPECT_TRUE(fs::exists(out / "ab_report.md"));
  EXPECT_TRUE(fs::exists(out / "ab_report.json"));
  fs::remove_all(out);
}

// With --ab and --shadow together, every run's shadows get rows of their own:
// a shadow that fails (maxit=1) is counted there, not against the run it shadows.
TEST(RunMiniapp, IndependentStudyWithShadowsKeepsShadowRowsApart) {
  const fs::path out = fresh_dir("abshadow");
  const std::string dir = out.string();
  const char* argv[] = {"tb-decay",
                        "--out",
                        dir.c_str(),
                        "--steps",
                        "3",
                        "--set",
                        "run.progress=false",
                        "--ab",
                        "bicgstab(rtol=1e-10)+jacobi",
                        "--shadow",
                        "cg(maxit=1)"};
  EXPECT_EQ(run_miniapp(decay_app(), 11, argv), 0);
  const auto rows = read_csv(out / "ab_report.csv");
  ASSERT_EQ(rows.size(), 5u);
  const std::size_t label = column(rows[0], "label"), solves = column(rows[0], "solves"),
                    failures = column(rows[0], "failures");
  const char* expected[] = {"baseline", "baseline/shadow-1", "ab-1", "ab-1/shadow-1"};
  for (std::size_t i = 1; i < rows.size(); ++i) {
    EXPECT_EQ(rows[i][label], expected[i - 1]);
    EXPECT_EQ(rows[i][solves], "3") << rows[i][label];
    EXPECT_EQ(rows[i][failures], i % 2 ? "0" : "3") << rows[i][label];
  }
  fs::remove_all(out);
}

TEST(RunMiniapp, SteadyStateStopsEarlyAndDumpsAreReadable) {
  const fs::path out = fresh_dir("steady");
  const std::string dir = out.string();
  test::DecaySimulation* sim = nullptr;
  const char* argv[] = {
      "tb-decay",           "--out",          dir.c_str(), "--set", "physics.steady_tol=1e-6", "--set",
      "run.progress=false", "--dump-systems", "2"};
  EXPECT_EQ(run_miniapp(decay_app(&sim), 9, argv), 0);
  ASSERT_NE(sim, nullptr);
  const auto rows = read_csv(out / "steps.csv");
  EXPECT_LT(rows.size(), 101u);  // stopped before run.steps = 100
  const MatrixMarketMatrix m = read_matrix_market((out / "systems" / "step2-heat-A.mtx").string());
  EXPECT_EQ(m.block_size, 2);
  EXPECT_EQ(read_matrix_market_vector((out / "systems" / "step2-heat-b.mtx").string()).size(),
            std::size_t(m.matrix.rows));
  fs::remove_all(out);
}

TEST(RunMiniapp, BadInputExitsWithStatusTwo) {
  const char* unknown_key[] = {"tb-decay", "--set", "solver.heta=cg"};
  EXPECT_EQ(run_miniapp(decay_app(), 3, unknown_key), 2);
  const char* bad_solver[] = {"tb-decay", "--set", "solver.heat=gmress", "--out", "/tmp/tb-harness-never"};
  EXPECT_EQ(run_miniapp(decay_app(), 5, bad_solver), 2);
  const char* missing_case[] = {"tb-decay", "/nonexistent/case.toml"};
  EXPECT_EQ(run_miniapp(decay_app(), 2, missing_case), 2);
}

// A step the physics cannot complete (StepFailure) is a failed run, status 1,
// not bad input; the rows of the steps before it are on disk.
TEST(RunMiniapp, StepFailureExitsWithStatusOne) {
  const fs::path out = fresh_dir("step-failure");
  const std::string dir = out.string();
  const char* argv[] = {"tb-decay",          "--out", dir.c_str(), "--set", "physics.fail_at_step=3", "--set",
                        "run.progress=false"};
  EXPECT_EQ(run_miniapp(decay_app(), 7, argv), 1);
  EXPECT_EQ(read_csv(out / "steps.csv").size(), 3u);  // header and steps 1, 2
  fs::remove_all(out);
}

// The blown-up run of the command line: exit status 1 and the message on stderr.
TEST(RunMiniapp, ABlownUpRunExitsWithStatusOne) {
  const fs::path out = fresh_dir("blowup");
  const std::string dir = out.string();
  const char* argv[] = {"tb-decay",           "--out", dir.c_str(),         "--set", "physics.grow_from=4", "--set",
                        "physics.growth=1e4", "--set", "run.progress=false"};
  testing::internal::CaptureStderr();
  EXPECT_EQ(run_miniapp(decay_app(), 9, argv), 1);
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("no longer physical"), std::string::npos) << err;
  EXPECT_NE(err.find("run.max_growth"), std::string::npos) << err;
  fs::remove_all(out);
}

// A case that must converge (tb-comp2d) and reaches run.steps unconverged ran
// as asked: it says so and exits 0, and the summary records it (the one exit
// rule of every miniapp, exit_status_rule).
TEST(RunMiniapp, AnUnconvergedSteadyCaseSaysSoAndExitsWithStatusZero) {
  const fs::path out = fresh_dir("unconverged");
  const std::string dir = out.string();
  const char* argv[] = {
      "tb-decay",          "--out", dir.c_str(), "--steps", "3", "--set", "physics.must_converge=true", "--set",
      "run.progress=false"};
  testing::internal::CaptureStderr();
  EXPECT_EQ(run_miniapp(decay_app(), 9, argv), 0);
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("not converged in 3 steps"), std::string::npos) << err;
  std::ifstream summary(out / "summary.json");
  const std::string text((std::istreambuf_iterator<char>(summary)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("\"converged\": false"), std::string::npos);
  // The same case converging in time exits 0.
  const char* ok[] = {"tb-decay",
                      "--out",
                      dir.c_str(),
                      "--set",
                      "physics.must_converge=true",
                      "--set",
                      "physics.steady_tol=1e-6",
                      "--set",
                      "run.progress=false"};
  EXPECT_EQ(run_miniapp(decay_app(), 9, ok), 0);
  fs::remove_all(out);
}

// run.backend = cuda: the miniapp's GPU specification for every system the
// case leaves at its default or gives a host-only preconditioner; backend=cuda
// added to a given one that runs on the device; a named backend kept.
TEST(RunMiniapp, TheCudaSwitchMovesEverySystemToTheDevice) {
  MiniappDescription app = decay_app();
  app.systems = {"heat", "cold", "warm", "kept", "mild"};
  const auto keys = app.declare_keys;
  app.declare_keys = [keys](CaseSchema& s) {
    keys(s);
    for (const char* k : {"solver.cold", "solver.warm", "solver.kept", "solver.mild"})
      s.add({k, KeyType::text, "cg+jacobi", "another system"});
  };
  for (const char* k : {"heat", "cold", "warm", "kept"}) app.gpu_specs[k] = "cg(backend=cuda)+block_jacobi";
  app.gpu_specs["mild"] = "fgmres(restart=30,rtol=0.1,backend=cuda)+jacobi";
  app.gpu_specs["heat"] = "gmres(backend=cuda)+jacobi";
  CaseConfig config(make_schema(app));
  config.set("solver.cold", "cg(rtol=1e-3)+jacobi");
  config.set("solver.warm", "gmres(restart=10)+bilu0", "case.toml");
  config.set("solver.kept", "cg(rtol=1e-3,backend=host)+bilu0");
  config.set("solver.mild", "gmres(restart=10,rtol=4e-2,maxit=60)+bilu0", "case.toml");
  use_gpu_specifications(app, config);
  EXPECT_EQ(config.text("solver.heat"), "gmres(backend=cuda)+jacobi");
  EXPECT_EQ(config.origin("solver.heat"), "run.backend");
  EXPECT_EQ(config.text("solver.cold"), "cg(rtol=1e-3,backend=cuda)+jacobi");
  EXPECT_EQ(config.origin("solver.cold"), "--set, on the device by run.backend");
  // BILU(0) runs on the host only; CG takes no restart: the GPU specification as it is.
  EXPECT_EQ(config.text("solver.warm"), "cg(backend=cuda)+block_jacobi");
  EXPECT_EQ(config.origin("solver.warm"),
            "run.backend, as case.toml's \"gmres(restart=10)+bilu0\" runs on the host only");
  // The GPU specification's method and preconditioner with the case's restart, tolerance and limit.
  EXPECT_EQ(config.text("solver.mild"), "fgmres(restart=10,rtol=4e-2,maxit=60,backend=cuda)+jacobi");
  EXPECT_EQ(config.origin("solver.mild"),
            "run.backend (the GPU specification with the given method's parameters), as case.toml's "
            "\"gmres(restart=10,rtol=4e-2,maxit=60)+bilu0\" runs on the host only");
  EXPECT_EQ(config.text("solver.kept"), "cg(rtol=1e-3,backend=host)+bilu0");
  app.gpu_specs.erase("cold");  // a miniapp without one for a system: its own error, not the user's
  EXPECT_THROW(use_gpu_specifications(app, config), Error);
}

TEST(RunMiniapp, BackendCudaIsAddedToTheFirstComponentOnly) {
  EXPECT_EQ(with_backend_cuda("bicgstab_dia(rtol=1e-7,relative_to=b)"),
            "bicgstab_dia(rtol=1e-7,relative_to=b,backend=cuda)");
  EXPECT_EQ(with_backend_cuda("cg+mg"), "cg(backend=cuda)+mg");
  EXPECT_EQ(with_backend_cuda("cg(backend=host)+jacobi"), "");
  EXPECT_EQ(with_backend_cuda("autopilot(candidates=[cg+jacobi; gmres+bilu0])"), "");
}

// --help states the one exit rule every miniapp follows.
TEST(RunMiniapp, HelpStatesTheExitRule) {
  const char* argv[] = {"tb-decay", "--help"};
  testing::internal::CaptureStdout();
  EXPECT_EQ(run_miniapp(decay_app(), 2, argv), 0);
  const std::string out = testing::internal::GetCapturedStdout();
  EXPECT_NE(out.find("Exit status:"), std::string::npos) << out;
  EXPECT_NE(out.find("0  the run did what was asked"), std::string::npos) << out;
  EXPECT_NE(out.find("1  a failure"), std::string::npos) << out;
  EXPECT_NE(out.find("2  refused input"), std::string::npos) << out;
  EXPECT_NE(out.find("--backend host|cuda"), std::string::npos) << out;
}

// One reading of backend=cuda for the start-up check (no device: refused) and
// the devices line: any component, spaces allowed, inside an autopilot's candidates.
TEST(SolverCheck, AsksForCudaReadsEveryComponentAndCandidate) {
  EXPECT_TRUE(harness::asks_for_cuda("fgmres(restart=30, backend = cuda)+multicolor"));
  EXPECT_TRUE(harness::asks_for_cuda("fgmres+bjacobi(local=multicolor,backend=cuda)"));
  EXPECT_TRUE(harness::asks_for_cuda("autopilot(candidates=[cg+jacobi; cg(backend=cuda)+jacobi], every=5)"));
  EXPECT_FALSE(harness::asks_for_cuda("autopilot(candidates=[cg+jacobi; cg+bilu0], every=5)"));
  EXPECT_FALSE(harness::asks_for_cuda("fgmres(backend=host)+bilu0"));
  EXPECT_FALSE(harness::asks_for_cuda("bicgstab_dia"));
}

// What a decomposed run prints at start-up about each rank's share.
// A slot factors a matrix once per pattern and once per new values: a constant
// matrix once, a varying one once per change, and not again when the same
// values come back for another solve (tb-comp2d's matrix-free system solves
// its first-order matrix once per outer iteration).
TEST(SolverSlot, FactorsOnlyValuesItHasNotFactoredLast) {
  BsrMatrix a;
  a.block_size = 1, a.block_rows = 3, a.block_cols = 3;
  a.row_ptr = {0, 2, 5, 7};
  a.col_idx = {0, 1, 0, 1, 2, 1, 2};
  a.values = {4, -1, -1, 4, -1, -1, 4};
  systems::SolverSlot slot;
  slot.solver = make_solver("cg(rtol=1e-12,maxit=10)+jacobi");
  const std::vector<double> b = {1, 2, 3};
  std::vector<double> x(3);
  const auto refresh_of = [&] {
    x.assign(3, 0.0);
    EXPECT_TRUE(slot.run(a, b, x).converged());
    return slot.last_refresh;
  };
  EXPECT_EQ(refresh_of(), systems::Refresh::symbolic);
  EXPECT_EQ(refresh_of(), systems::Refresh::none);  // constant so far
  a.values[0] = 5;
  EXPECT_EQ(refresh_of(), systems::Refresh::numeric);
  EXPECT_EQ(refresh_of(), systems::Refresh::none);  // the same values again: by their hash
  a.values[6] = 6;
  EXPECT_EQ(refresh_of(), systems::Refresh::numeric);
  a.values[6] = 4;  // values factored before, but not last
  EXPECT_EQ(refresh_of(), systems::Refresh::numeric);
  // The solution is the current matrix's (a skipped update would leave the operator's values stale).
  std::vector<double> ax(3);
  spmv(a, x.data(), ax.data());
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(ax[std::size_t(i)], b[std::size_t(i)], 1e-10);

  // The values factored last, in another matrix object, while the first one
  // changes: nothing to factor, and the solve is the second matrix's (the
  // solver's operator borrows the matrix of each solve; pointing it at the
  // first one's new values would solve another system).
  const BsrMatrix same = a;
  a.values = {9, -2, -2, 9, -2, -2, 9};
  x.assign(3, 0.0);
  EXPECT_TRUE(slot.run(same, b, x).converged());
  EXPECT_EQ(slot.last_refresh, systems::Refresh::none);
  spmv(same, x.data(), ax.data());
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(ax[std::size_t(i)], b[std::size_t(i)], 1e-10);
}

TEST(RankCounts, StartUpLinesNameEachRanksShare) {
  EXPECT_EQ(harness::grouped(3019), "3,019");
  EXPECT_EQ(harness::per_rank({3019, 3020}), "3,019 + 3,020");
  EXPECT_EQ(harness::gpu_sharing(1, 1), "");
  EXPECT_EQ(harness::gpu_sharing(2, 2), "");
  EXPECT_EQ(harness::gpu_sharing(4, 0), "");  // no device: nothing to share
  EXPECT_EQ(harness::gpu_sharing(2, 1).rfind("2 ranks on this node share 1 GPU:", 0), 0u);
  EXPECT_EQ(harness::gpu_sharing(8, 2).rfind("8 ranks on this node share 2 GPUs:", 0), 0u);
}

}  // namespace
}  // namespace tb
