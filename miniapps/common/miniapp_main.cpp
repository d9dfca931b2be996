// main() of every miniapp: the command line and case file to one run (or an
// A/B study), and the exit codes every miniapp shares (exit_status_rule).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <exception>
#include <optional>

#include "ab_study.hpp"
#include "checkpoint.hpp"
#include "domain_sharing.hpp"
#include "loop_settings.hpp"
#include "output_failure.hpp"
#include "physics/step_failure.hpp"
#include "rank_counts.hpp"
#include "run_folder.hpp"
#include "run_report.hpp"
#include "solver_check.hpp"
#include "solvers/core/backend.hpp"
#include "solvers/core/error.hpp"
#include "solvers/core/machine.hpp"
#include "solvers/core/threading.hpp"
#include "solvers/factory/registry.hpp"
#include "solvers/factory/solver_communicator.hpp"
#include "solvers/factory/spec.hpp"
#include "solvers/systems/autopilot_spec.hpp"
#include "time_loop.hpp"

namespace tb::harness {

namespace fs = std::filesystem;

CaseSchema make_schema(const MiniappDescription& app) {
  CaseSchema schema;
  // A run advances at least one step: zero steps would write no state and report success.
  schema.add({"run.steps", KeyType::integer, std::to_string(app.default_steps),
              "time steps to run (steady cases stop earlier when converged)", at_least(1)});
  schema.add({"run.output_every", KeyType::integer, "0",
              "write fields every N steps; the final state is always written (0: only it)", at_least(0)});
  schema.add({"run.checkpoint_every", KeyType::integer, "0",
              "write a checkpoint every N steps and at the last; 0 = never", at_least(0)});
  schema.add({"run.progress", KeyType::boolean, "true", "progress line on a terminal"});
  schema.add(
      {"run.backend", KeyType::text, "host",
       "where the linear systems are solved: cuda runs every system on the GPU, with the miniapp's GPU "
       "specification where solver.<system> is not given or runs on the host only (keeping the given method's "
       "tolerances where the GPU method takes them), backend=cuda added to "
       "one that names no backend (one that names backend=host stays there), and the step itself where the physics can "
       "reside there (the fields stay on the device; the scheme line says) (refused, exit 2, without a CUDA "
       "build or device)",
       one_of({"host", "cuda"})});
  schema.add({"run.checksums", KeyType::boolean, "false",
              "checksum every solve's system in steps.csv (always on with --shadow or --dump-systems)"});
  schema.add({"run.max_growth", KeyType::real, "1e+06",
              "stop (exit 1) when a residual or state magnitude grows past this factor times its largest value "
              "in the run's first 5 steps (from step 2: those before it); 0 = no bound (non-finite values always "
              "stop the run)",
              at_least(0)});
  schema.add({"run.max_failed_steps", KeyType::integer, "3",
              "stop (exit 1) after this many steps in a row with a failed solve; 0 = never", at_least(0)});
  if (app.decomposes)
    schema.add({"run.decompose", KeyType::boolean, "true",
                "under mpiexec: split the grid or mesh over the ranks, each assembling and solving its own cells "
                "(false: every rank runs the whole physics and only the solves are shared, as seed 004's banded "
                "solvers take them)"});
  if (app.declare_keys) app.declare_keys(schema);
  for (const auto& system : app.systems)
    if (!schema.find("solver." + system)) throw Error("internal: " + app.name + " declares no key solver." + system);
  return schema;
}

std::string with_backend_cuda(const std::string& spec) {
  if (systems::is_autopilot_spec(spec)) return {};
  SolverSpec s = parse_spec(spec);
  if (names_param(s, "backend")) return {};
  s.components.front().params.emplace_back("backend", "cuda");
  std::string text;
  for (const auto& c : s.components) {
    if (!text.empty()) text += '+';
    text += component_text(c);
  }
  return text;
}

namespace {

// Whether every part of a specification has a CUDA backend (LinearSolver's
// constructor refuses a preconditioner without one; nothing is allocated).
bool takes_cuda(const std::string& spec) {
  try {
    (void)make_solver(spec);
    return true;
  } catch (const Error&) {
    return false;
  }
}

// The GPU specification's method and preconditioner with the given method's
// parameters (its tolerances, limits and restart) where the given one runs on
// the host only: the case's inexact-Newton or projection settings survive the
// move, as they shape its steps. Empty where the two are not a method and a
// preconditioner each.
std::string gpu_form_of(const std::string& given, const std::string& gpu) {
  const SolverSpec g = parse_spec(given), d = parse_spec(gpu);
  if (g.components.size() != 2 || d.components.size() != 2) return {};
  SpecComponent method = d.components[0];
  method.params.clear();
  for (const auto& kv : g.components[0].params)
    if (kv.first != "backend") method.params.push_back(kv);
  for (const auto& kv : d.components[0].params)
    if (!param_value(method, kv.first)) method.params.push_back(kv);
  return component_text(method) + "+" + component_text(d.components[1]);
}

}  // namespace

void use_gpu_specifications(const MiniappDescription& app, CaseConfig& config) {
  for (const std::string& system : app.systems) {
    const auto gpu = app.gpu_specs.find(system);
    if (gpu == app.gpu_specs.end())
      throw Error("internal: " + app.name + " has no GPU specification for its system '" + system + "'");
    const std::string key = "solver." + system, origin = config.origin(key), given = config.text(key);
    if (origin.empty()) {
      config.set(key, gpu->second, "run.backend");
      continue;
    }
    const std::string moved = with_backend_cuda(given);
    if (moved.empty()) continue;  // a backend named (an explicit choice), or an autopilot's candidates
    if (takes_cuda(moved)) {
      config.set(key, moved, origin + ", on the device by run.backend");
      continue;
    }
    const std::string why = ", as " + origin + "'s \"" + given + "\" runs on the host only";
    if (const std::string merged = gpu_form_of(given, gpu->second); !merged.empty() && takes_cuda(merged))
      config.set(key, merged, "run.backend (the GPU specification with the given method's parameters)" + why);
    else
      config.set(key, gpu->second, "run.backend" + why);
  }
}

namespace {

// uses_gpu: a solver of the run asks for backend=cuda.
void print_options(const MiniappDescription& app, const RunOptions& o, const LoopSettings& s, bool uses_gpu) {
  std::printf("%s: %s\n", app.name.c_str(), app.summary.c_str());
  // A restart reads the case its run wrote (read_inputs), not a case file.
  const std::string case_source = s.restart             ? (s.out_dir / "case.toml").string() + " (restart)"
                                  : o.case_file.empty() ? "(built-in default)"
                                                        : o.case_file;
  std::printf("  case: %s\n  output: %s\n  steps: %ld\n", case_source.c_str(), s.out_dir.c_str(), s.steps);
  for (const auto& [system, spec] : s.driver_specs) std::printf("  solver.%s = %s\n", system.c_str(), spec.c_str());
  for (const auto& [k, v] : o.sets) std::printf("  --set %s=%s\n", k.c_str(), v.c_str());
  for (const auto& sh : o.shadow) std::printf("  --shadow %s\n", sh.c_str());
  for (const auto& ab : o.ab) std::printf("  --ab %s\n", ab.c_str());
  std::printf("  threads: %s\n", threading::describe().c_str());
  // Only a run that uses a GPU asks the CUDA runtime (its first call loads the driver).
  const std::string note = uses_gpu ? harness::gpu_sharing(threading::ranks_on_node(), cuda_device_count()) : "";
  if (!note.empty()) std::printf("  devices: %s\n", note.c_str());
  std::fflush(stdout);
}

// A run decomposed over ranks that fails on some ranks only (a file one rank
// cannot write, a local solver's breakdown) cannot leave the others waiting in
// a collective call: the error is printed and the whole run aborted.
RunResult run_loop_on_every_rank(const MiniappDescription& app, Simulation& sim, const CaseConfig& config,
                                 const LoopSettings& s) {
  if (!s.decomposed) return run_time_loop(sim, config, s);
  try {
    return run_time_loop(sim, config, s);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: error on rank %d: %s\n", app.name.c_str(), s.rank, bounded_message(e.what()).c_str());
    abort_ranks(dynamic_cast<const StepFailure*>(&e) || dynamic_cast<const OutputFailure*>(&e) ? 1 : 2);
  }
}

int run_single(const MiniappDescription& app, const CaseConfig& config, const RunOptions& o, const LoopSettings& s) {
  auto sim = app.make(config);
  if (const std::string d = sim->scheme(); !d.empty() && solver_communicator()->rank() == 0)
    std::printf("  scheme: %s\n", d.c_str());
  if (const std::string d = sim->decomposition(); !d.empty()) std::printf("  decomposition: %s\n", d.c_str());
  std::fflush(stdout);
  const RunResult r = run_loop_on_every_rank(app, *sim, config, s);
  const std::vector<StudyRow> rows = study_rows("driver", s, o.shadow, r);
  const long failures = rows.front().totals.failures;
  if (s.writes_files && !s.shadows.empty()) write_ab_report(s.out_dir, "shadow", rows);
  // The loop's outcome is every rank's (its decisions are reduced): rank 0 says it.
  const bool speaks = solver_communicator()->rank() == 0;
  if (!r.stop_reason.empty()) {
    if (speaks)
      std::fprintf(stderr, "%s: error: stopped, the state is no longer physical: %s\n", app.name.c_str(),
                   r.stop_reason.c_str());
    return 1;
  }
  const long at_limit = rows.front().totals.at_limit;
  const std::string accepted = at_limit > 0 ? ", " + std::to_string(at_limit) +
                                                  " accepted at their iteration limit with a smaller residual "
                                                  "(inexact Newton-Krylov steps, capped projection corrections)"
                                            : "";
  // Under mpiexec the threads are each rank's.
  const std::string ranks = run_ranks() > 1 ? std::to_string(run_ranks()) + " ranks of " : "";
  const std::string threads = r.threads_least == r.threads_most
                                  ? std::to_string(r.threads_most)
                                  : std::to_string(r.threads_least) + "-" + std::to_string(r.threads_most);
  std::printf("%s: %ld steps%s, %ld failed solves%s, %.3f s on %s%s thread%s; results in %s\n", app.name.c_str(),
              r.last_step, r.steady ? " (steady state reached)" : (r.unconverged ? " (NOT CONVERGED)" : ""), failures,
              accepted.c_str(), r.wall_seconds, ranks.c_str(), threads.c_str(), r.threads_most == 1 ? "" : "s",
              s.out_dir.c_str());
  if (r.unconverged && speaks)
    std::fprintf(stderr,
                 "%s: note: not converged in %ld steps (\"converged\": false in summary.json; raise run.steps, or "
                 "see steps.csv)\n",
                 app.name.c_str(), r.last_step);
  return failures > 0 ? 1 : 0;
}

// What a run starts from: the command line, the case and, for a restart, the
// name of its checkpoint. Local work only, no collective call, so that every
// rank gets through it or fails on its own (start_up_refusal).
struct RunInputs {
  RunOptions options;
  CaseConfig config;
  fs::path out_dir;
  std::vector<std::string> notes;  // the case checks' (MiniappDescription::check_case)
};

// run.backend = cuda: refused (tb::Error, so exit 2 before anything is
// written) where no device can take the systems; else every system takes the
// miniapp's GPU specification where the case leaves it at its default.
void choose_backend(const MiniappDescription& app, CaseConfig& config) {
  if (config.text("run.backend") != "cuda") return;
  if (cuda_device_count() == 0) {
    const std::string place = config.origin("run.backend");
    throw Error((place.empty() ? "" : place + ": ") +
                "run.backend: given \"cuda\", allowed \"host\" here: " + cuda_unavailable_reason());
  }
  use_gpu_specifications(app, config);
}

// The run's keys against each other and the command line: an output asked
// for past run.steps would never happen; it is said so, once, rather than
// skipped without a word (a sample run cut to a few steps keeps its options).
std::vector<std::string> check_run_keys(const CaseConfig& config, const RunOptions& o) {
  std::vector<std::string> notes;
  const long steps = config.integer("run.steps");
  const std::string with_steps = " (" + config.key_and_value("run.steps") + ")";
  for (long step : o.dump_steps)
    if (step > steps)
      notes.push_back("--dump-systems " + std::to_string(step) + " is ignored: it is past run.steps" + with_steps +
                      ", so that step's systems are never dumped");
  return notes;
}

RunInputs read_inputs(const MiniappDescription& app, const CaseSchema& schema, int argc, const char* const* argv) {
  RunInputs in{parse_command_line(argc, argv), CaseConfig(schema), {}, {}};
  const RunOptions& o = in.options;
  CaseConfig& config = in.config;
  if (o.help) return in;
  in.out_dir = o.out_dir.empty() ? fs::path("out") / app.name : fs::path(o.out_dir);
  if (!o.restart_dir.empty()) in.out_dir = o.restart_dir;
  // Where the results go, before anything is read or computed: a folder path
  // that names a file or a device, or a folder holding one, is refused here.
  check_run_folder(!o.restart_dir.empty() ? "--restart"
                   : !o.out_dir.empty()   ? "--out"
                                          : "the output folder (the default; --out DIR)",
                   in.out_dir);
  if (!o.restart_dir.empty()) {
    config.load_toml((in.out_dir / "case.toml").string());
  } else if (!o.case_file.empty()) {
    config.load_toml(o.case_file);
  }
  for (const auto& [k, v] : o.sets) config.set(k, v);
  if (o.steps) config.set("run.steps", std::to_string(*o.steps), "--steps");
  if (o.backend) config.set("run.backend", *o.backend, "--backend");
  choose_backend(app, config);
  if (app.resolve_defaults) app.resolve_defaults(config);
  config.check_files();
  const bool decomposed = decomposed_run(app, config);
  if (decomposed && (!o.shadow.empty() || !o.ab.empty() || !o.dump_steps.empty()))
    throw Error(std::string(!o.shadow.empty() ? "--shadow"
                            : !o.ab.empty()   ? "--ab"
                                              : "--dump-systems") +
                ": a one-process study; under mpiexec " + app.name + " splits its mesh over the " +
                std::to_string(run_ranks()) + " ranks (run it without mpiexec)");
  // A restart without the checkpoint this rank count reads, or with one that
  // is damaged, of another case or at or beyond run.steps, is refused here,
  // before the mesh is split or anything printed.
  if (!o.restart_dir.empty())
    check_restart(in.out_dir, app.name, config, decomposed ? run_rank() : 0, decomposed ? run_ranks() : 1);
  in.notes = check_run_keys(config, o);
  if (app.check_case)
    for (std::string& note : app.check_case(config, decomposed)) in.notes.push_back(std::move(note));
  return in;
}

// Under mpiexec every rank reads the same inputs and would print the same
// refusal: the lowest rank that failed prints it, once. Every rank calls this,
// failed or not (one reduction); returns whether any failed.
bool start_up_refusal(const MiniappDescription& app, const std::string& why) {
  const auto comm = solver_communicator();
  double lowest = why.empty() ? 0.0 : double(comm->size() - comm->rank());  // max over ranks: the lowest failed
  comm->space().reduce(nullptr, 0, &lowest, 1);
  if (!why.empty() && comm->size() - int(lowest) == comm->rank())
    std::fprintf(stderr, "%s: error: %s\n", app.name.c_str(), why.c_str());
  return lowest > 0.0;
}

}  // namespace

int run_miniapp(const MiniappDescription& app, int argc, const char* const* argv) {
  // Under mpiexec only rank 0 speaks on stdout (errors still reach stderr from
  // every rank); asking for the rank starts MPI when the program was launched
  // on several ranks (solvers/factory/solver_communicator.hpp).
  if (solver_communicator()->rank() != 0 && !std::freopen("/dev/null", "w", stdout))
    std::fprintf(stderr, "%s: cannot silence stdout on this rank\n", app.name.c_str());
  const double rss_at_start = process_memory().rss_mib;  // libraries and runtimes, MPI's included
  try {
    const CaseSchema schema = make_schema(app);
    std::optional<RunInputs> inputs;
    std::string refusal;
    try {
      inputs.emplace(read_inputs(app, schema, argc, argv));
      check_distributed_environment();
    } catch (const std::exception& e) {
      refusal = e.what();
    }
    if (start_up_refusal(app, bounded_message(refusal))) return 2;
    const RunOptions& o = inputs->options;
    CaseConfig& config = inputs->config;
    const fs::path& out_dir = inputs->out_dir;
    if (o.help) {
      std::printf("%s: %s\n\n%s\n%s\nSample runs:\n", app.name.c_str(), app.summary.c_str(),
                  command_line_usage(app.name).c_str(), exit_status_rule);
      for (const auto& line : app.samples) std::printf("  %s\n", line.c_str());
      std::printf("\nCase keys (TOML tables.keys) with their defaults:\n%s\n%s", schema.help().c_str(),
                  Registry::builtin().help().c_str());
      return 0;
    }
    // Every case key is in its domain by now; the case's cross-key checks run
    // as the simulation is built, and every solver is set up on its system:
    // all before the output folder exists (docs/harness.md, "Validated before
    // the first step").
    const std::vector<SolverToCheck> solvers = solvers_of_run(app, config, o);
    check_solvers_on_first_step(app, config, solvers);
    if (solver_communicator()->rank() == 0)
      for (const auto& note : inputs->notes) std::fprintf(stderr, "%s: note: %s\n", app.name.c_str(), note.c_str());
    if (!o.ab.empty()) return run_independent_study(app, config, o, out_dir, inputs->notes);
    LoopSettings s = settings_from(app, config, o, out_dir);
    s.restart = !o.restart_dir.empty();
    s.rss_at_start_mib = rss_at_start;
    s.notes = inputs->notes;
    print_options(app, o, s,
                  std::any_of(solvers.begin(), solvers.end(), [](const auto& x) { return asks_for_cuda(x.spec); }));
    return run_single(app, config, o, s);
  } catch (const StepFailure& e) {
    std::fprintf(stderr, "%s: error: %s\n", app.name.c_str(), bounded_message(e.what()).c_str());
    return 1;
  } catch (const OutputFailure& e) {
    std::fprintf(stderr, "%s: error: an output failed, the run stopped: %s\n", app.name.c_str(),
                 bounded_message(e.what()).c_str());
    return 1;
  } catch (const Error& e) {
    std::fprintf(stderr, "%s: error: %s\n", app.name.c_str(), bounded_message(e.what()).c_str());
    return 2;
  } catch (const std::bad_alloc&) {
    // What the case checks estimate beforehand; an allocation refused past them is the run's failure.
    std::fprintf(stderr,
                 "%s: error: out of memory (std::bad_alloc): the case needs more memory than this process "
                 "could allocate; a smaller grid or mesh, or more nodes under mpiexec\n",
                 app.name.c_str());
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: error: %s\n", app.name.c_str(), bounded_message(e.what()).c_str());
    return 2;
  }
}

}  // namespace tb::harness
