#include "system_solvers.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>

#define XXH_INLINE_ALL  // header-only: nothing to link, also on a bare CUDA machine
#include <xxhash.h>

#include "solvers/core/error.hpp"
#include "solvers/core/timer.hpp"
#include "solvers/factory/registry.hpp"
#include "solvers/matrix/matrix_market.hpp"

namespace tb::harness {

void SolverTotals::add(const SolveStats& s) {
  ++solves;
  iterations += s.iterations;
  failures += s.converged() ? 0 : 1;
  setup_seconds += s.setup_seconds;
  solve_seconds += s.solve_seconds;
}

std::string system_checksum(const BsrMatrix& a, std::span<const double> b, std::span<const double> x0) {
  XXH3_state_t state;
  XXH3_64bits_reset(&state);
  XXH3_64bits_update(&state, a.values.data(), a.values.size() * sizeof(double));
  XXH3_64bits_update(&state, b.data(), b.size_bytes());
  XXH3_64bits_update(&state, x0.data(), x0.size_bytes());
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(XXH3_64bits_digest(&state)));
  return buf;
}

SystemSolvers::SystemSolvers(const std::vector<std::string>& systems,
                             const std::map<std::string, std::string>& driver_specs,
                             const std::vector<StudySpec>& shadows)
    : systems_(systems), shadows_(shadows), shadow_slots_(shadows.size()), shadow_records_(shadows.size()) {
  // Build every solver now: a bad specification fails before the first step.
  for (const auto& s : systems_) {
    auto it = driver_specs.find(s);
    if (it == driver_specs.end()) throw Error("no solver specification for linear system '" + s + "'");
    drivers_[s].solver = make_solver(it->second);
  }
  for (std::size_t i = 0; i < shadows_.size(); ++i)
    for (const auto& s : systems_)
      if (shadows_[i].system.empty() || shadows_[i].system == s)
        shadow_slots_[i][s].solver = make_solver(shadows_[i].spec);
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
}

// Symbolic set-up on a new pattern, numeric update on new values, nothing when
// the values are the ones already factored: a constant matrix (tb-incomp's and
// tb-ib's pressure Poisson) is factored once. The values are kept for that test
// only while they have never changed; the first change drops them, so a matrix
// that changes every step costs one comparison that stops at its first entry.
SolveStats SystemSolvers::Slot::run(const BsrMatrix& a, std::span<const double> b, std::span<double> x) {
  bool refreshed = true;
  if (a.row_ptr != row_ptr || a.col_idx != col_idx) {
    solver->setup(a);
    row_ptr = a.row_ptr;
    col_idx = a.col_idx;
    constant_values = a.values;
    values_vary = false;
  } else if (values_vary || a.values != constant_values) {
    solver->update(a);
    if (!values_vary) std::vector<double>().swap(constant_values);
    values_vary = true;
  } else {
    refreshed = false;
  }
  SolveStats st = solver->solve(b, x);
  if (!refreshed) st.setup_seconds = 0.0;  // the solver reports its last set-up otherwise
  return st;
}

SystemSolvers::Slot& SystemSolvers::driver(const std::string& system) {
  auto it = drivers_.find(system);
  if (it == drivers_.end()) throw Error("internal: the physics solved an undeclared linear system '" + system + "'");
  return it->second;
}

SolveStats SystemSolvers::solve(const std::string& system, const BsrMatrix& a, std::span<const double> b,
                                std::span<double> x) {
  Slot& slot = driver(system);
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
    shadow_records_[i].push_back({system, std::move(st), checksum});
  }
  SolveStats st = slot.run(a, b, x);
  driver_records_.push_back({system, st, checksum});
  return st;
}

}  // namespace tb::harness
