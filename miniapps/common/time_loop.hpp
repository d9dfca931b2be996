#pragma once
// The time loop every miniapp runs (time_loop.cpp), and the entry point that
// turns a command line into one run, a run with shadow solvers, or independent
// A/B runs (miniapp_main.cpp, ab_study.cpp).
#include <cmath>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "case_config.hpp"
#include "command_line.hpp"
#include "simulation.hpp"
#include "solvers/systems/system_set.hpp"
#include "step_guard.hpp"

namespace tb::harness {

using systems::AutopilotReport;
using systems::SolveRecord;
using systems::SolverTotals;

struct MiniappDescription {
  std::string name;                  // "tb-incomp"
  std::string summary;               // one line for --help
  std::vector<std::string> samples;  // sample command lines for --help
  std::vector<std::string> systems;  // linear systems; each gets a key solver.<system>
  // Each system's specification under run.backend = cuda where the case gives
  // none (every system of the run on the device), each chosen by a
  // measurement the miniapp's documentation cites.
  std::map<std::string, std::string> gpu_specs;
  std::function<void(CaseSchema&)> declare_keys;  // the physics' own keys
  // Defaults that depend on other keys, set (with their reason as the origin)
  // where the case gives none, once every --set is in and before the checks;
  // the case written beside the results holds what they resolved to.
  std::function<void(CaseConfig&)> resolve_defaults;
  // Cross-key checks that need no mesh or grid, with whether the run splits
  // its domain over ranks: run at start-up on every rank before anything is
  // printed (miniapp_main.cpp, read_inputs), so a refusal is one line. Returns
  // the notes the run prints once and keeps in summary.json (case_checks.hpp).
  std::function<std::vector<std::string>(const CaseConfig&, bool decomposed)> check_case;
  std::function<std::unique_ptr<Simulation>(const CaseConfig&)> make;
  long default_steps = 100;  // default of run.steps (a steady solver may need more)
  // Under mpiexec the physics splits its domain over the ranks (docs/distributed.md):
  // each rank assembles its part and the linear systems hold each rank's rows
  // (Simulation's contract in simulation.hpp). False: every rank runs the whole physics.
  bool decomposes = false;
};

struct LoopSettings {
  std::string app;
  std::filesystem::path out_dir;
  long steps = 0;
  long output_every = 0;
  long checkpoint_every = 0;
  bool progress = true;
  bool restart = false;
  std::map<std::string, std::string> driver_specs;  // system -> spec
  std::vector<StudySpec> shadows;
  std::vector<long> dump_steps;
  bool checksums = false;  // run.checksums: a checksum on every solve (shadows and dumps always have them)
  GuardLimits guard;       // when a run stops as no longer physical
  // False on the MPI ranks other than 0: rank 0 alone writes the tables, the
  // case and the summary. Under mpiexec a miniapp that does not decompose runs
  // the same physics and solves on every rank (the banded solvers share theirs
  // over the ranks); the others still read a checkpoint to resume.
  bool writes_files = true;
  // The physics is decomposed over more than one rank: every rank writes its
  // piece of the fields and its own checkpoint (checkpoint.hpp), and the
  // driver solvers take each rank's rows (make_partitioned_solver).
  bool decomposed = false;
  int rank = 0, ranks = 1;                 // of a decomposed run
  double rss_at_start_mib = std::nan("");  // the process's resident memory as main() began (libraries, runtime)
  std::vector<std::string> notes;          // the case checks' notes (keys the case ignores), for summary.json
};

// Where the steps' time went, summed over the steps of this run: the step
// clock's accounts (solvers/systems/step_clock.hpp), each less the
// host<->device copies made in it, which are counted apart.
struct TimeSplit {
  double loop = 0.0;   // the loop's wall time, its steps from start to end
  double steps = 0.0;  // the physics' advance(), linear solves included
  systems::StepAccounts accounts;
  // Of linear_solve: this rank's time in the distributed solvers' allreduces and
  // ghost waits (latency and waiting for slower ranks); 0 on one process.
  double linear_communication = 0.0;
  double operator[](systems::Account a) const { return accounts[a]; }
  void add(const systems::StepAccounts& step);
  // The loop's time no account holds (the step table's rows, the progress line).
  double unaccounted() const { return loop - accounts.total(); }
  // Each entry by its summary.json key (time_split), in the order written there.
  std::vector<std::pair<std::string, double>> entries() const;
};

// A decomposed run's time split, entry by entry, from its least to its largest
// over the ranks: a loop that synchronises its ranks goes at its slowest one's pace.
struct SplitOverRanks {
  std::string entry;  // a key of summary.json's time_split
  double least = 0.0, largest = 0.0;
};

struct RunResult {
  long last_step = 0;
  bool steady = false;
  std::string stop_reason;   // why the run stopped early as a failure, or empty
  bool unconverged = false;  // a case that must converge reached its step limit unconverged
  double wall_seconds = 0.0;
  TimeSplit split;
  std::vector<SplitOverRanks> split_over_ranks;                // decomposed runs only
  std::vector<std::pair<std::string, double>> last_residuals;  // of the last step run (a failing one included)
  std::map<std::string, SolverTotals> totals;                  // "driver/<system>", "shadow<i>/<system>"
  std::vector<std::pair<std::string, double>> figures_of_merit;
  std::vector<AutopilotReport> autopilots;  // one per system whose solver is an autopilot
  double peak_rss_loop_mib =
      std::nan("");                    // this process's peak resident memory at the end of the steps (before output)
  double peak_rss_mib = std::nan("");  // ... at the end of the run
  // The host threads the steps ran on, least and most (the team follows the
  // load from step to step: threading::adapt_to_load); 0 without a step.
  int threads_least = 0, threads_most = 0;
};

// Runs (or, with settings.restart, resumes) one simulation: steps.csv, one
// shadow-<i>.csv per shadow, checkpoints, field output and summary.json in out_dir.
RunResult run_time_loop(Simulation& sim, const CaseConfig& config, const LoopSettings& settings);

// The case keys every miniapp has: run.* and solver.<system>.
CaseSchema make_schema(const MiniappDescription& app);

// run.backend = cuda moves every system to the device. A specification the
// case leaves at its default (no file line, no --set) becomes the miniapp's
// GPU specification (MiniappDescription::gpu_specs); a given one that names no
// backend gets backend=cuda (with_backend_cuda) where all its parts run there;
// where a part runs on the host only (bilu0), the GPU specification's method
// and preconditioner with the given method's parameters (or the GPU
// specification as it is, where its method does not take them); one that
// names a backend, or an autopilot's, stays. Each change's origin says so. The
// device itself is checked at start-up, before this (exit 2 without one).
void use_gpu_specifications(const MiniappDescription& app, CaseConfig& config);
// `spec` with backend=cuda on its first component (the Krylov method or a
// complete solver); empty where it names a backend or is an autopilot's.
std::string with_backend_cuda(const std::string& spec);

// The exit statuses of every miniapp, as --help prints them.
inline constexpr const char* exit_status_rule =
    "Exit status:\n"
    "  0  the run did what was asked: every step, or up to its steady state, every solve accepted;\n"
    "     whether a steady case reached its steady state is \"converged\" in summary.json\n"
    "  1  a failure: a step stopped the run (a state no longer physical, a step the physics could\n"
    "     not complete), a solve failed (summary.json: stop_reason, the solvers' failures; a solve\n"
    "     that stops at its iteration limit with a smaller residual, on a system that accepts it as\n"
    "     an inexact Newton-Krylov step, is no failure: accepted_at_limit), or an output could not\n"
    "     be written (the path named)\n"
    "  2  refused input or usage, before anything is written (the message names the key, file or option)\n";

// main() of a miniapp. Returns the exit status (exit_status_rule).
int run_miniapp(const MiniappDescription& app, int argc, const char* const* argv);

}  // namespace tb::harness
