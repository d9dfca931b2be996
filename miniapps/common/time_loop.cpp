#include "time_loop.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <sstream>

#include "checkpoint.hpp"
#include "output_failure.hpp"
#include "physics/step_failure.hpp"
#include "progress_line.hpp"
#include "run_report.hpp"
#include "solvers/core/atomic_file.hpp"
#include "solvers/core/error.hpp"
#include "solvers/core/machine.hpp"
#include "solvers/core/threading.hpp"
#include "solvers/core/timer.hpp"
#include "solvers/factory/solver_communicator.hpp"
#include "solvers/systems/checksum.hpp"
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
              format_number(s.solve_seconds), std::string(to_string(s.reason)), systems::folded_checksum(f.checksums)});
}

// Seconds of one step: advance() and the step clock's accounts (none in a shadow's table).
struct StepTimes {
  double step = std::nan("");
  const systems::StepAccounts* accounts = nullptr;
};

// The step's accounts as steps.csv's columns: each account's seconds, then the
// copies each way (seconds and bytes), then the device launches.
void append_accounts(std::vector<std::string>& header, std::vector<std::string>& row, StepTimes times) {
  using systems::Account;
  const systems::StepAccounts* a = times.accounts;
  const auto seconds = [&](Account k) { return a ? format_number((*a)[k]) : std::string(); };
  const std::pair<const char*, Account> columns[] = {{"harness_s", Account::harness},
                                                     {"assembly_s", Account::assembly},
                                                     {"linear_setup_s", Account::linear_setup},
                                                     {"linear_solve_s", Account::linear_solve},
                                                     {"shadow_s", Account::shadow},
                                                     {"probe_s", Account::probe},
                                                     {"physics_s", Account::physics},
                                                     {"output_s", Account::output}};
  header.push_back("step_s");
  row.push_back(format_number(times.step));
  for (const auto& [name, account] : columns) {
    header.push_back(name);
    row.push_back(seconds(account));
  }
  const auto tally = [&](const char* prefix, const transfers::Tally* t) {
    header.insert(header.end(), {std::string(prefix) + "_s", std::string(prefix) + "_bytes"});
    row.insert(row.end(), {t ? format_number(t->seconds) : "", t ? std::to_string(t->bytes) : ""});
  };
  tally("h2d", a ? &a->transfers.to_device : nullptr);
  tally("d2h", a ? &a->transfers.to_host : nullptr);
  header.push_back("launches");
  row.push_back(a ? std::to_string(a->launches) : "");
}

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
  append_accounts(header, row, times);
  table.write(header, row);
}

std::string shadow_key(std::size_t i, const std::string& system) {
  return "shadow" + std::to_string(i + 1) + "/" + system;
}

}  // namespace

namespace {

void add_communication(TimeSplit& split, const systems::SystemSet& solvers) {
  for (const auto& r : solvers.driver_records()) split.linear_communication += r.stats.communication_seconds;
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

// One of the loop's outputs (the case, a table's row, the fields, a
// checkpoint, the summary): whatever stops it (a full disk, a folder removed
// under the run) stops the run as an OutputFailure naming what was written
// and the path, exit status 1, instead of a lost table and exit status 0.
template <class Write>
void output(const std::string& what, Write&& write) {
  try {
    write();
  } catch (const OutputFailure& e) {
    throw OutputFailure(what + ": " + e.what());
  } catch (const StepFailure&) {
    throw;
  } catch (const std::exception& e) {
    throw OutputFailure(what + ": " + e.what());
  }
}

// Restores the checkpoint's state into `sim`, refusing it (tb::Error naming
// the file, exit status 2 before anything is written) when the physics
// cannot read it or when the state it holds is not finite.
void restore_state(Simulation& sim, const std::string& state, const std::string& path) {
  std::istringstream in(state);
  try {
    sim.load_state(in);
  } catch (const StepFailure&) {
    throw;
  } catch (const Error& e) {
    throw Error(path + ": not a usable checkpoint: " + e.what());
  }
  for (const auto& [name, value] : sim.state_magnitudes())
    if (!std::isfinite(value))
      throw Error(path + ": not a usable checkpoint: its state's " + name + " is not finite (" + format_number(value) +
                  ")");
}

}  // namespace

void TimeSplit::add(const systems::StepAccounts& step) {
  for (std::size_t k = 0; k < systems::account_count; ++k) accounts.seconds[k] += step.seconds[k];
  for (auto [into, from] : {std::pair{&accounts.transfers.to_device, &step.transfers.to_device},
                            std::pair{&accounts.transfers.to_host, &step.transfers.to_host}}) {
    into->copies += from->copies, into->bytes += from->bytes, into->seconds += from->seconds;
  }
}

std::vector<std::pair<std::string, double>> TimeSplit::entries() const {
  using systems::Account;
  const transfers::Tally &h2d = accounts.transfers.to_device, &d2h = accounts.transfers.to_host;
  return {{"loop", loop},
          {"steps", steps},
          {"assembly", (*this)[Account::assembly]},
          {"host_to_device", h2d.seconds},
          {"device_to_host", d2h.seconds},
          {"linear_setup", (*this)[Account::linear_setup]},
          {"linear_solve", (*this)[Account::linear_solve]},
          {"linear_communication", linear_communication},
          {"shadow_solvers", (*this)[Account::shadow]},
          {"autopilot_probes", (*this)[Account::probe]},
          {"physics", (*this)[Account::physics]},
          {"harness", (*this)[Account::harness]},
          {"output", (*this)[Account::output]},
          {"unaccounted", unaccounted()}};
}

RunResult run_time_loop(Simulation& sim, const CaseConfig& config, const LoopSettings& s) {
  const bool writes = s.writes_files;
  // Fields, snapshots and checkpoints: rank 0's alone, or every rank's piece of a decomposed run.
  const bool writes_state = writes || s.decomposed;
  const int rank = s.decomposed ? s.rank : 0, ranks = s.decomposed ? s.ranks : 1;
  if (s.decomposed && (s.checksums || !s.dump_steps.empty()))
    throw Error(std::string(s.checksums ? "run.checksums" : "--dump-systems") +
                ": a run on several ranks holds each system in pieces; checksums and dumps are one-process studies");
  // A bad specification: nothing written.
  systems::SystemSetOptions options{s.driver_specs, {}, s.decomposed, s.app, solver_communicator()->rank() == 0};
  for (const StudySpec& shadow : s.shadows) options.shadows.push_back({shadow.system, shadow.spec});
  systems::SystemSet solvers(std::move(options));
  sim.declare_systems(solvers);
  solvers.record_checksums(s.checksums);
  if (writes) solvers.dump_steps(s.out_dir / "systems", s.dump_steps);
  solvers.plan_steps(s.steps);

  RunResult result;
  long first = 1;
  double wall_before = 0.0;
  const std::uint64_t digest = case_digest(config);
  GuardRecord guarded;  // what the guard learned before a restart
  if (s.restart) {
    CheckpointHeader h;
    const std::string state = read_checkpoint(s.out_dir, s.app, digest, h, rank, ranks);
    check_restart_steps(h, s.steps, "", (s.out_dir / checkpoint_file(rank, ranks)).string());
    restore_state(sim, state, (s.out_dir / checkpoint_file(rank, ranks)).string());
    first = h.step + 1;
    wall_before = h.wall_seconds;
    result.totals = h.totals;
    solvers.load_autopilots(h.harness_state);
    guarded = h.guard;
  }
  std::unique_ptr<StepTable> steps;
  std::vector<std::unique_ptr<StepTable>> shadow_tables;
  // Everything above only read: the output starts here.
  if (writes_state) output("creating the output folder", [&] { fs::create_directories(s.out_dir); });
  if (writes)
    output("writing the case and opening the step tables", [&] {
      write_file_atomically((s.out_dir / "case.toml").string(), config.to_toml());
      steps = std::make_unique<StepTable>((s.out_dir / "steps.csv").string(), s.restart, first - 1);
      for (std::size_t i = 0; i < s.shadows.size(); ++i)
        shadow_tables.push_back(std::make_unique<StepTable>(
            (s.out_dir / ("shadow-" + std::to_string(i + 1) + ".csv")).string(), s.restart, first - 1));
    });

  ProgressLine progress(s.app, first, s.steps, s.progress && writes);
  StepGuard guard(s.guard, std::move(guarded));
  StateSnapshot last_good;  // the state after the last accepted step (rank 0 writes it on a blow-up)
  if (writes_state) last_good.take(sim, first - 1);
  WallTimer wall;
  bool fields_written = false;
  result.last_step = first - 1;
  // Every second of the steps goes to one account of the clock: the loop's own
  // work to harness, advance() to the physics (which charges its assembly, and
  // the systems their solvers), the fields and checkpoints to output. A step's
  // accounts run from the last step's to its own (StepClock::take).
  systems::StepClock& clock = solvers.clock();
  clock.start(systems::Account::harness);
  for (long step = first; step <= s.steps; ++step) {
    clock.enter(systems::Account::harness);
    threading::adapt_to_load();
    const int threads = threading::budget();
    result.threads_least = result.threads_least == 0 ? threads : std::min(result.threads_least, threads);
    result.threads_most = std::max(result.threads_most, threads);
    const std::string at_step = " of step " + std::to_string(step);
    solvers.begin_step(step);
    StepResult res;
    clock.enter(systems::Account::physics);
    WallTimer advance;
    try {
      res = sim.advance(solvers);
    } catch (const StepFailure& e) {
      result.stop_reason = e.what();
    }
    const double advance_s = advance.seconds();
    result.split.steps += advance_s;
    clock.enter(systems::Account::harness);
    solvers.end_step(res.cfl, res.residual_factor);
    add_communication(result.split, solvers);
    if (!res.residuals.empty()) result.last_residuals = res.residuals;
    if (result.stop_reason.empty())
      result.stop_reason = guard.check(step, res, sim.state_magnitudes(), solvers.driver_records());
    if (!result.stop_reason.empty()) {
      // The failing step's row stays in the tables (its numbers show what went
      // wrong); the fields written are those of the last good state.
      const systems::StepAccounts accounts = clock.take();
      result.split.add(accounts);
      if (steps && !res.residuals.empty())
        output("writing the row" + at_step, [&] {
          write_step_row(*steps, step, res, solvers.driver_records(), StepTimes{advance_s, &accounts});
        });
      if (writes_state && last_good.restore(sim)) {
        output("writing the fields of the last good state", [&] { sim.write_fields(s.out_dir, last_good.step()); });
        result.stop_reason +=
            "; the last good state (step " + std::to_string(last_good.step()) + ") is in " + s.out_dir.string();
      }
      break;
    }
    result.last_step = step;
    for (const auto& r : solvers.driver_records()) result.totals["driver/" + r.system].add(r.stats, r.accepted);
    for (std::size_t i = 0; i < s.shadows.size(); ++i) {
      if (writes)
        output("writing the shadow row" + at_step,
               [&] { write_step_row(*shadow_tables[i], step, res, solvers.shadow_records()[i], {}); });
      for (const auto& r : solvers.shadow_records()[i]) result.totals[shadow_key(i, r.system)].add(r.stats, r.accepted);
    }
    // Steady only on a finite state whose last solves all converged.
    result.steady = sim.steady_state_reached() && all_converged(solvers.driver_records());
    if (writes_state) last_good.take(sim, step);
    // The peak before the first field output (VTK's writers add their own).
    if (!fields_written) result.peak_rss_loop_mib = process_memory().peak_rss_mib;
    // The final state is always written: a run must leave something to look at.
    clock.enter(systems::Account::output);
    const bool last = result.steady || step == s.steps;
    if (writes_state && (last || (s.output_every > 0 && step % s.output_every == 0))) {
      output("writing the fields" + at_step, [&] { sim.write_fields(s.out_dir, step); });
      fields_written = true;
    }
    // The checkpoint is written before the row and put in place after it: a
    // run killed between the two resumes from the one before, whose row the
    // table holds, and the row still holds the step's output time. The last
    // step writes one too, so that a run is continued from where it ended.
    std::optional<StagedCheckpoint> checkpoint;
    if (writes_state && s.checkpoint_every > 0 && (last || step % s.checkpoint_every == 0))
      output("writing the checkpoint" + at_step, [&] {
        std::ostringstream state;
        sim.save_state(state);
        const CheckpointHeader header{.app = s.app,
                                      .step = step,
                                      .wall_seconds = wall_before + wall.seconds(),
                                      .totals = result.totals,
                                      .harness_state = solvers.save_autopilots(),
                                      .guard = guard.record(),
                                      .program_version = {},  // the checkpoint's writer sets it
                                      .case_digest = digest};
        checkpoint = stage_checkpoint(s.out_dir, header, state.str(), rank, ranks);
      });
    const systems::StepAccounts accounts = clock.take();
    result.split.add(accounts);
    if (steps)
      output("writing the row" + at_step, [&] {
        write_step_row(*steps, step, res, solvers.driver_records(), StepTimes{advance_s, &accounts});
      });
    if (checkpoint) output("writing the checkpoint" + at_step, [&] { checkpoint->commit(); });
    progress.update(step, res.time, res.residuals.empty() ? std::nan("") : res.residuals.front().second);
    if (result.steady) break;
  }
  result.split.loop = wall.seconds();
  progress.finish();
  if (result.stop_reason.empty() && !result.steady && sim.must_converge() && result.last_step >= s.steps)
    result.unconverged = true;
  result.wall_seconds = wall_before + wall.seconds();
  if (s.decomposed) result.split_over_ranks = split_over_ranks(result.split);
  result.figures_of_merit = sim.figures_of_merit();
  result.autopilots = solvers.autopilot_reports();
  result.peak_rss_mib = process_memory().peak_rss_mib;
  if (writes)
    output("closing the step tables and writing the summary", [&] {
      if (steps) steps->close();
      for (auto& table : shadow_tables) table->close();
      write_summary(s.out_dir, s, config, result);
    });
  return result;
}

}  // namespace tb::harness
