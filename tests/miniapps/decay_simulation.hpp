#pragma once
// A small implicit time loop for harness tests: backward-Euler steps of a
// coupled convection-diffusion-reaction system (the stencil7 generator),
// (s I + K_n) u^{n+1} = s u^n + f, whose operator values change a little each
// step so that the numeric-update path is exercised. It decays to the steady
// solution of K u = f.
#include <cmath>
#include <filesystem>
#include <fstream>
#include <istream>
#include <ostream>

#include "miniapps/common/simulation.hpp"
#include "physics/step_failure.hpp"
#include "solvers/core/error.hpp"
#include "solvers/matrix/generate.hpp"

namespace tb::test {

class DecaySimulation final : public harness::Simulation {
 public:
  explicit DecaySimulation(index_t nx = 5) {
    Stencil7Params p;
    p.nx = nx, p.ny = 4, p.nz = 3, p.block_size = 2, p.dt = 1e6;  // the generator's own mass term is negligible
    base_ = generate_stencil7(p);
    a_ = base_;
    u_.assign(std::size_t(base_.rows()), 0.0);
    f_.assign(u_.size(), 1.0);
    b_.resize(u_.size());
  }
  void declare_systems(systems::SystemRegistry& registry) override {
    systems::SystemDeclaration d = systems::SystemDeclaration::named("heat");
    d.accepts_iteration_limit = inexact;
    heat_ = registry.declare(d);
  }

  harness::StepResult advance(systems::LinearSystems& solvers) override {
    ++step_;
    if (step_ == fail_at_step) throw StepFailure("step " + std::to_string(step_) + ": made to fail");
    const double scale = 1.0 + 0.01 / double(step_ * step_);  // changes every step, settles for a steady state
    const std::vector<index_t> diag = base_.diagonal_positions();
    const index_t n = base_.block_size;
    for (std::size_t k = 0; k < a_.values.size(); ++k) a_.values[k] = scale * base_.values[k];
    for (index_t i = 0; i < base_.block_rows; ++i)
      for (index_t c = 0; c < n; ++c) a_.block(diag[i])[c * n + c] += mass_;
    for (std::size_t i = 0; i < u_.size(); ++i) b_[i] = mass_ * u_[i] + f_[i];
    std::vector<double> x = u_;
    const long solves = solves_per_step + long(more_solves_each_step) * (step_ - 1);
    for (long s = 0; s < solves; ++s) {  // the same system again, as a matrix-free step's preconditioner
      x = u_;
      if (iteration_cap > 0) solvers.precondition_outer(heat_, true, iteration_cap);
      solvers.solve(heat_, a_, b_, x);
    }
    double change = 0.0;
    if (grow_from > 0 && step_ >= grow_from)
      for (double& v : x) v = v * growth + (growth == growth ? 0.0 : growth);  // NaN growth poisons every value
    for (std::size_t i = 0; i < u_.size(); ++i) change = std::max(change, std::abs(x[i] - u_[i]));
    if (x[0] != x[0]) change = x[0];  // a NaN state has a NaN change
    u_ = x;
    time_ += dt_;
    last_change_ = change;
    return {time_, dt_, std::nan(""), {{"du", change}}};
  }
  bool steady_state_reached() const override { return last_change_ < steady_tol; }
  bool must_converge() const override { return converge; }
  std::vector<std::pair<std::string, double>> state_magnitudes() const override {
    return {{"max |u|", harness::max_magnitude(u_)}};
  }
  // fields/u_<step>.txt: the state, one value a line (what a blown-up run leaves).
  void write_fields(const std::filesystem::path& dir, long step) override {
    std::filesystem::create_directories(dir / "fields");
    std::ofstream out(dir / "fields" / ("u_" + std::to_string(step) + ".txt"));
    out.precision(17);
    for (double v : u_) out << v << "\n";
  }
  long fail_at_step = 0;          // throw StepFailure at this step (0: never)
  int solves_per_step = 1;        // the step's system solved this many times (the last solution is the step's)
  int more_solves_each_step = 0;  // step k solves it solves_per_step + (k - 1) x this times
  long grow_from = 0;             // from this step on (0: never) the state is multiplied by growth
  double growth = 1.0;
  bool converge = false;  // must_converge()
  bool inexact = false;   // SystemDeclaration::accepts_iteration_limit (set before the run)
  int iteration_cap = 0;  // LinearSystems::precondition_outer before each solve (0: none)
  bool keeps_own_state = false;
  mutable long saves = 0;
  void save_state(std::ostream& out) const override {
    ++saves;
    out.write(reinterpret_cast<const char*>(&step_), sizeof step_);
    out.write(reinterpret_cast<const char*>(&time_), sizeof time_);
    out.write(reinterpret_cast<const char*>(u_.data()), std::streamsize(u_.size() * sizeof(double)));
  }
  void load_state(std::istream& in) override {
    in.read(reinterpret_cast<char*>(&step_), sizeof step_);
    in.read(reinterpret_cast<char*>(&time_), sizeof time_);
    in.read(reinterpret_cast<char*>(u_.data()), std::streamsize(u_.size() * sizeof(double)));
  }
  // keeps_own_state: the state kept beside it (as a device-resident step does)
  // instead of save_state's bytes; saves counts the calls of save_state.
  bool keep_state() override {
    if (!keeps_own_state) return false;
    kept_u_ = u_;
    kept_step_ = step_, kept_time_ = time_;
    return true;
  }
  void restore_kept_state() override { u_ = kept_u_, step_ = kept_step_, time_ = kept_time_; }
  std::vector<std::pair<std::string, double>> figures_of_merit() const override { return {{"u_mean", mean()}}; }

  const std::vector<double>& state() const { return u_; }
  double mean() const {
    double s = 0.0;
    for (double v : u_) s += v;
    return s / double(u_.size());
  }
  double steady_tol = 0.0;

 private:
  BsrMatrix base_, a_;
  std::vector<double> u_, f_, b_, kept_u_;
  long kept_step_ = 0;
  double kept_time_ = 0.0;
  double mass_ = 0.05, dt_ = 0.5, time_ = 0.0, last_change_ = 1.0;
  long step_ = 0;
  systems::SystemId heat_;
};

}  // namespace tb::test
