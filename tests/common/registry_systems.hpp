#pragma once
// The linear systems of a physics test: one registry solver per declared
// system (its specification by the system's name, or a default), set up on
// the first solve and updated after (or set up on every solve), with nothing
// of a run around it (no records, autopilots or accounting).
#include <functional>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "solvers/factory/registry.hpp"
#include "solvers/systems/linear_systems.hpp"

namespace tb::test {

class RegistrySystems : public systems::SystemRegistry, public systems::LinearSystems {
 public:
  // specs: system name -> specification; a name not there takes `fallback`.
  explicit RegistrySystems(std::map<std::string, std::string> specs = {},
                           std::string fallback = "bicgstab(rtol=1e-12,maxit=5000)+jacobi",
                           bool setup_every_solve = false)
      : specs_(std::move(specs)), fallback_(std::move(fallback)), setup_every_solve_(setup_every_solve) {}

  systems::SystemId declare(const systems::SystemDeclaration& d) override {
    declarations_.push_back(d);
    solvers_.emplace_back();
    return systems::SystemId(int(declarations_.size()) - 1);
  }
  SolveStats solve(systems::SystemId s, const BsrMatrix& a, std::span<const double> b, std::span<double> x) override {
    auto& solver = solvers_.at(std::size_t(s.index()));
    if (!solver) {
      const auto it = specs_.find(name(s));
      solver = make_solver(it == specs_.end() ? fallback_ : it->second);
      solver->setup(a);
    } else if (setup_every_solve_) {
      solver->setup(a);
    } else {
      solver->update(a);
    }
    const int cap = caps_.count(s.index()) ? caps_.at(s.index()) : 0;
    if (cap > 0) solver->limit({cap, 0.0});
    SolveStats st = solver->solve(b, x);
    if (cap > 0) solver->limit({});
    ++solves_;
    if (on_solve) on_solve(name(s), b, st);
    return st;
  }
  void precondition_outer(systems::SystemId s, bool on, int max_iterations) override {
    caps_[s.index()] = on ? max_iterations : 0;
  }

  const std::string& name(systems::SystemId s) const { return declarations_.at(std::size_t(s.index())).name; }
  // The declaration of the system of that name.
  const systems::SystemDeclaration& declaration(const std::string& name) const {
    for (const auto& d : declarations_)
      if (d.name == name) return d;
    throw std::out_of_range("no system '" + name + "' declared");
  }
  long solves() const { return solves_; }
  // Called after each solve with the system's name, its right-hand side and its statistics (a test's spy).
  std::function<void(const std::string& name, std::span<const double> b, const SolveStats& st)> on_solve;

 private:
  std::map<std::string, std::string> specs_;
  std::string fallback_;
  bool setup_every_solve_;
  std::vector<systems::SystemDeclaration> declarations_;
  std::vector<std::unique_ptr<LinearSolver>> solvers_;
  std::map<int, int> caps_;
  long solves_ = 0;
};

}  // namespace tb::test
