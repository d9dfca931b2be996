#include "time_loop.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <exception>
#include <iostream>
#include <sstream>

#include "checkpoint.hpp"
#include "physics/step_failure.hpp"
#include "progress_line.hpp"
#include "run_report.hpp"
#include "solvers/core/atomic_file.hpp"
#include "solvers/core/error.hpp"
#include "solvers/core/threading.hpp"
#include "solvers/core/timer.hpp"
#include "solvers/factory/registry.hpp"
#include "solvers/factory/solver_communicator.hpp"
#include "state_snapshot.hpp"
#include "step_table.hpp"

namespace tb::harness {

namespace fs = std::filesystem;

namespace {

std::vector<std::string> record_columns(const std::string& prefix) {
  return {prefix + ":solver",  prefix + ":iterations", prefix + ":setup_s",
          prefix + ":solve_s", prefix + ":reason",     prefix + ":checksum"};
}

void append_record(std::vector<std::string>& row, const SolveRecord& r) {
  row.insert(row.end(), {r.stats.solver, std::to_string(r.stats.iterations), format_number(r.stats.setup_seconds),
                         format_number(r.stats.solve_seconds), std::string(to_string(r.stats.reason)), r.checksum});
}

// Seconds of one step: advance() and the harness's own work (NaN where unknown).
struct StepTimes {
  double step = std::nan("");
  double harness = std::nan("");
};

// One row of steps.csv: the step, the physics' figures, each solve, the times.
void write_step_row(StepTable& table, long step, const StepResult& res, const std::vector<SolveRecord>& records,
                    StepTimes times) {
  std::vector<std::string> header = {"step", "time", "dt", "cfl"};
  std::vector<std::string> row = {std::to_string(step), format_number(res.time), format_number(res.dt),
                                  format_number(res.cfl)};
  for (const auto& [name, value] : res.residuals) {
    header.push_back("res:" + name);
    row.push_back(format_number(value));
  }
  // A system solved twice in one step (nonlinear iterations) gets columns per solve.
  std::map<std::string, int> seen;
  for (const auto& r : records) {
    const int k = seen[r.system]++;
    const auto cols = record_columns(k == 0 ? r.system : r.system + "#" + std::to_string(k + 1));
    header.insert(header.end(), cols.begin(), cols.end());
    append_record(row, r);
  }
  header.insert(header.end(), {"step_s", "harness_s"});
  row.insert(row.end(), {format_number(times.step), format_number(times.harness)});
  table.write(header, row);
}

std::string shadow_key(std::size_t i, const std::string& system) {
  return "shadow" + std::to_string(i + 1) + "/" + system;
}

}  // namespace

namespace {

void add_solve_times(TimeSplit& split, const SystemSolvers& solvers) {
  for (const auto& r : solvers.driver_records()) {
    split.linear_setup += r.stats.setup_seconds;
    split.linear_solve += r.stats.solve_seconds;
  }
  for (const auto& records : solvers.shadow_records())
    for (const auto& r : records) split.shadow += r.stats.setup_seconds + r.stats.solve_seconds;
}

bool all_converged(const std::vector<SolveRecord>& records) {
  return std::all_of(records.begin(), records.end(), [](const SolveRecord& r) { return r.stats.converged(); });
}

}  // namespace

RunResult run_time_loop(Simulation& sim, const CaseConfig& config, const LoopSettings& s) {
  const bool writes = s.writes_files;
  if (writes) fs::create_directories(s.out_dir);
  SystemSolvers solvers(sim.linear_systems(), s.driver_specs, s.shadows);
  solvers.record_checksums(s.checksums);
  if (writes) solvers.dump_steps(s.out_dir / "systems", s.dump_steps);

  RunResult result;
  long first = 1;
  double wall_before = 0.0;
  if (s.restart) {
    CheckpointHeader h;
    std::istringstream state(read_checkpoint(s.out_dir, s.app, h));
    sim.load_state(state);
    first = h.step + 1;
    wall_before = h.wall_seconds;
    result.totals = h.totals;
  }
  std::unique_ptr<StepTable> steps;
  std::vector<std::unique_ptr<StepTable>> shadow_tables;
  if (writes) {
    write_file_atomically((s.out_dir / "case.toml").string(), config.to_toml());
    steps = std::make_unique<StepTable>((s.out_dir / "steps.csv").string(), s.restart, first - 1);
    for (std::size_t i = 0; i < s.shadows.size(); ++i)
      shadow_tables.push_back(std::make_unique<StepTable>(
          (s.out_dir / ("shadow-" + std::to_string(i + 1) + ".csv")).string(), s.restart, first - 1));
  }

  ProgressLine progress(s.app, first, s.steps, s.progress && writes);
  StepGuard guard(s.guard);
  StateSnapshot last_good;  // the state after the last accepted step (rank 0 writes it on a blow-up)
  if (writes) last_good.take(sim, first - 1);
  WallTimer wall;
  result.last_step = first - 1;
  for (long step = first; step <= s.steps; ++step) {
    WallTimer harness;
    threading::adapt_to_load();
    solvers.begin_step(step);
    double harness_s = harness.seconds();
    StepResult res;
    WallTimer advance;
    try {
      res = sim.advance(solvers);
    } catch (const StepFailure& e) {
      result.stop_reason = e.what();
    }
    result.split.steps += advance.seconds();
    add_solve_times(result.split, solvers);
    harness.restart();
    harness_s += solvers.bookkeeping_seconds();
    if (!res.residuals.empty()) result.last_residuals = res.residuals;
    if (result.stop_reason.empty())
      result.stop_reason = guard.check(step, res, sim.state_magnitudes(), solvers.driver_records());
    if (!result.stop_reason.empty()) {
      // The failing step's row stays in the tables (its numbers show what went
      // wrong); the fields written are those of the last good state.
      if (steps && !res.residuals.empty()) write_step_row(*steps, step, res, solvers.driver_records(), {});
      if (writes && last_good.restore(sim)) {
        sim.write_fields(s.out_dir, last_good.step());
        result.stop_reason +=
            "; the last good state (step " + std::to_string(last_good.step()) + ") is in " + s.out_dir.string();
      }
      break;
    }
    result.last_step = step;
    for (const auto& r : solvers.driver_records()) result.totals["driver/" + r.system].add(r.stats);
    for (std::size_t i = 0; i < s.shadows.size(); ++i) {
      if (writes) write_step_row(*shadow_tables[i], step, res, solvers.shadow_records()[i], {});
      for (const auto& r : solvers.shadow_records()[i]) result.totals[shadow_key(i, r.system)].add(r.stats);
    }
    // Steady only on a finite state whose last solves all converged.
    result.steady = sim.steady_state_reached() && all_converged(solvers.driver_records());
    if (writes) last_good.take(sim, step);
    harness_s += harness.seconds();
    result.split.harness += harness_s;
    if (steps) write_step_row(*steps, step, res, solvers.driver_records(), StepTimes{advance.seconds(), harness_s});
    // The final state is always written: a run must leave something to look at.
    WallTimer output;
    const bool last = result.steady || step == s.steps;
    if (writes && (last || (s.output_every > 0 && step % s.output_every == 0))) sim.write_fields(s.out_dir, step);
    if (writes && s.checkpoint_every > 0 && step % s.checkpoint_every == 0) {
      std::ostringstream state;
      sim.save_state(state);
      write_checkpoint(s.out_dir, {s.app, step, wall_before + wall.seconds(), result.totals}, state.str());
    }
    result.split.output += output.seconds();
    progress.update(step, res.time, res.residuals.empty() ? std::nan("") : res.residuals.front().second);
    if (result.steady) break;
  }
  progress.finish();
  if (result.stop_reason.empty() && !result.steady && sim.must_converge() && result.last_step >= s.steps)
    result.unconverged = true;
  result.wall_seconds = wall_before + wall.seconds();
  result.figures_of_merit = sim.figures_of_merit();
  if (writes) write_summary(s.out_dir, s, config, result);
  return result;
}

CaseSchema make_schema(const MiniappDescription& app) {
  CaseSchema schema;
  schema.add({"run.steps", KeyType::integer, std::to_string(app.default_steps),
              "time steps to run (steady cases stop earlier when converged)"});
  schema.add({"run.output_every", KeyType::integer, "0",
              "write fields every N steps; the final state is always written (0: only it)"});
  schema.add({"run.checkpoint_every", KeyType::integer, "0", "write a checkpoint every N steps; 0 = never"});
  schema.add({"run.progress", KeyType::boolean, "true", "progress line on a terminal"});
  schema.add({"run.checksums", KeyType::boolean, "false",
              "checksum every solve's system in steps.csv (always on with --shadow or --dump-systems)"});
  schema.add({"run.max_growth", KeyType::real, "1e+06",
              "stop (exit 1) when a residual or state magnitude grows past this factor times its largest value "
              "in the first 5 steps; 0 = no bound (non-finite values always stop the run)"});
  schema.add({"run.max_failed_steps", KeyType::integer, "3",
              "stop (exit 1) after this many steps in a row with a failed solve; 0 = never"});
  if (app.declare_keys) app.declare_keys(schema);
  for (const auto& system : app.systems)
    if (!schema.find("solver." + system)) throw Error("internal: " + app.name + " declares no key solver." + system);
  return schema;
}

namespace {

LoopSettings settings_from(const MiniappDescription& app, const CaseConfig& config, const RunOptions& o,
                           const fs::path& out_dir) {
  LoopSettings s;
  s.app = app.name;
  s.out_dir = out_dir;
  s.steps = config.integer("run.steps");
  s.output_every = config.integer("run.output_every");
  s.checkpoint_every = config.integer("run.checkpoint_every");
  s.progress = config.boolean("run.progress");
  s.checksums = config.boolean("run.checksums");
  s.guard.max_growth = config.real("run.max_growth");
  s.guard.max_failed_steps = config.integer("run.max_failed_steps");
  for (const auto& system : app.systems) s.driver_specs[system] = config.text("solver." + system);
  for (const auto& text : o.shadow) s.shadows.push_back(parse_study_spec(text, app.systems));
  s.dump_steps = o.dump_steps;
  s.writes_files = solver_communicator()->rank() == 0;
  return s;
}

std::string join_specs(const std::map<std::string, std::string>& specs) {
  std::string s;
  for (const auto& [system, spec] : specs) s += (s.empty() ? "" : "; ") + system + "=" + spec;
  return s;
}

void print_options(const MiniappDescription& app, const RunOptions& o, const LoopSettings& s) {
  std::printf("%s: %s\n", app.name.c_str(), app.summary.c_str());
  std::printf("  case: %s\n  output: %s\n  steps: %ld\n",
              o.case_file.empty() ? "(built-in default)" : o.case_file.c_str(), s.out_dir.c_str(), s.steps);
  for (const auto& [system, spec] : s.driver_specs) std::printf("  solver.%s = %s\n", system.c_str(), spec.c_str());
  for (const auto& [k, v] : o.sets) std::printf("  --set %s=%s\n", k.c_str(), v.c_str());
  for (const auto& sh : o.shadow) std::printf("  --shadow %s\n", sh.c_str());
  for (const auto& ab : o.ab) std::printf("  --ab %s\n", ab.c_str());
  std::printf("  threads: %s\n", threading::describe().c_str());
  std::fflush(stdout);
}

// The rows one run adds to a study: its driving solvers, then each shadow
// (labelled "<label>/shadow-<i>"), each with its own totals over every system.
std::vector<StudyRow> study_rows(const std::string& label, const LoopSettings& s,
                                 const std::vector<std::string>& shadow_texts, const RunResult& r) {
  std::vector<StudyRow> rows(1 + shadow_texts.size());
  rows[0] = {label, join_specs(s.driver_specs), {}, r.last_step, r.steady, r.wall_seconds, {}};
  Outcome& o = rows[0].outcome;
  o.found = !r.last_residuals.empty();
  for (const auto& [name, value] : r.last_residuals) o.residuals.emplace_back("res:" + name, value);
  o.figures = r.figures_of_merit;
  o.linear_seconds = r.split.linear_setup + r.split.linear_solve;
  for (std::size_t i = 0; i < shadow_texts.size(); ++i)
    rows[i + 1] = {
        label + "/shadow-" + std::to_string(i + 1), shadow_texts[i], {}, r.last_step, r.steady, std::nan(""), {}};
  for (const auto& [name, t] : r.totals) {
    std::size_t row = 0;
    if (name.rfind("shadow", 0) == 0) row = std::stoul(name.substr(6));
    SolverTotals& into = rows.at(row).totals;
    into.solves += t.solves, into.iterations += t.iterations, into.failures += t.failures;
    into.setup_seconds += t.setup_seconds, into.solve_seconds += t.solve_seconds;
  }
  return rows;
}

// One simulation per specification, each from the same initial state.
int run_independent_study(const MiniappDescription& app, const CaseConfig& base, const RunOptions& o,
                          const fs::path& out_dir) {
  std::vector<StudyRow> rows;
  bool failed = false;
  for (std::size_t k = 0; k <= o.ab.size(); ++k) {
    CaseConfig config = base;
    std::string label = "baseline";
    if (k > 0) {
      label = "ab-" + std::to_string(k);
      const StudySpec study = parse_study_spec(o.ab[k - 1], app.systems);
      for (const auto& system : app.systems)
        if (study.system.empty() || study.system == system) config.set("solver." + system, study.spec, "--ab");
    }
    LoopSettings s = settings_from(app, config, o, out_dir / label);
    std::printf("  [%s] %s\n", label.c_str(), join_specs(s.driver_specs).c_str());
    std::fflush(stdout);
    auto sim = app.make(config);
    const RunResult r = run_time_loop(*sim, config, s);
    const std::vector<StudyRow> run_rows = study_rows(label, s, o.shadow, r);
    if (!r.stop_reason.empty())
      std::fprintf(stderr, "%s: [%s] stopped: %s\n", app.name.c_str(), label.c_str(), r.stop_reason.c_str());
    failed = failed || run_rows.front().totals.failures > 0 || !r.stop_reason.empty() || r.unconverged;
    rows.insert(rows.end(), run_rows.begin(), run_rows.end());
  }
  if (solver_communicator()->rank() == 0)
    write_ab_report(out_dir, o.shadow.empty() ? "independent" : "independent, with shadows", rows);
  std::printf("A/B report: %s\n", (out_dir / "ab_report.md").c_str());
  return failed ? 1 : 0;
}

int run_single(const MiniappDescription& app, const CaseConfig& config, const RunOptions& o, const LoopSettings& s) {
  auto sim = app.make(config);
  const RunResult r = run_time_loop(*sim, config, s);
  const std::vector<StudyRow> rows = study_rows("driver", s, o.shadow, r);
  const long failures = rows.front().totals.failures;
  if (s.writes_files && !s.shadows.empty()) write_ab_report(s.out_dir, "shadow", rows);
  if (!r.stop_reason.empty()) {
    std::fprintf(stderr, "%s: error: stopped, the state is no longer physical: %s\n", app.name.c_str(),
                 r.stop_reason.c_str());
    return 1;
  }
  std::printf("%s: %ld steps%s, %ld failed solves, %.3f s; results in %s\n", app.name.c_str(), r.last_step,
              r.steady ? " (steady state reached)" : (r.unconverged ? " (NOT CONVERGED)" : ""), failures,
              r.wall_seconds, s.out_dir.c_str());
  if (r.unconverged)
    std::fprintf(stderr, "%s: error: not converged in %ld steps (raise run.steps, or see steps.csv)\n",
                 app.name.c_str(), r.last_step);
  return failures > 0 || r.unconverged ? 1 : 0;
}

}  // namespace

int run_miniapp(const MiniappDescription& app, int argc, const char* const* argv) {
  // Under mpiexec only rank 0 speaks on stdout (errors still reach stderr from
  // every rank); asking for the rank starts MPI when the program was launched
  // on several ranks (solvers/factory/solver_communicator.hpp).
  if (solver_communicator()->rank() != 0 && !std::freopen("/dev/null", "w", stdout))
    std::fprintf(stderr, "%s: cannot silence stdout on this rank\n", app.name.c_str());
  try {
    const CaseSchema schema = make_schema(app);
    const RunOptions o = parse_command_line(argc, argv);
    if (o.help) {
      std::printf("%s: %s\n\n%s\nSample runs:\n", app.name.c_str(), app.summary.c_str(),
                  command_line_usage(app.name).c_str());
      for (const auto& line : app.samples) std::printf("  %s\n", line.c_str());
      std::printf("\nCase keys (TOML tables.keys) with their defaults:\n%s\n%s", schema.help().c_str(),
                  Registry::builtin().help().c_str());
      return 0;
    }
    CaseConfig config(schema);
    fs::path out_dir = o.out_dir.empty() ? fs::path("out") / app.name : fs::path(o.out_dir);
    if (!o.restart_dir.empty()) {
      out_dir = o.restart_dir;
      config.load_toml((out_dir / "case.toml").string());
    } else if (!o.case_file.empty()) {
      if (!fs::exists(o.case_file)) throw Error(o.case_file + ": case file not found");
      config.load_toml(o.case_file);
    }
    for (const auto& [k, v] : o.sets) config.set(k, v);
    if (o.steps) config.set("run.steps", std::to_string(*o.steps), "--steps");
    if (!o.ab.empty()) return run_independent_study(app, config, o, out_dir);
    LoopSettings s = settings_from(app, config, o, out_dir);
    s.restart = !o.restart_dir.empty();
    print_options(app, o, s);
    return run_single(app, config, o, s);
  } catch (const StepFailure& e) {
    std::fprintf(stderr, "%s: error: %s\n", app.name.c_str(), e.what());
    return 1;
  } catch (const Error& e) {
    std::fprintf(stderr, "%s: error: %s\n", app.name.c_str(), e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: error: %s\n", app.name.c_str(), e.what());
    return 2;
  }
}

}  // namespace tb::harness
