#include "system_solvers.hpp"

#include <algorithm>
#include <cstdint>

#define XXH_INLINE_ALL  // header-only: nothing to link, also on a bare CUDA machine
#include <xxhash.h>

#include "solvers/core/error.hpp"
#include "solvers/core/timer.hpp"
#include "solvers/factory/partitioned_solver.hpp"
#include "solvers/factory/registry.hpp"
#include "solvers/matrix/matrix_market.hpp"
#include "step_table.hpp"

namespace tb::harness {

bool accepted_solve(const SolveStats& s, bool accepts_iteration_limit) {
  return s.converged() ||
         (accepts_iteration_limit && s.reason == StopReason::max_iterations && s.final_residual < s.initial_residual);
}

void SolverTotals::add(const SolveStats& s, bool accepted) {
  ++solves;
  iterations += s.iterations;
  failures += accepted ? 0 : 1;
  setup_seconds += s.setup_seconds;
  solve_seconds += s.solve_seconds;
}

std::string system_checksum(const BsrMatrix& a, std::span<const double> b, std::span<const double> x0) {
  XXH3_state_t state;
  XXH3_64bits_reset(&state);
  XXH3_64bits_update(&state, a.values.data(), a.values.size() * sizeof(double));
  XXH3_64bits_update(&state, b.data(), b.size_bytes());
  XXH3_64bits_update(&state, x0.data(), x0.size_bytes());
  return format_hex(XXH3_64bits_digest(&state));
}

std::string folded_checksum(std::span<const std::string> checksums) {
  if (checksums.size() == 1 || std::all_of(checksums.begin(), checksums.end(), [](const auto& c) { return c == "-"; }))
    return checksums.empty() ? "-" : checksums.front();
  XXH3_state_t state;
  XXH3_64bits_reset(&state);
  for (const auto& c : checksums) XXH3_64bits_update(&state, c.data(), c.size());
  return format_hex(XXH3_64bits_digest(&state));
}

SystemSolvers::SystemSolvers(const std::vector<std::string>& systems,
                             const std::map<std::string, std::string>& driver_specs,
                             const std::vector<StudySpec>& shadows, bool decomposed)
    : systems_(systems), shadows_(shadows), shadow_slots_(shadows.size()), shadow_records_(shadows.size()) {
  if (decomposed && !shadows.empty())
    throw Error("--shadow: shadow solvers run on one process; a run on several ranks takes none");
  // Build every solver now: a bad specification fails before the first step.
  for (const auto& s : systems_) {
    auto it = driver_specs.find(s);
    if (it == driver_specs.end()) throw Error("no solver specification for linear system '" + s + "'");
    if (decomposed && is_autopilot_spec(it->second)) throw Error("solver." + s + ": " + autopilot_on_ranks_refusal);
    if (is_autopilot_spec(it->second))
      autopilots_[s] = std::make_unique<AutopilotSlot>(s, parse_autopilot_spec(it->second));
    else {
      drivers_[s].solver = decomposed ? make_partitioned_solver(it->second) : make_solver(it->second);
      drivers_[s].spans_ranks = decomposed;
    }
  }
  for (std::size_t i = 0; i < shadows_.size(); ++i)
    for (const auto& s : systems_)
      if (shadows_[i].system.empty() || shadows_[i].system == s)
        shadow_slots_[i][s].solver = make_solver(shadows_[i].spec);
}

void SystemSolvers::take_split_rows(const std::string& system, dist::OffRankRows off) {
  SolverSlot& slot = driver(system);
  if (!slot.spans_ranks || !tb::take_split_rows(*slot.solver, off))
    throw Error("internal: split rows for system '" + system + "' of a run that is not decomposed");
}

void SystemSolvers::dump_steps(std::filesystem::path dir, std::vector<long> steps) {
  dump_dir_ = std::move(dir);
  dump_steps_ = std::move(steps);
}

void SystemSolvers::begin_step(long step) {
  step_ = step;
  bookkeeping_seconds_ = 0.0;
  driver_records_.clear();
  for (auto& r : shadow_records_) r.clear();
  for (auto& [system, ap] : autopilots_) ap->begin_step(step);
}

void SystemSolvers::end_step(double cfl, double residual_factor) {
  for (auto& [system, ap] : autopilots_) ap->end_step(cfl, residual_factor);
}

void SystemSolvers::plan_steps(long steps) {
  for (auto& [system, ap] : autopilots_) ap->plan_steps(steps);
}

double SystemSolvers::probe_seconds() const {
  double s = 0.0;
  for (const auto& [system, ap] : autopilots_) s += ap->step_probe_seconds();
  return s;
}

std::vector<AutopilotReport> SystemSolvers::autopilot_reports() const {
  std::vector<AutopilotReport> reports;
  for (const auto& [system, ap] : autopilots_) reports.push_back(ap->report());
  return reports;
}

// "autopilot SYSTEM BYTES\n" then that many bytes of the slot's state, per system.
std::string SystemSolvers::save_autopilots() const {
  std::string out;
  for (const auto& [system, ap] : autopilots_) {
    const std::string state = ap->save();
    out += "autopilot " + system + " " + std::to_string(state.size()) + "\n" + state;
  }
  return out;
}

void SystemSolvers::load_autopilots(const std::string& state) {
  std::size_t at = 0;
  std::size_t loaded = 0;
  while (at < state.size()) {
    const auto eol = state.find('\n', at);
    char system[256] = {};
    std::size_t bytes = 0;
    if (eol == std::string::npos ||
        std::sscanf(state.substr(at, eol - at).c_str(), "autopilot %255s %zu", system, &bytes) != 2)
      throw Error("the checkpoint's autopilot state is damaged");
    auto it = autopilots_.find(system);
    if (it == autopilots_.end())
      throw Error(std::string("the checkpoint has an autopilot for system '") + system + "', the case has none");
    it->second->load(state.substr(eol + 1, bytes));
    at = eol + 1 + bytes;
    ++loaded;
  }
  if (loaded != autopilots_.size()) throw Error("the checkpoint has no autopilot state for this case's autopilot");
}

void SystemSolvers::measure_progress(const std::string& system, AutopilotSlot::Progress progress) {
  if (auto it = autopilots_.find(system); it != autopilots_.end()) it->second->measure_progress(std::move(progress));
}

void SystemSolvers::accept_iteration_limit(const std::string& system) {
  limit_accepted_.push_back(system);
  if (auto it = autopilots_.find(system); it != autopilots_.end()) it->second->accept_iteration_limit();
}

SolveRecord SystemSolvers::record(const std::string& system, SolveStats st, const std::string& checksum) const {
  const bool limit_ok = std::find(limit_accepted_.begin(), limit_accepted_.end(), system) != limit_accepted_.end();
  SolveRecord r{system, std::move(st), checksum};
  r.accepted = accepted_solve(r.stats, limit_ok);
  return r;
}

SolverSlot& SystemSolvers::driver(const std::string& system) {
  auto it = drivers_.find(system);
  if (it == drivers_.end()) throw Error("internal: the physics solved an undeclared linear system '" + system + "'");
  return it->second;
}

void SystemSolvers::cap_iterations(const std::string& system, int max_iterations) {
  if (max_iterations < 0)
    throw Error("internal: an iteration cap of " + std::to_string(max_iterations) + " on system '" + system + "'");
  if (auto ap = autopilots_.find(system); ap != autopilots_.end()) {
    ap->second->cap_iterations(max_iterations);
    return;
  }
  driver(system).iteration_cap = max_iterations;
  for (auto& slots : shadow_slots_)
    if (auto it = slots.find(system); it != slots.end()) it->second.iteration_cap = max_iterations;
}

SolveStats SystemSolvers::solve(const std::string& system, const BsrMatrix& a, std::span<const double> b,
                                std::span<double> x) {
  if (!autopilots_.count(system)) driver(system);  // an undeclared system fails before any work
  WallTimer bookkeeping;
  const bool dump = std::find(dump_steps_.begin(), dump_steps_.end(), step_) != dump_steps_.end();
  const std::string checksum = checksums_ || dump || !shadows_.empty() ? system_checksum(a, b, x) : "-";
  if (dump) {
    std::filesystem::create_directories(dump_dir_);
    const std::string stem = (dump_dir_ / ("step" + std::to_string(step_) + "-" + system)).string();
    const std::string note = "step " + std::to_string(step_) + ", system " + system + ", checksum " + checksum;
    write_matrix_market(stem + "-A.mtx", a, note);
    write_matrix_market_vector(stem + "-b.mtx", b, note);
    write_matrix_market_vector(stem + "-x0.mtx", x, note);
  }
  bookkeeping_seconds_ += bookkeeping.seconds();
  // Shadows first, from the same initial guess the driver starts from.
  for (std::size_t i = 0; i < shadow_slots_.size(); ++i) {
    auto it = shadow_slots_[i].find(system);
    if (it == shadow_slots_[i].end()) continue;
    shadow_x_.assign(x.begin(), x.end());
    SolveStats st = it->second.run(a, b, shadow_x_);
    shadow_records_[i].push_back(record(system, std::move(st), checksum));
  }
  if (auto ap = autopilots_.find(system); ap != autopilots_.end()) {
    SolveStats st = ap->second->solve(a, b, x);
    SolveRecord r = record(system, st, checksum);
    r.candidate = ap->second->solved_by(), r.probe = ap->second->probing();
    driver_records_.push_back(std::move(r));
    return st;
  }
  SolveStats st = driver(system).run(a, b, x);
  driver_records_.push_back(record(system, st, checksum));
  return st;
}

}  // namespace tb::harness
