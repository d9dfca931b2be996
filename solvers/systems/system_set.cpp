#include "system_set.hpp"

#include <algorithm>
#include <cstdio>
#include <optional>

#include "solvers/core/error.hpp"
#include "solvers/factory/partitioned_solver.hpp"
#include "solvers/factory/registry.hpp"
#include "solvers/matrix/matrix_market.hpp"
#include "solvers/systems/checksum.hpp"

namespace tb::systems {

bool accepted_solve(const SolveStats& s, bool accepts_iteration_limit) {
  return s.converged() ||
         (accepts_iteration_limit && s.reason == StopReason::max_iterations && s.final_residual < s.initial_residual);
}

void SolverTotals::add(const SolveStats& s, bool accepted) {
  ++solves;
  iterations += s.iterations;
  failures += accepted ? 0 : 1;
  at_limit += accepted && !s.converged() ? 1 : 0;
  setup_seconds += s.setup_seconds;
  solve_seconds += s.solve_seconds;
}

// One declared system: its driver (a solver slot, or an autopilot over
// candidates) and a slot per shadow that solves it.
struct SystemSet::System {
  SystemDeclaration declaration;
  SolverSlot driver;                                 // without an autopilot
  std::unique_ptr<AutopilotSlot> autopilot;          // where the specification is one
  std::vector<std::unique_ptr<SolverSlot>> shadows;  // [shadow index], null where that shadow is for another system
  bool preconditions = false;                        // LinearSystems::precondition_outer
  std::unique_ptr<SystemMatrix> matrix;              // where values are written on the device (set_pattern)
};

SystemSet::SystemSet(SystemSetOptions options)
    : options_(std::move(options)), shadows_(options_.shadows), shadow_records_(shadows_.size()) {
  if (options_.decomposed && !shadows_.empty())
    throw Error("--shadow: shadow solvers run on one process; a run on several ranks takes none");
}

SystemSet::~SystemSet() = default;

SystemId SystemSet::declare(const SystemDeclaration& d) {
  auto sys = std::make_unique<System>();
  sys->declaration = d;
  const auto it = options_.specs.find(d.name);
  if (it == options_.specs.end()) throw Error("no solver specification for linear system '" + d.name + "'");
  const std::string& spec = it->second;
  // Every solver is built now: a bad specification fails before the first step.
  if (options_.decomposed && is_autopilot_spec(spec))
    throw Error("solver." + d.name + ": " + autopilot_on_ranks_refusal);
  if (is_autopilot_spec(spec)) {
    sys->autopilot = std::make_unique<AutopilotSlot>(d.name, parse_autopilot_spec(spec));
    sys->autopilot->use_clock(&clock_);
    if (d.accepts_iteration_limit) sys->autopilot->accept_iteration_limit();
    sys->autopilot->measure_progress(d.probe);
  } else {
    sys->driver.solver =
        options_.decomposed ? make_partitioned_solver(spec, options_.resident_drivers) : make_solver(spec);
    // A time loop reads a solve's ends, not its history (which a device copies back).
    sys->driver.solver->record_history(false);
    sys->driver.spans_ranks = options_.decomposed;
    sys->driver.clock = &clock_;
    if (d.split_rows.blocks && (!options_.decomposed || !take_split_rows(*sys->driver.solver, d.split_rows)))
      throw Error("internal: split rows for system '" + d.name + "' of a run that is not decomposed");
  }
  for (const ShadowSpec& shadow : shadows_) {
    std::unique_ptr<SolverSlot> slot;
    if (shadow.system.empty() || shadow.system == d.name) {
      slot = std::make_unique<SolverSlot>();
      slot->solver = make_solver(shadow.spec);
    }
    sys->shadows.push_back(std::move(slot));
  }
  systems_.push_back(std::move(sys));
  return SystemId(int(systems_.size()) - 1);
}

SystemSet::System& SystemSet::at(SystemId s) {
  if (s.index() < 0 || s.index() >= int(systems_.size()))
    throw Error("internal: the physics solved an undeclared linear system (id " + std::to_string(s.index()) + ")");
  return *systems_[std::size_t(s.index())];
}

const std::string& SystemSet::name(SystemId s) const { return systems_.at(std::size_t(s.index()))->declaration.name; }

void SystemSet::dump_steps(std::filesystem::path dir, std::vector<long> steps) {
  dump_dir_ = std::move(dir);
  dump_steps_ = std::move(steps);
}

void SystemSet::begin_step(long step) {
  step_ = step;
  driver_records_.clear();
  for (auto& r : shadow_records_) r.clear();
  for (auto& sys : systems_)
    if (sys->autopilot) sys->autopilot->begin_step(step);
}

void SystemSet::end_step(double cfl, double residual_factor) {
  for (auto& sys : systems_)
    if (sys->autopilot) sys->autopilot->end_step(cfl, residual_factor);
}

void SystemSet::plan_steps(long steps) {
  for (auto& sys : systems_)
    if (sys->autopilot) sys->autopilot->plan_steps(steps);
}

double SystemSet::probe_seconds() const {
  double s = 0.0;
  for (const auto& sys : systems_)
    if (sys->autopilot) s += sys->autopilot->step_probe_seconds();
  return s;
}

std::vector<AutopilotReport> SystemSet::autopilot_reports() const {
  std::vector<AutopilotReport> reports;
  for (const auto& sys : systems_)
    if (sys->autopilot) reports.push_back(sys->autopilot->report());
  return reports;
}

// "autopilot SYSTEM BYTES\n" then that many bytes of the slot's state, per
// system, in the order of their names (as the checkpoints have always had them).
std::string SystemSet::save_autopilots() const {
  std::map<std::string, const AutopilotSlot*> by_name;
  for (const auto& sys : systems_)
    if (sys->autopilot) by_name[sys->declaration.name] = sys->autopilot.get();
  std::string out;
  for (const auto& [system, ap] : by_name) {
    const std::string state = ap->save();
    out += "autopilot " + system + " " + std::to_string(state.size()) + "\n" + state;
  }
  return out;
}

void SystemSet::load_autopilots(const std::string& state) {
  std::size_t at = 0;
  std::size_t loaded = 0;
  std::size_t autopilots = 0;
  for (const auto& sys : systems_) autopilots += sys->autopilot ? 1 : 0;
  while (at < state.size()) {
    const auto eol = state.find('\n', at);
    char system[256] = {};
    std::size_t bytes = 0;
    if (eol == std::string::npos ||
        std::sscanf(state.substr(at, eol - at).c_str(), "autopilot %255s %zu", system, &bytes) != 2)
      throw Error("the checkpoint's autopilot state is damaged");
    const auto it = std::find_if(systems_.begin(), systems_.end(),
                                 [&](const auto& sys) { return sys->autopilot && sys->declaration.name == system; });
    if (it == systems_.end())
      throw Error(std::string("the checkpoint has an autopilot for system '") + system + "', the case has none");
    (*it)->autopilot->load(state.substr(eol + 1, bytes));
    at = eol + 1 + bytes;
    ++loaded;
  }
  if (loaded != autopilots) throw Error("the checkpoint has no autopilot state for this case's autopilot");
}

SolveRecord SystemSet::record(const System& sys, SolveStats st, const std::string& checksum) const {
  SolveRecord r{sys.declaration.name, std::move(st), checksum};
  // A capped solve (precondition_outer) stopped at its cap is its caller's to
  // judge: an outer iteration's preconditioner, a projection's correction.
  r.accepted = accepted_solve(r.stats, sys.declaration.accepts_iteration_limit) ||
               (sys.preconditions && r.stats.reason == StopReason::max_iterations);
  return r;
}

void SystemSet::precondition_outer(SystemId s, bool on, int max_iterations) {
  System& sys = at(s);
  if (max_iterations < 0)
    throw Error("internal: an iteration cap of " + std::to_string(max_iterations) + " on system '" +
                sys.declaration.name + "'");
  sys.preconditions = on;
  const int cap = on ? max_iterations : 0;
  if (sys.autopilot) {
    sys.autopilot->cap_iterations(cap);
    return;
  }
  sys.driver.iteration_cap = cap;
  // The outer iteration judges what a preconditioning solve returns: its true residual would be read and never used.
  sys.driver.solver->recompute_final_residual(!on);
  for (auto& slot : sys.shadows)
    if (slot) slot->iteration_cap = cap;
}

SystemMatrix& SystemSet::matrix_of(System& sys) {
  if (!sys.matrix) {
    if (!options_.device_storage) {
      if (!own_storage_) own_storage_ = cuda_storage();
      options_.device_storage = own_storage_.get();
    }
    sys.matrix = std::make_unique<SystemMatrix>(*options_.device_storage);
  }
  return *sys.matrix;
}

void SystemSet::set_pattern(SystemId s, const BsrMatrix& pattern) {
  System& sys = at(s);
  SystemMatrix& m = matrix_of(sys);
  const dist::OffRankRows& split = sys.declaration.split_rows;
  if (!split.blocks) return m.set_pattern(pattern);
  // Split rows: the off-rank blocks move with the values, and the driver
  // reads them where the matrix keeps them from its next set-up on (on the
  // device in place, where it refreshes there).
  m.set_pattern(pattern, *split.blocks);
  if (sys.driver.solver)
    take_split_rows(*sys.driver.solver, {&m.off_rank_on_host(), split.ghost_columns, m.off_rank_on_device()});
}

DeviceValues SystemSet::device_values(SystemId s) { return matrix_of(at(s)).device_values(); }

void SystemSet::values_written(SystemId s) { matrix_of(at(s)).values_written_on_device(); }

bool SystemSet::through_host(const System& sys) const {
  const bool dump = std::find(dump_steps_.begin(), dump_steps_.end(), step_) != dump_steps_.end();
  return sys.autopilot || !shadows_.empty() || checksums_ || dump;
}

SolveStats SystemSet::solve(SystemId s, std::span<const double> b, std::span<double> x) {
  System& sys = at(s);
  SystemMatrix& m = matrix_of(sys);
  if (through_host(sys)) {
    const Generations by = m.generations();
    const BsrMatrix* a = nullptr;
    {
      // Bringing the values to the solvers' side is part of their set-up.
      const StepClock::Scope setup(clock_, Account::linear_setup);
      a = &m.on_host();
    }
    return solve(sys, *a, b, x, &by);
  }
  return driver_solved(sys, sys.driver.run(m, b, x), "-");
}

SolveStats SystemSet::solve(SystemId s, const Vector& b, Vector& x) {
  System& sys = at(s);
  SystemMatrix& m = matrix_of(sys);
  if (through_host(sys)) {
    std::vector<double> bh, xh;
    {
      const StepClock::Scope setup(clock_, Account::linear_solve);
      bh = b.to_host(), xh = x.to_host();
    }
    const SolveStats st = solve(s, std::span<const double>(bh), std::span<double>(xh));
    const StepClock::Scope setup(clock_, Account::linear_solve);
    x.copy_from_host(xh);
    return st;
  }
  return driver_solved(sys, sys.driver.run(m, b, x), "-");
}

SolveStats SystemSet::solve(SystemId s, const BsrMatrix& a, std::span<const double> b, std::span<double> x) {
  return solve(at(s), a, b, x, nullptr);
}

SolveStats SystemSet::solve(System& sys, const BsrMatrix& a, std::span<const double> b, std::span<double> x,
                            const Generations* by) {
  const std::string& name = sys.declaration.name;
  std::optional<StepClock::Scope> bookkeeping(std::in_place, clock_, Account::harness);
  const bool dump = std::find(dump_steps_.begin(), dump_steps_.end(), step_) != dump_steps_.end();
  const std::string checksum = checksums_ || dump || !shadows_.empty() ? system_checksum(a, b, x) : "-";
  if (dump) {
    std::filesystem::create_directories(dump_dir_);
    const std::string stem = (dump_dir_ / ("step" + std::to_string(step_) + "-" + name)).string();
    const std::string note = "step " + std::to_string(step_) + ", system " + name + ", checksum " + checksum;
    write_matrix_market(stem + "-A.mtx", a, note);
    write_matrix_market_vector(stem + "-b.mtx", b, note);
    write_matrix_market_vector(stem + "-x0.mtx", x, note);
  }
  bookkeeping.reset();
  // Shadows first, from the same initial guess the driver starts from.
  for (std::size_t i = 0; i < sys.shadows.size(); ++i) {
    if (!sys.shadows[i]) continue;
    const StepClock::Scope shadow(clock_, Account::shadow);
    shadow_x_.assign(x.begin(), x.end());
    SolveStats st = sys.shadows[i]->run(a, b, shadow_x_, {}, by);
    shadow_records_[i].push_back(record(sys, std::move(st), checksum));
  }
  if (!sys.autopilot) return driver_solved(sys, sys.driver.run(a, b, x, {}, by), checksum);
  const SolveStats st = sys.autopilot->solve(a, b, x);
  SolveRecord r = record(sys, st, checksum);
  r.candidate = sys.autopilot->solved_by(), r.probe = sys.autopilot->probing();
  driver_records_.push_back(std::move(r));
  warn_unconverged(sys, st);
  return st;
}

SolveStats SystemSet::driver_solved(System& sys, SolveStats st, const std::string& checksum) {
  driver_records_.push_back(record(sys, st, checksum));
  warn_unconverged(sys, st);
  return st;
}

// Only a failed solve (the record just pushed, not accepted) is reported:
// SolverTotals' one rule for a solve at its limit. An outer iteration's
// preconditioner solve is the outer iteration's to judge.
void SystemSet::warn_unconverged(const System& sys, const SolveStats& st) const {
  if (!driver_records_.back().accepted && options_.speaks && !sys.preconditions)
    std::fprintf(stderr, "%s: step %ld: the %s solve did not converge: %s\n", options_.program.c_str(), step_,
                 sys.declaration.name.c_str(), st.line().c_str());
}

}  // namespace tb::systems
