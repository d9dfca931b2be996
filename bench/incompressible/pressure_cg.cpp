// tb-bench-pressure-cg: why CG + Jacobi stops early on tb-incomp's pressure
// system of the 3D lid-driven cavity. The flow advances with the host defaults
// (BiCGStab + BILU(0) on the momentum, CG + BILU(0) on the pressure); before
// each step's pressure solve, the same system (A, b, x0) is solved again by
// CG + Jacobi with each stagnation window asked for, from the same x0. Per
// solve it records the stop, the iterations, the recurrence's last residual
// beside the true one recomputed from b - A x (a gap between them is lost
// accuracy), the longest run of iterations without a 0.1 % gain of the best
// residual (what the stagnation rule counts), and the residual history every
// --every iterations; per system the norms and the sum of b over the rows
// other than the pinned cell's (the compatibility of the Neumann problem).
// One more solve, without a window, adds to Jacobi the exact correction along
// the constant vector off the pinned cell (a one-vector coarse space, additive:
// M^{-1} r = D^{-1} r + z (z'Az)^{-1} z'r): the pin leaves the Neumann
// operator one isolated small eigenvalue whose eigenvector is nearly that
// constant, and this solve shows what CG does once that mode is taken out.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "../common/command_line.hpp"
#include "physics/incompressible/fractional_step.hpp"
#include "solvers/core/json_writer.hpp"
#include "solvers/core/machine.hpp"
#include "solvers/factory/registry.hpp"
#include "solvers/krylov/krylov_method.hpp"
#include "solvers/krylov/linear_solver.hpp"
#include "solvers/matrix/bsr.hpp"

namespace tb::bench {
namespace {

using namespace tb::incompressible;

struct Options {
  int cells = 128;
  int steps = 3;
  double dt = 0.05;
  double reynolds = 1000.0;
  std::vector<long long> windows{200, 0};  // 0: no stagnation stop
  int maxit = 2000;
  int long_maxit = 8000;  // for window 0
  int every = 10;
  std::string json_path;
};

const char* usage =
    "usage: tb-bench-pressure-cg [--cells N] [--steps N] [--dt X] [--windows 200,0] [--maxit N]\n"
    "                            [--long-maxit N] [--every N] [--json FILE]\n"
    "  --cells N       cells per side of the cubic cavity (default 128)\n"
    "  --steps N       time steps (default 3); the study runs on each step's pressure system\n"
    "  --dt X          time step (default 0.05, the 3D cavity case's)\n"
    "  --windows L     stagnation windows of the CG + Jacobi solves; 0 = none (default 200,0)\n"
    "  --maxit N       iteration limit of the solves with a window (default 2000, the GPU default's)\n"
    "  --long-maxit N  iteration limit of the solve without one (default 8000)\n"
    "  --every N       residual history kept every N iterations (default 10)\n"
    "  --json FILE     results as JSON\n";

Options parse_options(int argc, char** argv) {
  Options o;
  for (ArgumentList args(argc, argv, usage); args.next();) {
    if (args.flag() == "--cells")
      o.cells = int(parse_count("--cells", args.value(), 4));
    else if (args.flag() == "--steps")
      o.steps = int(parse_count("--steps", args.value(), 1));
    else if (args.flag() == "--dt")
      o.dt = parse_real("--dt", args.value(), 1e-12);
    else if (args.flag() == "--windows")
      o.windows = parse_count_list("--windows", args.value(), 0, 1000000);
    else if (args.flag() == "--maxit")
      o.maxit = int(parse_count("--maxit", args.value(), 1));
    else if (args.flag() == "--long-maxit")
      o.long_maxit = int(parse_count("--long-maxit", args.value(), 1));
    else if (args.flag() == "--every")
      o.every = int(parse_count("--every", args.value(), 1));
    else if (args.flag() == "--json")
      o.json_path = args.value();
    else
      args.reject();
  }
  return o;
}

// The longest run of iterations in which the best residual did not improve
// by 0.1 % (KrylovMethod::check's rule), and where that run ended.
std::pair<int, int> longest_plateau(const std::vector<double>& h) {
  int longest = 0, at = 0, best_it = 0;
  double best = h.empty() ? 0.0 : h[0];
  for (int it = 1; it < int(h.size()); ++it) {
    if (h[std::size_t(it)] < 0.999 * best) {
      best = h[std::size_t(it)];
      best_it = it;
    } else if (it - best_it > longest) {
      longest = it - best_it, at = it;
    }
  }
  return {longest, at};
}

// Jacobi plus the exact solve along z = 1 off the pinned row 0 (host vectors).
class JacobiWithConstant final : public Preconditioner {
 public:
  void setup(const BsrMatrix& a, Backend) override { update(a); }
  void update(const BsrMatrix& a) override {
    dinv_.assign(std::size_t(a.rows()), 0.0);
    zaz_ = 0.0;
    for (index_t i = 0; i < a.block_rows; ++i)
      for (index_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) {
        if (a.col_idx[k] == i) dinv_[std::size_t(i)] = 1.0 / a.values[std::size_t(k)];
        if (i > 0 && a.col_idx[k] > 0) zaz_ += a.values[std::size_t(k)];
      }
  }
  void apply(const Vector& r, Vector& z) const override {
    double zr = 0.0;
    for (std::size_t i = 1; i < r.size(); ++i) zr += r[i];
    const double c = zr / zaz_;
    for (std::size_t i = 0; i < r.size(); ++i) z[i] = dinv_[i] * r[i] + (i > 0 ? c : 0.0);
  }
  bool supports(Backend b) const override { return b == Backend::host; }

 private:
  std::vector<double> dinv_;
  double zaz_ = 0.0;
};

struct StudySolve {
  std::string spec;
  SolveStats stats;
  int plateau = 0, plateau_end = 0;
};

struct SystemStudy {
  long step = 0;
  double b_norm = 0.0, r0_norm = 0.0, x0_norm = 0.0, b_sum_unpinned = 0.0, b_abs_sum = 0.0;
  int driver_iterations = 0;
  std::vector<StudySolve> solves;
};

// The flow's systems: the host defaults drive; the pressure system is studied first.
class StudySystems final : public systems::SystemRegistry, public systems::LinearSystems {
 public:
  explicit StudySystems(const Options& o) : o_(o) {}
  systems::SystemId declare(const systems::SystemDeclaration& d) override {
    names_.push_back(d.name);
    drivers_.push_back(make_solver(d.name == "pressure" ? "cg(rtol=1e-9,maxit=2000,relative_to=b)+bilu0"
                                                        : "bicgstab(rtol=1e-8,maxit=500)+bilu0"));
    set_up_.push_back(false);
    return systems::SystemId(int(names_.size()) - 1);
  }
  SolveStats solve(systems::SystemId s, const BsrMatrix& a, std::span<const double> b, std::span<double> x) override {
    const auto i = std::size_t(s.index());
    if (names_[i] == "pressure") study(a, b, x);
    if (!set_up_[i])
      drivers_[i]->setup(a);
    else
      drivers_[i]->update(a);
    set_up_[i] = true;
    const SolveStats st = drivers_[i]->solve(b, x);
    std::printf("step %ld %s: %s\n", step_, names_[i].c_str(), st.line().c_str());
    if (names_[i] == "pressure") studies_.back().driver_iterations = st.iterations;
    return st;
  }
  void precondition_outer(systems::SystemId, bool, int) override {}
  void begin_step(long step) { step_ = step; }
  const std::vector<SystemStudy>& studies() const { return studies_; }

 private:
  void study(const BsrMatrix& a, std::span<const double> b, std::span<const double> x0) {
    SystemStudy s;
    s.step = step_;
    std::vector<double> ax(b.size());
    spmv(a, x0.data(), ax.data());
    for (std::size_t i = 0; i < b.size(); ++i) {
      s.b_norm += b[i] * b[i];
      s.r0_norm += (b[i] - ax[i]) * (b[i] - ax[i]);
      s.x0_norm += x0[i] * x0[i];
      s.b_abs_sum += std::abs(b[i]);
      if (i > 0) s.b_sum_unpinned += b[i];  // the pinned cell is row 0 (FvGrid::pressure_pin)
    }
    s.b_norm = std::sqrt(s.b_norm), s.r0_norm = std::sqrt(s.r0_norm), s.x0_norm = std::sqrt(s.x0_norm);
    for (long long w : o_.windows) {
      const int maxit = w == 0 ? o_.long_maxit : o_.maxit;
      const std::string spec =
          "cg(rtol=1e-9,maxit=" + std::to_string(maxit) + ",relative_to=b,stagnation=" + std::to_string(w) + ")+jacobi";
      auto solver = make_solver(spec);
      solver->setup(a);
      std::vector<double> x(x0.begin(), x0.end());
      StudySolve r{spec, solver->solve(b, x), 0, 0};
      std::tie(r.plateau, r.plateau_end) = longest_plateau(r.stats.residual_history);
      std::printf("step %ld study %s: %s; recurrence %.3e, true %.3e; longest plateau %d ending at %d\n", step_,
                  spec.c_str(), r.stats.line().c_str(), r.stats.residual_history.back(), r.stats.final_residual,
                  r.plateau, r.plateau_end);
      s.solves.push_back(std::move(r));
    }
    {
      StopCriteria stop;
      stop.rtol = 1e-9, stop.maxit = o_.long_maxit, stop.relative_to = RtolReference::rhs, stop.stagnation_window = 0;
      const std::string spec = "cg(rtol=1e-9,relative_to=b,stagnation=0)+jacobi with the constant off the pin";
      LinearSolver solver(spec, make_cg(stop), std::make_unique<JacobiWithConstant>(), Backend::host);
      solver.setup(a);
      std::vector<double> x(x0.begin(), x0.end());
      StudySolve r{spec, solver.solve(b, x), 0, 0};
      std::tie(r.plateau, r.plateau_end) = longest_plateau(r.stats.residual_history);
      std::printf("step %ld study %s: %s; recurrence %.3e, true %.3e; longest plateau %d ending at %d\n", step_,
                  spec.c_str(), r.stats.line().c_str(), r.stats.residual_history.back(), r.stats.final_residual,
                  r.plateau, r.plateau_end);
      s.solves.push_back(std::move(r));
    }
    studies_.push_back(std::move(s));
  }

  const Options& o_;
  long step_ = 0;
  std::vector<std::string> names_;
  std::vector<std::unique_ptr<LinearSolver>> drivers_;
  std::vector<bool> set_up_;
  std::vector<SystemStudy> studies_;
};

int run(int argc, char** argv) {
  const Options o = parse_options(argc, argv);
  const Machine m = describe_machine();
  std::cout << summary(m) << "\n";
  const AxisSpec axis{index_t(o.cells), 1.0, Stretching::Uniform, 1.0};
  std::array<BoundarySpec, 6> bcs{};
  bcs[side_of(1, 1)].velocity = {1.0, 0.0, 0.0};  // the lid
  FlowSettings settings{1.0 / o.reynolds, o.dt, {}, PressureUnknown::pressure};
  FractionalStep flow(FvGrid(axis, axis, axis), bcs, settings);
  StudySystems systems(o);
  flow.declare_systems(systems);
  for (long step = 1; step <= o.steps; ++step) {
    systems.begin_step(step);
    flow.step(systems);
  }
  if (o.json_path.empty()) return 0;
  JsonWriter j;
  j.begin_object().value("benchmark", "tb-bench-pressure-cg");
  write(j, m);
  j.begin_object("config")
      .value("cells_per_side", o.cells)
      .value("steps", o.steps)
      .value("dt", o.dt)
      .value("reynolds", o.reynolds)
      .value("history_every", o.every)
      .value("case", "lid-driven cubic cavity, uniform grid, pressure unknown = pressure, host defaults drive")
      .end_object();
  j.begin_array("systems");
  for (const SystemStudy& s : systems.studies()) {
    j.begin_object()
        .value("step", (long long)s.step)
        .value("b_norm", s.b_norm)
        .value("r0_norm", s.r0_norm)
        .value("x0_norm", s.x0_norm)
        .value("b_sum_unpinned", s.b_sum_unpinned)
        .value("b_abs_sum", s.b_abs_sum)
        .value("driver_iterations", s.driver_iterations);
    j.begin_array("solves");
    for (const StudySolve& r : s.solves) {
      j.begin_object()
          .value("spec", r.spec)
          .value("reason", to_string(r.stats.reason))
          .value("iterations", r.stats.iterations)
          .value("initial_residual", r.stats.initial_residual)
          .value("target_residual", r.stats.target_residual)
          .value("recurrence_final_residual", r.stats.residual_history.back())
          .value("true_final_residual", r.stats.final_residual)
          .value("longest_plateau", r.plateau)
          .value("longest_plateau_end", r.plateau_end)
          .value("solve_seconds", r.stats.solve_seconds);
      j.begin_array("history");
      const auto& h = r.stats.residual_history;
      for (std::size_t it = 0; it < h.size(); it += std::size_t(o.every)) j.value("", h[it]);
      j.end_array().end_object();
    }
    j.end_array().end_object();
  }
  j.end_array().end_object();
  j.save(o.json_path);
  std::cout << "wrote " << o.json_path << "\n";
  return 0;
}

}  // namespace
}  // namespace tb::bench

int main(int argc, char** argv) { return tb::bench::guarded_main("tb-bench-pressure-cg", argc, argv, tb::bench::run); }
