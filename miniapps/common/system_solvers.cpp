#include "system_solvers.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>

#include "solvers/core/error.hpp"
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
  std::uint64_t h = 0xcbf29ce484222325ull;
  auto mix = [&](const void* data, std::size_t bytes) {
    const auto* p = static_cast<const unsigned char*>(data);
    for (std::size_t i = 0; i < bytes; ++i) h = (h ^ p[i]) * 0x100000001b3ull;
  };
  mix(a.values.data(), a.values.size() * sizeof(double));
  mix(b.data(), b.size_bytes());
  mix(x0.data(), x0.size_bytes());
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
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
      if (shadows_[i].system.empty() || shadows_[i].system == s) shadow_slots_[i][s].solver = make_solver(shadows_[i].spec);
}

void SystemSolvers::dump_steps(std::filesystem::path dir, std::vector<long> steps) {
  dump_dir_ = std::move(dir);
  dump_steps_ = std::move(steps);
}

void SystemSolvers::begin_step(long step) {
  step_ = step;
  driver_records_.clear();
  for (auto& r : shadow_records_) r.clear();
}

SolveStats SystemSolvers::Slot::run(const BsrMatrix& a, std::span<const double> b, std::span<double> x) {
  if (a.row_ptr != row_ptr || a.col_idx != col_idx) {
    solver->setup(a);
    row_ptr = a.row_ptr;
    col_idx = a.col_idx;
  } else {
    solver->update(a);
  }
  return solver->solve(b, x);
}

SystemSolvers::Slot& SystemSolvers::driver(const std::string& system) {
  auto it = drivers_.find(system);
  if (it == drivers_.end()) throw Error("internal: the physics solved an undeclared linear system '" + system + "'");
  return it->second;
}

SolveStats SystemSolvers::solve(const std::string& system, const BsrMatrix& a, std::span<const double> b,
                                std::span<double> x) {
  Slot& slot = driver(system);
  const std::string checksum = system_checksum(a, b, x);
  if (std::find(dump_steps_.begin(), dump_steps_.end(), step_) != dump_steps_.end()) {
    std::filesystem::create_directories(dump_dir_);
    const std::string stem = (dump_dir_ / ("step" + std::to_string(step_) + "-" + system)).string();
    const std::string note = "step " + std::to_string(step_) + ", system " + system + ", checksum " + checksum;
    write_matrix_market(stem + "-A.mtx", a, note);
    write_matrix_market_vector(stem + "-b.mtx", b, note);
    write_matrix_market_vector(stem + "-x0.mtx", x, note);
  }
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
