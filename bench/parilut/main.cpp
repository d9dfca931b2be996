// tb-bench-parilut: seed 003's studies.
//  1. Selection (Fig. 8-9, selection_study.hpp): throughput of exact and
//     approximate Sampleselect against std::nth_element (introselect) on random
//     data of 2^16 .. 2^24 doubles, with few and with many distinct values, on
//     the host and, with a CUDA device, on the device (also 2^26).
//  2. ParILUT (Fig. 10): on the ANI5/6/7 anisotropic diffusion matrices and any
//     MatrixMarket systems given (--system: systems dumped from the miniapps),
//     GMRES(50) iterations to 1e-10 after 0..5 ParILUT steps with exact and
//     approximate selection, against ILU(0) (ParILU's exact sweep) and Eigen's
//     IncompleteLUT, with the factorisation time.
//  3. Fig. 11: the share of each building block (candidate search, residuals,
//     addition, sweeps, selection, removal) in the steps' time, host.
//
//   build/bin/tb-bench-parilut --quick
//   build/bin/tb-bench-parilut --json bench/results/host-parilut.json --md OUT.md
//   build/bin/tb-bench-parilut --problems ani5 --steps 8 --fill 3
//   build/bin/tb-bench-parilut --problems ani5 --system /tmp/cav/systems/step5-pressure-A.mtx
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "../common/command_line.hpp"
#include "selection_study.hpp"
#include "solvers/core/atomic_file.hpp"
#include "solvers/core/json_writer.hpp"
#include "solvers/core/machine.hpp"
#include "solvers/core/timer.hpp"
#include "solvers/factory/registry.hpp"
#include "solvers/matrix/anisotropic_diffusion.hpp"
#include "solvers/matrix/bsr.hpp"
#include "solvers/matrix/matrix_market.hpp"
#include "solvers/parilut/parilut.hpp"

namespace tb::bench {
namespace {

struct Problem {
  std::string name;
  index_t nx, ny;
};
const std::vector<Problem> ani = {{"ani5", 159, 79}, {"ani6", 319, 159}, {"ani7", 639, 319}};

struct Options {
  bool quick = false;
  int reps = 3;
  std::vector<long long> select_sizes = {1 << 16, 1 << 20, 1 << 24};
  std::vector<long long> gpu_select_sizes = {1 << 16, 1 << 20, 1 << 24, 1 << 26};
  std::vector<std::string> problems = {"ani5", "ani6", "ani7"};
  std::vector<std::string> systems;  // MatrixMarket files, taken as scalar matrices
  int steps = 5;
  double fill = 2.0;
  std::string json_path, md_path;
};

const char* usage =
    "usage: tb-bench-parilut [--quick] [--json FILE] [--md FILE] [--reps N] [--problems ani5,ani6,ani7] [--steps N]\n"
    "                        [--fill F] [--system A.mtx]...\n"
    "  --quick        smoke run: selection on 2^16 values, ParILUT on ANI5 with 2 steps\n"
    "  --json FILE    also write the results with machine information as JSON\n"
    "  --md FILE      also write the tables as Markdown\n"
    "  --reps N       timed repetitions of each selection (best reported; default 3)\n"
    "  --problems L   anisotropic diffusion problems (default ani5,ani6,ani7)\n"
    "  --steps N      ParILUT steps, GMRES after each count 0..N (default 5)\n"
    "  --fill F       ParILUT fill factor (default 2)\n"
    "  --system A.mtx also a MatrixMarket system (repeat), block matrices taken entry by entry, e.g. a\n"
    "                 tb-incomp pressure matrix or a tb-comp2d Jacobian from --dump-systems\n";

std::vector<std::string> split(const std::string& text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    out.push_back(text.substr(start, comma - start));
    start = comma + 1;
  }
  return out;
}

Options parse_options(int argc, char** argv) {
  Options o;
  for (ArgumentList args(argc, argv, usage); args.next();) {
    const std::string& arg = args.flag();
    if (arg == "--quick") {
      o.quick = true;
    } else if (arg == "--json") {
      o.json_path = args.value();
    } else if (arg == "--md") {
      o.md_path = args.value();
    } else if (arg == "--reps") {
      o.reps = int(parse_count(arg, args.value(), 1));
    } else if (arg == "--problems") {
      o.problems = split(args.value());
      for (const std::string& p : o.problems)
        if (std::none_of(ani.begin(), ani.end(), [&](const Problem& q) { return q.name == p; }))
          throw Error("--problems: unknown problem '" + p + "' (allowed: ani5, ani6, ani7)");
    } else if (arg == "--system") {
      o.systems.push_back(args.value());
    } else if (arg == "--steps") {
      o.steps = int(parse_count(arg, args.value(), 0));
    } else if (arg == "--fill") {
      o.fill = std::stod(args.value());
      if (!(o.fill >= 1.0)) throw Error("--fill must be at least 1");
    } else {
      args.reject();
    }
  }
  if (o.quick) {
    o.select_sizes = {1 << 16};
    o.gpu_select_sizes = {1 << 16};
    o.problems = {"ani5"};
    o.steps = 2;
  }
  return o;
}

// ---- 2. ParILUT quality and cost ---------------------------------------------

struct QualityRow {
  std::string preconditioner;
  int iterations = 0;
  double factor_s = 0;  // set-up: factorisation
  double solve_s = 0;
  long long nnz_factors = 0;  // off-diagonal nnz of L and U (ParILU/ParILUT)
};

QualityRow gmres_with(const BsrMatrix& a, const std::string& precond) {
  auto s = make_solver("gmres(restart=50,rtol=1e-10,maxit=3000)+" + precond);
  WallTimer t;
  s->setup(a);
  QualityRow r;
  r.preconditioner = precond;
  r.factor_s = t.seconds();
  const std::vector<double> b(std::size_t(a.rows()), 1.0);
  std::vector<double> x(b.size(), 0.0);
  const SolveStats st = s->solve(b, x);
  r.iterations = st.converged() ? st.iterations : -1;
  r.solve_s = st.solve_seconds;
  return r;
}

struct ProblemResult {
  std::string name;
  index_t rows = 0;
  index_t nnz = 0;
  std::vector<QualityRow> runs;
  std::vector<parilut::StepReport> steps, approx_steps;  // of the runs with o.steps steps, exact and approximate
};

struct NamedMatrix {
  std::string name;
  CsrMatrix c;
};

NamedMatrix anisotropic(const Problem& p) {
  AnisotropicDiffusionParams params;
  params.nx = p.nx, params.ny = p.ny;
  return {p.name, generate_anisotropic_diffusion(params)};
}

NamedMatrix from_file(const std::string& path) {
  const std::size_t slash = path.find_last_of('/');
  std::string name = path.substr(slash == std::string::npos ? 0 : slash + 1);
  if (name.size() > 4 && name.ends_with(".mtx")) name.resize(name.size() - 4);
  return {name, read_matrix_market(path).matrix};
}

ProblemResult run_problem(const NamedMatrix& p, const Options& o) {
  const CsrMatrix& c = p.c;
  const BsrMatrix a = csr_to_bsr(c, 1);
  ProblemResult res;
  res.name = p.name, res.rows = c.rows, res.nnz = c.nnz();
  res.runs.push_back(gmres_with(a, "parilu(sweeps=1,kernel=ref)"));
  res.runs.back().preconditioner += "  [ILU(0)]";
  // Eigen's default fill factor: with 1 or 2 its ILUT does not reach 1e-10 here.
  res.runs.push_back(gmres_with(a, "ilut(droptol=1e-4,fill=10)"));
  char fill[32];
  std::snprintf(fill, sizeof fill, "%g", o.fill);
  for (const char* select : {"exact", "approx"})
    for (int steps = 0; steps <= o.steps; ++steps)
      res.runs.push_back(gmres_with(
          a, std::string("parilut(fill=") + fill + ",steps=" + std::to_string(steps) + ",select=" + select + ")"));
  parilut::ParilutOptions po;
  po.fill = o.fill, po.steps = o.steps, po.exact_select = true;
  parilut::parilut_factor(c, po, &res.steps);
  po.exact_select = false;
  parilut::parilut_factor(c, po, &res.approx_steps);
  return res;
}

// ---- 3. Fig. 11: where the time of the steps goes --------------------------

parilut::StepSeconds summed(const std::vector<parilut::StepReport>& steps) {
  parilut::StepSeconds t;
  for (const parilut::StepReport& r : steps) t += r.seconds;
  return t;
}

std::string breakdown_line(const parilut::StepSeconds& t) {
  char buf[256];
  const double total = t.total() > 0 ? t.total() : 1.0;
  std::string out;
  for (double part : t.block) {
    std::snprintf(buf, sizeof buf, " %9.1f", 100.0 * part / total);
    out += buf;
  }
  std::snprintf(buf, sizeof buf, " %10.4f", t.total());
  return out + buf;
}

void print(const std::vector<ProblemResult>& probs) {
  for (const ProblemResult& p : probs) {
    std::printf("\n%s: %d rows, %d nonzeros; GMRES(50) to 1e-10, b = 1\n", p.name.c_str(), p.rows, p.nnz);
    std::printf("  %-52s %6s %10s %10s\n", "preconditioner", "iters", "setup s", "solve s");
    for (const QualityRow& r : p.runs)
      std::printf("  %-52s %6d %10.4f %10.4f\n", r.preconditioner.c_str(), r.iterations, r.factor_s, r.solve_s);
    std::printf("  exact ParILUT steps: candidates, residual estimate, nnz after add, nnz after remove\n");
    for (const parilut::StepReport& s : p.steps)
      std::printf("    %10lld %12.4e %10lld %10lld\n", s.candidates, s.candidate_residual, s.nnz_after_add,
                  s.nnz_after_remove);
    std::printf("  Fig. 11, %zu steps on the host: %% of the steps' time per building block, and the total\n",
                p.steps.size());
    std::printf("    %-8s", "select");
    for (const char* name : parilut::step_block_names) std::printf(" %9s", name);
    std::printf(" %10s\n", "total s");
    std::printf("    %-8s%s\n", "exact", breakdown_line(summed(p.steps)).c_str());
    std::printf("    %-8s%s\n", "approx", breakdown_line(summed(p.approx_steps)).c_str());
  }
}

std::string markdown(const Machine& m, const SelectionStudy& sel, const std::vector<ProblemResult>& probs) {
  std::string md = "# tb-bench-parilut (seed 003)\n\n";
  md += "Machine: " + m.cpu_model + ", " + std::to_string(m.host_threads) +
        " OpenMP threads, GPU: " + (m.gpu.empty() ? std::string("none") : m.gpu) + ", commit " + m.git_commit + ", " +
        m.date_utc + ".\n\n";
  md += tb::bench::markdown(sel);
  md += "\n## GMRES(50) iterations to 1e-10 (Fig. 10), host\n\n| problem | preconditioner | iterations | setup s |\n";
  md += "|---|---|---|---|\n";
  for (const ProblemResult& p : probs)
    for (const QualityRow& r : p.runs) {
      char setup[32];
      std::snprintf(setup, sizeof setup, "%.4f", r.factor_s);
      md += "| " + p.name + " | `" + r.preconditioner + "` | " + std::to_string(r.iterations) + " | " + setup + " |\n";
    }
  md += "\n## Building blocks of the ParILUT steps (Fig. 11), host\n\n";
  md += "Share of the steps' wall time (all steps of one factorisation), exact and approximate selection.\n\n";
  md += "| problem | select | steps |";
  for (const char* name : parilut::step_block_names) md += std::string(" ") + name + " % |";
  md += " total s |\n|---|---|---|---|---|---|---|---|---|---|\n";
  for (const ProblemResult& p : probs)
    for (const auto& [label, steps] : {std::pair{"exact", &p.steps}, std::pair{"approx", &p.approx_steps}}) {
      const parilut::StepSeconds t = summed(*steps);
      const double total = t.total() > 0 ? t.total() : 1.0;
      char cell[64];
      md += "| " + p.name + " | " + label + " | " + std::to_string(steps->size()) + " |";
      for (double part : t.block) {
        std::snprintf(cell, sizeof cell, " %.1f |", 100.0 * part / total);
        md += cell;
      }
      std::snprintf(cell, sizeof cell, " %.4f |\n", t.total());
      md += cell;
    }
  return md;
}

void write_json(const Options& o, const Machine& m, const SelectionStudy& sel,
                const std::vector<ProblemResult>& probs) {
  JsonWriter j;
  j.begin_object().value("benchmark", "tb-bench-parilut");
  write(j, m);
  j.begin_object("config").value("quick", o.quick).value("reps", o.reps).value("steps", o.steps).value("fill", o.fill);
  j.value("gmres", "gmres(restart=50,rtol=1e-10,maxit=3000), b = 1, x0 = 0");
  j.value("problems",
          "ani5/6/7: 2D anisotropic diffusion, P1 elements, epsilon 1e-2, angle 30 degrees, Dirichlet; "
          "others: MatrixMarket files given with --system, scalar entries");
  j.end_object();
  write(j, sel);
  j.begin_array("problems");
  for (const ProblemResult& p : probs) {
    j.begin_object().value("name", p.name).value("rows", p.rows).value("nnz", p.nnz).begin_array("runs");
    for (const QualityRow& r : p.runs)
      j.begin_object()
          .value("preconditioner", r.preconditioner)
          .value("iterations", r.iterations)
          .value("setup_seconds", r.factor_s)
          .value("solve_seconds", r.solve_s)
          .end_object();
    j.end_array();
    for (const auto& [key, steps] : {std::pair{"exact_steps", &p.steps}, std::pair{"approx_steps", &p.approx_steps}}) {
      j.begin_array(key);
      for (const parilut::StepReport& s : *steps) {
        j.begin_object()
            .value("candidates", s.candidates)
            .value("candidate_residual", s.candidate_residual)
            .value("nnz_after_add", s.nnz_after_add)
            .value("nnz_after_remove", s.nnz_after_remove)
            .begin_object("seconds");
        for (std::size_t b = 0; b < s.seconds.block.size(); ++b)
          j.value(parilut::step_block_names[b], s.seconds.block[b]);
        j.end_object().end_object();
      }
      j.end_array();
    }
    j.end_object();
  }
  j.end_array().end_object();
  j.save(o.json_path);
}

int run(int argc, char** argv) {
  const Options o = parse_options(argc, argv);
  const Machine m = describe_machine();
  std::cout << summary(m) << "\n";
  const SelectionStudy sel = run_selection_study(o.select_sizes, o.gpu_select_sizes, o.reps);
  std::vector<ProblemResult> probs;
  for (const std::string& name : o.problems)
    for (const Problem& p : ani)
      if (p.name == name) probs.push_back(run_problem(anisotropic(p), o));
  for (const std::string& path : o.systems) probs.push_back(run_problem(from_file(path), o));
  print(sel);
  print(probs);
  if (!o.json_path.empty()) {
    write_json(o, m, sel, probs);
    std::cout << "\nwrote " << o.json_path << "\n";
  }
  if (!o.md_path.empty()) {
    write_file_atomically(o.md_path, markdown(m, sel, probs));
    std::cout << "wrote " << o.md_path << "\n";
  }
  return 0;
}

}  // namespace
}  // namespace tb::bench

int main(int argc, char** argv) { return tb::bench::guarded_main("tb-bench-parilut", argc, argv, tb::bench::run); }
