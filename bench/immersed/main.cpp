// tb-bench-ib: what a body position costs against a time step in tb-ib's
// physics (seed 004's miniapp). On the sphere case's grid it times the
// symbolic work that a moving body repeats every step (cell classification
// with image points and weights, the matrix pattern, the two matrices' values)
// and one whole fractional step (three advection-diffusion solves and the
// pressure solve by BiCGStab + Jacobi), at each OpenMP thread count. Ratios are
// against the same phase on one thread, measured in the same run.
#include <cstdio>
#include <iostream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "../common/command_line.hpp"
#include "../common/timing.hpp"
#include "physics/immersed/fractional_step.hpp"
#include "solvers/core/atomic_file.hpp"
#include "solvers/core/json_writer.hpp"
#include "solvers/core/machine.hpp"
#include "solvers/factory/registry.hpp"

namespace tb::bench {
namespace {

using namespace tb::immersed;

struct Options {
  bool quick = false;
  int reps = 5;
  std::vector<long long> threads{1, 2};
  std::string json_path, md_path;
};

const char* usage =
    "usage: tb-bench-ib [--quick] [--reps N] [--threads 1,2] [--json FILE] [--md FILE]\n"
    "  --quick        coarse grid (D/h = 5) and one repetition: a smoke run\n"
    "  --reps N       best of N timings per phase (default 5)\n"
    "  --threads L    OpenMP thread counts; the first is the baseline (default 1,2)\n"
    "  --json FILE    results with machine information as JSON\n"
    "  --md FILE      the table as Markdown\n";

Options parse_options(int argc, char** argv) {
  Options o;
  for (ArgumentList args(argc, argv, usage); args.next();) {
    if (args.flag() == "--quick")
      o.quick = true;
    else if (args.flag() == "--reps")
      o.reps = int(parse_count("--reps", args.value(), 1));
    else if (args.flag() == "--threads")
      o.threads = parse_count_list("--threads", args.value(), 1, 256);
    else if (args.flag() == "--json")
      o.json_path = args.value();
    else if (args.flag() == "--md")
      o.md_path = args.value();
    else
      args.reject();
  }
  if (o.quick) o.reps = 1;
  return o;
}

// The default case of tb-ib: box [-2,4] x [-2,2]^2, core [-0.7,0.7]^3.
// The flow's two systems, each one registry solver set up on its first solve
// and updated after: the step as the loop solves it, without the run's records.
class StepSystems final : public systems::SystemRegistry, public systems::LinearSystems {
 public:
  systems::SystemId declare(const systems::SystemDeclaration& d) override {
    solvers_.push_back(make_solver(d.name == "pressure" ? "bicgstab(rtol=1e-8,maxit=3000)+jacobi"
                                                        : "bicgstab(rtol=1e-8,maxit=500)+jacobi"));
    set_up_.push_back(false);
    return systems::SystemId(int(solvers_.size()) - 1);
  }
  SolveStats solve(systems::SystemId s, const BsrMatrix& m, std::span<const double> rhs, std::span<double> x) override {
    const auto i = std::size_t(s.index());
    if (!set_up_[i])
      solvers_[i]->setup(m);
    else
      solvers_[i]->update(m);
    set_up_[i] = true;
    return solvers_[i]->solve(rhs, x);
  }
  void precondition_outer(systems::SystemId, bool, int) override {}

 private:
  std::vector<std::unique_ptr<LinearSolver>> solvers_;
  std::vector<bool> set_up_;
};

CartesianGrid sphere_grid(double h) {
  return CartesianGrid({clustered_axis_nodes(-2.0, 4.0, -0.7, 0.7, h, 1.2),
                        clustered_axis_nodes(-2.0, 2.0, -0.7, 0.7, h, 1.2),
                        clustered_axis_nodes(-2.0, 2.0, -0.7, 0.7, h, 1.2)});
}

struct Row {
  int threads = 1;
  std::map<std::string, double> seconds;  // phase -> best seconds
};

const std::vector<std::string> phases = {"ghost_cells", "pattern", "assemble", "step"};

Row measure(int threads, double h, int reps) {
  set_host_threads(threads);
  Row row{threads, {}};
  const Sphere sphere({0.0, 0.0, 0.0}, 0.5);
  const CartesianGrid grid = sphere_grid(h);
  GhostCells ib;
  row.seconds["ghost_cells"] = best_seconds(reps, [&] { ib = build_ghost_cells(grid, sphere); });
  SystemPattern pattern;
  row.seconds["pattern"] = best_seconds(reps, [&] { pattern = make_system_pattern(grid, ib); });
  BsrMatrix a = pattern.matrix, b = pattern.matrix;
  const BoxConditions velocity{FaceKind::dirichlet, FaceKind::neumann,   FaceKind::dirichlet,
                               FaceKind::dirichlet, FaceKind::dirichlet, FaceKind::dirichlet};
  BoxConditions pressure{};
  for (int s = 0; s < 6; ++s) pressure[s] = velocity[s] == FaceKind::neumann ? FaceKind::dirichlet : FaceKind::neumann;
  row.seconds["assemble"] = best_seconds(reps, [&] {
    assemble_system(grid, ib, pattern, velocity, BodyCondition::dirichlet, 1.0, 0.0002, a);
    assemble_system(grid, ib, pattern, pressure, BodyCondition::neumann, 0.0, 1.0, b);
  });
  FlowSettings s;
  s.dt = 0.04;
  ImmersedFlow flow(sphere_grid(h), std::make_unique<Sphere>(Vec3{0.0, 0.0, 0.0}, 0.5), s);
  StepSystems solve;
  flow.declare_systems(solve);
  for (int n = 0; n < 10; ++n) flow.step(solve);  // past the impulsive start
  row.seconds["step"] = best_seconds(reps, [&] { flow.step(solve); });
  std::printf(
      "threads %d: cells %d, ghost cells %zu, ghost_cells %.4f s, pattern %.4f s, assemble %.4f s, step %.4f s\n",
      threads, int(grid.num_cells()), ib.ghosts.size(), row.seconds["ghost_cells"], row.seconds["pattern"],
      row.seconds["assemble"], row.seconds["step"]);
  return row;
}

std::string markdown(const Machine& m, const std::vector<Row>& rows, double h, index_t cells) {
  std::string s =
      "# tb-bench-ib: body placement against one step (sphere case, D/h = " + std::to_string(int(1.0 / h + 0.5)) +
      ", " + std::to_string(cells) + " cells)\n\n" + summary(m) +
      "\n\nBest-of-N seconds; in brackets the ratio to the same phase on " + std::to_string(rows[0].threads) +
      " thread(s). `placement/step` = (ghost_cells + pattern + assemble) / step: the share a moving body adds.\n\n"
      "| threads | ghost_cells | pattern | assemble | step | placement/step |\n|---|---|---|---|---|---|\n";
  char buf[160];
  for (const Row& r : rows) {
    std::snprintf(buf, sizeof buf, "| %d |", r.threads);
    s += buf;
    for (const std::string& p : phases) {
      std::snprintf(buf, sizeof buf, " %.4f (%.2f) |", r.seconds.at(p), r.seconds.at(p) / rows[0].seconds.at(p));
      s += buf;
    }
    const double place = r.seconds.at("ghost_cells") + r.seconds.at("pattern") + r.seconds.at("assemble");
    std::snprintf(buf, sizeof buf, " %.2f |\n", place / r.seconds.at("step"));
    s += buf;
  }
  return s;
}

int run(int argc, char** argv) {
  const Options o = parse_options(argc, argv);
  const Machine m = describe_machine();
  std::cout << summary(m) << "\n";
  const double h = o.quick ? 0.2 : 0.1;
  std::vector<Row> rows;
  for (long long t : o.threads) rows.push_back(measure(int(t), h, o.reps));
  const index_t cells = sphere_grid(h).num_cells();
  const std::string md = markdown(m, rows, h, cells);
  std::cout << "\n" << md;
  if (!o.md_path.empty()) write_file_atomically(o.md_path, md);
  if (!o.json_path.empty()) {
    JsonWriter j;
    j.begin_object().value("benchmark", "tb-bench-ib");
    write(j, m);
    j.begin_object("config").value("quick", o.quick).value("reps", o.reps).value("core_h", h).value("cells", cells);
    j.value("case",
            "sphere radius 0.5 in [-2,4]x[-2,2]^2, core [-0.7,0.7]^3, ratio 1.2, dt 0.04, Re 100; step timed after 10 "
            "steps");
    j.value("solvers",
            "advection_diffusion bicgstab(rtol=1e-8,maxit=500)+jacobi, pressure bicgstab(rtol=1e-8,maxit=3000)+jacobi");
    j.end_object().begin_array("runs");
    for (const Row& r : rows) {
      j.begin_object().value("threads", r.threads);
      for (const std::string& p : phases)
        j.value(p + "_seconds", r.seconds.at(p))
            .value(p + "_ratio_to_baseline", r.seconds.at(p) / rows[0].seconds.at(p));
      j.end_object();
    }
    j.end_array().end_object();
    j.save(o.json_path);
    std::cout << "\nwrote " << o.json_path << "\n";
  }
  return 0;
}

}  // namespace
}  // namespace tb::bench

int main(int argc, char** argv) { return tb::bench::guarded_main("tb-bench-ib", argc, argv, tb::bench::run); }
