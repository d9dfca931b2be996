#include "time_loop.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "checkpoint.hpp"
#include "physics/step_failure.hpp"
#include "progress_line.hpp"
#include "run_report.hpp"
#include "solvers/core/atomic_file.hpp"
#include "solvers/core/error.hpp"
#include "solvers/core/machine.hpp"
#include "solvers/core/threading.hpp"
#include "solvers/core/timer.hpp"
#include "solvers/factory/solver_communicator.hpp"
#include "state_snapshot.hpp"
#include "step_table.hpp"

namespace tb::harness {

namespace fs = std::filesystem;

namespace {

std::vector<std::string> record_columns(const std::string& prefix) {
  return {prefix + ":solver",  prefix + ":solves", prefix + ":iterations", prefix + ":setup_s",
          prefix + ":solve_s", prefix + ":reason", prefix + ":checksum"};
}

// An autopilot's systems also say which candidate (1-based) was in charge and whether the step probed.
std::vector<std::string> autopilot_columns(const std::string& prefix) {
  return {prefix + ":in_charge", prefix + ":probe"};
}

// A step's solves of one system, folded into one row entry: a matrix-free
// step (tb-comp2d's default) solves its system once per outer iteration, a
// count that changes from step to step, and a CSV keeps one header. The
// solver and the autopilot's candidate are the last solve's; iterations and
// seconds are summed; the reason is the first that did not converge, else
// the last; the checksum covers them all (folded_checksum).
struct FoldedSolves {
  SolveRecord record;
  long solves = 0;
  std::vector<std::string> checksums;
};

std::vector<FoldedSolves> fold_by_system(const std::vector<SolveRecord>& records) {
  std::vector<FoldedSolves> out;
  for (const auto& r : records) {
    auto it = std::find_if(out.begin(), out.end(), [&](const FoldedSolves& f) { return f.record.system == r.system; });
    if (it == out.end()) {
      out.push_back({r, 1, {r.checksum}});
      continue;
    }
    SolveRecord& f = it->record;
    const StopReason first_miss = f.stats.converged() ? r.stats.reason : f.stats.reason;
    f.stats.solver = r.stats.solver;
    f.stats.iterations += r.stats.iterations;
    f.stats.setup_seconds += r.stats.setup_seconds;
    f.stats.solve_seconds += r.stats.solve_seconds;
    f.stats.reason = first_miss;
    f.candidate = r.candidate;
    f.probe = f.probe || r.probe;
    f.accepted = f.accepted && r.accepted;
    ++it->solves;
    it->checksums.push_back(r.checksum);
  }
  return out;
}

void append_record(std::vector<std::string>& row, const FoldedSolves& f) {
  const SolveStats& s = f.record.stats;
  row.insert(row.end(),
             {s.solver, std::to_string(f.solves), std::to_string(s.iterations), format_number(s.setup_seconds),
              format_number(s.solve_seconds), std::string(to_string(s.reason)), folded_checksum(f.checksums)});
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
  // One set of columns per system, however many times the step solved it.
  for (const auto& f : fold_by_system(records)) {
    const auto cols = record_columns(f.record.system);
    header.insert(header.end(), cols.begin(), cols.end());
    append_record(row, f);
    if (f.record.candidate < 0) continue;
    const auto ap = autopilot_columns(f.record.system);
    header.insert(header.end(), ap.begin(), ap.end());
    row.insert(row.end(), {std::to_string(f.record.candidate + 1), f.record.probe ? "1" : "0"});
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
    split.linear_communication += r.stats.communication_seconds;
  }
  for (const auto& records : solvers.shadow_records())
    for (const auto& r : records) split.shadow += r.stats.setup_seconds + r.stats.solve_seconds;
  split.probe += solvers.probe_seconds();
}

bool all_converged(const std::vector<SolveRecord>& records) {
  return std::all_of(records.begin(), records.end(), [](const SolveRecord& r) { return r.accepted; });
}

// Each entry's least and largest over the ranks: one reduction of the maxima
// of the entries and of their negatives. Collective.
std::vector<SplitOverRanks> split_over_ranks(const TimeSplit& t) {
  const auto entries = t.entries();
  const std::size_t n = entries.size();
  std::vector<double> v(2 * n);
  for (std::size_t k = 0; k < n; ++k) v[k] = entries[k].second, v[n + k] = -entries[k].second;
  solver_communicator()->space().reduce(nullptr, 0, v.data(), int(v.size()));
  std::vector<SplitOverRanks> out;
  for (std::size_t k = 0; k < n; ++k) out.push_back({entries[k].first, -v[n + k], v[k]});
  return out;
}

}  // namespace

RunResult run_time_loop(Simulation& sim, const CaseConfig& config, const LoopSettings& s) {
  const bool writes = s.writes_files;
  // Fields, snapshots and checkpoints: rank 0's alone, or every rank's piece of a decomposed run.
  const bool writes_state = writes || s.decomposed;
  const int rank = s.decomposed ? s.rank : 0, ranks = s.decomposed ? s.ranks : 1;
  if (s.decomposed && (s.checksums || !s.dump_steps.empty()))
    throw Error(std::string(s.checksums ? "run.checksums" : "--dump-systems") +
                ": a run on several ranks holds each system in pieces; checksums and dumps are one-process studies");
  // A bad specification: nothing written.
  SystemSolvers solvers(sim.linear_systems(), s.driver_specs, s.shadows, s.decomposed);
  for (const std::string& system : sim.linear_systems()) {
    if (const dist::OffRankRows off = sim.split_rows(system); off.blocks) solvers.take_split_rows(system, off);
    if (sim.accepts_iteration_limit(system)) solvers.accept_iteration_limit(system);
    solvers.measure_progress(system,
                             [&sim, system](std::span<const double> x) { return sim.update_progress(system, x); });
  }
  if (writes_state) fs::create_directories(s.out_dir);
  solvers.record_checksums(s.checksums);
  if (writes) solvers.dump_steps(s.out_dir / "systems", s.dump_steps);
  solvers.plan_steps(s.steps);

  RunResult result;
  long first = 1;
  double wall_before = 0.0;
  const std::uint64_t digest = case_digest(config);
  if (s.restart) {
    CheckpointHeader h;
    std::istringstream state(read_checkpoint(s.out_dir, s.app, digest, h, rank, ranks));
    sim.load_state(state);
    first = h.step + 1;
    wall_before = h.wall_seconds;
    result.totals = h.totals;
    solvers.load_autopilots(h.harness_state);
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
  if (writes_state) last_good.take(sim, first - 1);
  WallTimer wall;
  bool fields_written = false;
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
    solvers.end_step(res.cfl, res.residual_factor);
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
      if (writes_state && last_good.restore(sim)) {
        sim.write_fields(s.out_dir, last_good.step());
        result.stop_reason +=
            "; the last good state (step " + std::to_string(last_good.step()) + ") is in " + s.out_dir.string();
      }
      break;
    }
    result.last_step = step;
    for (const auto& r : solvers.driver_records()) result.totals["driver/" + r.system].add(r.stats, r.accepted);
    for (std::size_t i = 0; i < s.shadows.size(); ++i) {
      if (writes) write_step_row(*shadow_tables[i], step, res, solvers.shadow_records()[i], {});
      for (const auto& r : solvers.shadow_records()[i]) result.totals[shadow_key(i, r.system)].add(r.stats, r.accepted);
    }
    // Steady only on a finite state whose last solves all converged.
    result.steady = sim.steady_state_reached() && all_converged(solvers.driver_records());
    if (writes_state) last_good.take(sim, step);
    harness_s += harness.seconds();
    result.split.harness += harness_s;
    if (steps) write_step_row(*steps, step, res, solvers.driver_records(), StepTimes{advance.seconds(), harness_s});
    // The peak before the first field output (VTK's writers add their own).
    if (!fields_written) result.peak_rss_loop_mib = process_memory().peak_rss_mib;
    // The final state is always written: a run must leave something to look at.
    WallTimer output;
    const bool last = result.steady || step == s.steps;
    if (writes_state && (last || (s.output_every > 0 && step % s.output_every == 0))) {
      sim.write_fields(s.out_dir, step);
      fields_written = true;
    }
    if (writes_state && s.checkpoint_every > 0 && step % s.checkpoint_every == 0) {
      std::ostringstream state;
      sim.save_state(state);
      write_checkpoint(
          s.out_dir, {s.app, step, wall_before + wall.seconds(), result.totals, solvers.save_autopilots(), {}, digest},
          state.str(), rank, ranks);
    }
    result.split.output += output.seconds();
    progress.update(step, res.time, res.residuals.empty() ? std::nan("") : res.residuals.front().second);
    if (result.steady) break;
  }
  progress.finish();
  if (result.stop_reason.empty() && !result.steady && sim.must_converge() && result.last_step >= s.steps)
    result.unconverged = true;
  result.wall_seconds = wall_before + wall.seconds();
  if (s.decomposed) result.split_over_ranks = split_over_ranks(result.split);
  result.figures_of_merit = sim.figures_of_merit();
  result.autopilots = solvers.autopilot_reports();
  result.peak_rss_mib = process_memory().peak_rss_mib;
  if (writes) write_summary(s.out_dir, s, config, result);
  return result;
}

}  // namespace tb::harness
