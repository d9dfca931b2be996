// tb-bench-banded: seed 004's solvers on the paper's Poisson problem (§II-B,
// Eq. 6: the 7-point Laplacian on a uniform grid, here the stencil7 generator
// with one unknown per cell, no convection, stretch 1).
//  1. Solvers on one rank: GSCG (cg_stencil), GBCG (bicgstab_dia), the
//     BSR-based CG + Jacobi (the baseline every ratio is taken against) and
//     BiCGStab + Jacobi, to the same rtol; time per iteration and per solve.
//  2. One SpMV per format (DIA, matrix-free stencil, BSR) as a fraction of
//     the STREAM triad of the same run.
//  3. Per-iteration time split compute / halo exchange / global reductions,
//     and global reductions per iteration, of GBCG and GSCG, each in its
//     one-reduction (default) and classic variant (reductions=classic).
//  4. Under mpiexec -n P (P > 1): strong scaling (the same grid on P ranks)
//     and weak scaling (nz * P cells in z on P ranks) against the one-rank
//     runs of part 1, with the same OpenMP threads per rank.
//
//   build/bin/tb-bench-banded --quick
//   OMP_WAIT_POLICY=passive mpiexec -n 2 build/bin/tb-bench-banded --threads 1 --json bench/results/host-banded.json
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <limits>
#include <string>
#include <vector>

#include "../common/command_line.hpp"
#include "../common/stream_triad.hpp"
#include "../common/timing.hpp"
#include "solvers/banded/complete_solvers.hpp"
#include "solvers/core/atomic_file.hpp"
#include "solvers/core/json_writer.hpp"
#include "solvers/core/machine.hpp"
#include "solvers/core/timer.hpp"
#include "solvers/factory/registry.hpp"
#include "solvers/factory/solver_communicator.hpp"
#include "solvers/matrix/generate.hpp"

namespace tb::bench {
namespace {

struct Options {
  bool quick = false;
  index_t grid = 64;        // cells per direction of the one-rank problem
  index_t spmv_grid = 128;  // of the SpMV study: its arrays must not fit in the caches
  int reps = 3;
  int threads = 0;  // 0: OpenMP's default
  double rtol = 1e-6;
  Backend backend = Backend::host;  // where the solvers' vectors and kernels live
  std::string json_path, md_path;
};

const char* usage =
    "usage: tb-bench-banded [--quick] [--grid N] [--spmv-grid N] [--reps N] [--threads N] [--rtol R]\n"
    "                       [--backend host|cuda] [--json FILE] [--md FILE]\n"
    "  --quick        smoke run: 16^3 cells, one repetition\n"
    "  --grid N       the Poisson problem has N^3 cells (default 64)\n"
    "  --spmv-grid N  the SpMV study's grid, N^3 cells (default 128, beyond the caches)\n"
    "  --reps N       timed solves per case, best reported (default 3)\n"
    "  --threads N    OpenMP threads per rank (default: OpenMP's)\n"
    "  --rtol R       stop at ||r|| <= R ||r0|| (default 1e-6)\n"
    "  --backend B    host (default) or cuda: where all four solvers run; the SpMV study stays on the host\n"
    "  --json FILE    write the results with the machine description as JSON\n"
    "  --md FILE      write the tables as Markdown\n"
    "Run under mpiexec -n P for the strong and weak scaling over P ranks.\n";

Options parse_options(int argc, char** argv) {
  Options o;
  for (ArgumentList args(argc, argv, usage); args.next();) {
    const std::string& arg = args.flag();
    if (arg == "--quick") {
      o.quick = true;
    } else if (arg == "--grid") {
      o.grid = index_t(parse_count(arg, args.value(), 2));
    } else if (arg == "--spmv-grid") {
      o.spmv_grid = index_t(parse_count(arg, args.value(), 2));
    } else if (arg == "--reps") {
      o.reps = int(parse_count(arg, args.value(), 1));
    } else if (arg == "--threads") {
      o.threads = int(parse_count(arg, args.value(), 1));
    } else if (arg == "--rtol") {
      o.rtol = std::stod(args.value());
      if (!(o.rtol > 0.0 && o.rtol < 1.0)) throw Error("--rtol must lie in (0, 1)");
    } else if (arg == "--backend") {
      o.backend = parse_backend(args.value());
    } else if (arg == "--json") {
      o.json_path = args.value();
    } else if (arg == "--md") {
      o.md_path = args.value();
    } else {
      args.reject();
    }
  }
  if (o.quick) o.grid = 16, o.spmv_grid = 16, o.reps = 1;
  return o;
}

BsrMatrix poisson(index_t nx, index_t ny, index_t nz) {
  Stencil7Params p;
  p.nx = nx, p.ny = ny, p.nz = nz, p.block_size = 1, p.stretch = 1.0, p.peclet = 0.0, p.symmetric = true;
  return generate_stencil7(p);
}

std::vector<double> rhs(std::size_t n) {
  std::vector<double> b(n);
  for (std::size_t i = 0; i < n; ++i) b[i] = std::sin(0.37 * double(i)) + 0.5;
  return b;
}

struct Run {
  std::string study;  // solvers, strong, weak
  std::string solver;
  std::string reductions;  // the banded solvers' variant: "1" or "classic"; "" for the BSR ones
  int ranks = 1;
  index_t nx = 0, ny = 0, nz = 0;
  int iterations = 0;
  bool converged = false;
  double setup_s = 0, solve_s = 0;
  double compute_s = 0, halo_s = 0, reduction_s = 0;  // per iteration; banded solvers only
  double reductions_per_it = 0;                       // global reductions (allreduce calls) per iteration
  double per_iteration() const { return iterations > 0 ? solve_s / iterations : 0.0; }
};

// A global barrier through the solvers' own reductions (one MPI_Allreduce).
void barrier(const comm::Communicator& comm) {
  double dummy = 0.0;
  comm.space().reduce(&dummy, 1, nullptr, 0);
}

// Best-of-reps solve from x0 = 0 (after one untimed solve); the time split is
// that of the best solve.
Run time_solver(const std::string& study, const std::string& name, std::unique_ptr<LinearSolver> s, const BsrMatrix& a,
                int ranks, index_t nx, index_t ny, index_t nz, int reps, const comm::Communicator& comm) {
  Run r;
  r.study = study, r.solver = name, r.ranks = ranks, r.nx = nx, r.ny = ny, r.nz = nz;
  barrier(comm);
  WallTimer t;
  s->setup(a);
  r.setup_s = t.seconds();
  auto* gbcg = dynamic_cast<banded::DiaBicgstabSolver*>(s->complete());
  auto* gscg = dynamic_cast<banded::StencilCgSolver*>(s->complete());
  const std::vector<double> b = rhs(std::size_t(a.rows()));
  std::vector<double> x(b.size());
  r.solve_s = std::numeric_limits<double>::infinity();
  for (int rep = 0; rep <= reps; ++rep) {
    std::fill(x.begin(), x.end(), 0.0);
    if (gbcg) gbcg->reset_times();
    if (gscg) gscg->reset_times();
    barrier(comm);
    const SolveStats st = s->solve(b, x);
    if (rep == 0 || st.solve_seconds >= r.solve_s) continue;
    r.solve_s = st.solve_seconds;
    r.iterations = st.iterations;
    r.converged = st.converged();
    const banded::SolveTimes split = gbcg ? gbcg->times() : gscg ? gscg->times() : banded::SolveTimes{};
    const double its = std::max(1, st.iterations);
    r.compute_s = split.compute / its, r.halo_s = split.halo / its, r.reduction_s = split.reduction / its;
    r.reductions_per_it = double(split.reductions) / its;
  }
  return r;
}

std::string grid_spec(index_t nx, index_t ny, index_t nz) {
  return "nx=" + std::to_string(nx) + ",ny=" + std::to_string(ny) + ",nz=" + std::to_string(nz);
}

std::string rtol_text(double rtol) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", rtol);
  return buf;
}

// The four solvers on one grid. comm decides where the banded ones run: the
// registry's (the world under mpiexec) or this process alone.
std::vector<Run> solver_runs(const std::string& study, index_t nx, index_t ny, index_t nz, const Options& o,
                             std::shared_ptr<const comm::Communicator> comm, bool with_bsr) {
  const BsrMatrix a = poisson(nx, ny, nz);
  const std::string rt = "rtol=" + rtol_text(o.rtol) + ",maxit=20000";
  const std::string on = o.backend == Backend::cuda ? ",backend=cuda" : "";
  banded::BandedStop stop;
  stop.krylov.rtol = o.rtol;
  stop.krylov.maxit = 20000;
  std::vector<Run> runs;
  auto banded_solver = [&](std::unique_ptr<CompleteSolver> c, const std::string& spec) {
    return std::make_unique<LinearSolver>(spec, std::move(c), o.backend);
  };
  for (const auto variant : {banded::GscgVariant::one_reduction, banded::GscgVariant::classic}) {
    const bool classic = variant == banded::GscgVariant::classic;
    const std::string gscg =
        "cg_stencil(" + grid_spec(nx, ny, nz) + (classic ? ",reductions=classic," : ",") + rt + on + ")";
    runs.push_back(time_solver(
        study, gscg,
        banded_solver(std::make_unique<banded::StencilCgSolver>(nx, ny, nz, stop, o.backend, comm, variant), gscg), a,
        comm->size(), nx, ny, nz, o.reps, *comm));
    runs.back().reductions = classic ? "classic" : "1";
  }
  for (const auto variant : {banded::GbcgVariant::one_reduction, banded::GbcgVariant::classic}) {
    const bool classic = variant == banded::GbcgVariant::classic;
    const std::string gbcg = std::string("bicgstab_dia(") + (classic ? "reductions=classic," : "") + rt + on + ")";
    runs.push_back(time_solver(
        study, gbcg,
        banded_solver(std::make_unique<banded::DiaBicgstabSolver>(stop, o.backend, comm, 0.0, variant), gbcg), a,
        comm->size(), nx, ny, nz, o.reps, *comm));
    runs.back().reductions = classic ? "classic" : "1";
  }
  if (with_bsr)
    for (const std::string& spec : {"cg(" + rt + on + ")+jacobi", "bicgstab(" + rt + on + ")+jacobi"})
      runs.push_back(time_solver(study, spec, make_solver(spec), a, 1, nx, ny, nz, o.reps, *comm));
  return runs;
}

struct SpmvRow {
  std::string format;
  double seconds = 0, bytes = 0;
};

// One product y = A x per format on the one-rank grid. Bytes: every array
// read or written once (STREAM's convention: no write-allocate traffic).
std::vector<SpmvRow> spmv_rows(index_t g, int reps) {
  const BsrMatrix a = poisson(g, g, g);
  const double n = double(a.rows());
  const auto x = rhs(std::size_t(a.rows()));
  std::vector<SpmvRow> rows;
  std::vector<double> y(x.size());
  const banded::DiaMatrix d = banded::dia_from_bsr(a);
  comm::GhostedVector xe(Backend::host, d.rows, d.band());
  std::copy(x.begin(), x.end(), xe.owned());
  const auto reps_spmv = std::max(reps, 5);
  rows.push_back(
      {"DIA (bicgstab_dia)",
       best_seconds(reps_spmv,
                    [&] { banded::kernels::dia_spmv(Backend::host, view(d), 0, d.rows, xe.ext(), y.data()); }),
       n * (8.0 * d.ndiag() + 16.0)});
  const banded::StencilSlab slab{banded::stencil_from_bsr(a, g, g, g), 0, g * g};
  rows.push_back(
      {"stencil (cg_stencil)",
       best_seconds(reps_spmv,
                    [&] { banded::kernels::stencil_spmv(Backend::host, slab, 0, d.rows, xe.ext(), y.data()); }),
       n * 16.0});
  rows.push_back({"BSR (cg+jacobi)", best_seconds(reps_spmv, [&] { spmv(a, x.data(), y.data()); }),
                  double(a.nnz_blocks()) * 12.0 + n * 20.0});
  return rows;
}

const Run* find(const std::vector<Run>& runs, const std::string& study, const std::string& prefix, int ranks,
                const std::string& reductions = "") {
  for (const Run& r : runs)
    if (r.study == study && r.solver.rfind(prefix, 0) == 0 && r.ranks == ranks && r.reductions == reductions) return &r;
  return nullptr;
}

struct Report {
  Options o;
  Machine m;
  int ranks = 1;
  double triad_gbs = 0;
  std::vector<Run> runs;
  std::vector<SpmvRow> spmv;
};

std::string tables(const Report& r, bool markdown) {
  std::string out;
  char line[512];
  auto row = [&](std::vector<std::string> cells) {
    std::string s = markdown ? "|" : "";
    for (const auto& c : cells) s += (markdown ? " " + c + " |" : " " + c);
    out += s + "\n";
  };
  auto header = [&](std::vector<std::string> cells) {
    row(cells);
    if (markdown) {
      std::string s = "|";
      for (std::size_t i = 0; i < cells.size(); ++i) s += "---|";
      out += s + "\n";
    }
  };
  auto fmt = [&](const char* f, double v) {
    std::snprintf(line, sizeof line, f, v);
    return std::string(line);
  };
  const Run* base = find(r.runs, "solvers", "cg(", 1);
  out += (markdown ? "### " : "") + std::string("Poisson ") + std::to_string(r.o.grid) + "^3, rtol " +
         rtol_text(r.o.rtol) + ", one rank, " +
         (r.o.backend == Backend::cuda ? "on the GPU" : std::to_string(r.m.host_threads) + " OpenMP thread(s)") +
         "; ratios against the BSR cg+jacobi of the same run\n\n";
  header({"solver", "iterations", "solve ms", "ms/iteration", "solve vs BSR CG", "iteration vs BSR CG", "compute %",
          "halo %", "reduction %", "reductions/iteration"});
  for (const Run& x : r.runs) {
    if (x.study != "solvers") continue;
    const double split = x.compute_s + x.halo_s + x.reduction_s;
    row({x.solver, std::to_string(x.iterations) + (x.converged ? "" : " (not converged)"), fmt("%.2f", 1e3 * x.solve_s),
         fmt("%.4f", 1e3 * x.per_iteration()), base ? fmt("%.2fx", base->solve_s / x.solve_s) : "-",
         base ? fmt("%.2fx", base->per_iteration() / x.per_iteration()) : "-",
         split > 0 ? fmt("%.1f", 100 * x.compute_s / split) : "-",
         split > 0 ? fmt("%.1f", 100 * x.halo_s / split) : "-",
         split > 0 ? fmt("%.1f", 100 * x.reduction_s / split) : "-",
         x.reductions.empty() ? "-" : fmt("%.2f", x.reductions_per_it)});
  }
  out += "\n" + std::string(markdown ? "### " : "") + "One SpMV on " + std::to_string(r.o.spmv_grid) +
         "^3 cells against the STREAM triad (" + fmt("%.2f", r.triad_gbs) + " GB/s)\n\n";
  header({"format", "ms", "GB/s", "fraction of triad"});
  for (const SpmvRow& s : r.spmv)
    row({s.format, fmt("%.3f", 1e3 * s.seconds), fmt("%.2f", s.bytes / s.seconds * 1e-9),
         fmt("%.2f", s.bytes / s.seconds * 1e-9 / r.triad_gbs)});
  if (r.ranks > 1) {
    out += "\n" + std::string(markdown ? "### " : "") + "Scaling over " + std::to_string(r.ranks) +
           " MPI ranks (same threads per rank); per-iteration split of the " + std::to_string(r.ranks) +
           "-rank run\n\n";
    header({"study", "solver", "reductions", "grid", "ranks", "iterations", "ms/iteration",
            "speed-up / efficiency vs 1 rank", "compute ms/it", "halo ms/it", "reduction ms/it", "reductions/it"});
    for (const Run& x : r.runs) {
      if (x.study == "solvers") continue;
      const Run* one = find(r.runs, "solvers", x.solver.substr(0, x.solver.find('(')), 1, x.reductions);
      std::string ratio = "-";
      if (one && x.study == "strong")
        ratio = fmt("%.2fx", one->per_iteration() / x.per_iteration()) + " / " +
                fmt("%.0f%%", 100 * one->per_iteration() / x.per_iteration() / x.ranks);
      if (one && x.study == "weak") ratio = fmt("%.0f%%", 100 * one->per_iteration() / x.per_iteration());
      row({x.study, x.solver.substr(0, x.solver.find('(')), x.reductions,
           std::to_string(x.nx) + "x" + std::to_string(x.ny) + "x" + std::to_string(x.nz), std::to_string(x.ranks),
           std::to_string(x.iterations), fmt("%.4f", 1e3 * x.per_iteration()), ratio, fmt("%.4f", 1e3 * x.compute_s),
           fmt("%.4f", 1e3 * x.halo_s), fmt("%.4f", 1e3 * x.reduction_s), fmt("%.2f", x.reductions_per_it)});
    }
  }
  return out;
}

void write_json(const Report& r) {
  JsonWriter j;
  j.begin_object().value("benchmark", "tb-bench-banded");
  write(j, r.m);
  j.begin_object("config")
      .value("quick", r.o.quick)
      .value("grid", r.o.grid)
      .value("spmv_grid", r.o.spmv_grid)
      .value("reps", r.o.reps)
      .value("rtol", r.o.rtol)
      .value("backend", to_string(r.o.backend))
      .value("mpi_ranks", r.ranks)
      .value("problem",
             "stencil7 n=1 symmetric stretch=1 peclet=0 (7-point Poisson, Dirichlet walls), b_i = "
             "sin(0.37 i) + 0.5, x0 = 0")
      .value("timing", "best of reps after one untimed solve; the per-iteration split is that of the best solve")
      .end_object();
  j.value("stream_triad_gbs", r.triad_gbs);
  j.begin_array("runs");
  for (const Run& x : r.runs)
    j.begin_object()
        .value("study", x.study)
        .value("solver", x.solver)
        .value("reductions_variant", x.reductions)
        .value("ranks", x.ranks)
        .value("nx", x.nx)
        .value("ny", x.ny)
        .value("nz", x.nz)
        .value("iterations", x.iterations)
        .value("converged", x.converged)
        .value("setup_seconds", x.setup_s)
        .value("solve_seconds", x.solve_s)
        .value("seconds_per_iteration", x.per_iteration())
        .value("compute_seconds_per_iteration", x.compute_s)
        .value("halo_seconds_per_iteration", x.halo_s)
        .value("reduction_seconds_per_iteration", x.reduction_s)
        .value("reductions_per_iteration", x.reductions_per_it)
        .end_object();
  j.end_array().begin_array("spmv");
  for (const SpmvRow& s : r.spmv)
    j.begin_object()
        .value("format", s.format)
        .value("seconds", s.seconds)
        .value("bytes", s.bytes)
        .value("fraction_of_triad", s.bytes / s.seconds * 1e-9 / r.triad_gbs)
        .end_object();
  j.end_array().end_object();
  j.save(r.o.json_path);
}

int run(int argc, char** argv) {
  DistributedSession session(argc, argv);
  Report r;
  r.o = parse_options(argc, argv);
  if (r.o.threads > 0) set_host_threads(r.o.threads);
  const auto world = solver_communicator();
  const bool root = world->rank() == 0;
  r.ranks = world->size();
  r.m = describe_machine();
  const index_t g = r.o.grid;
  // The one-rank studies run on rank 0 while the others wait.
  if (root) {
    std::cout << summary(r.m) << "\n";
    const std::size_t triad_n = r.o.quick ? std::size_t(1) << 20 : std::size_t(1) << 24;
    r.triad_gbs = triad_bytes(triad_n) / host_triad_seconds(triad_n, r.o.reps) * 1e-9;
    r.runs = solver_runs("solvers", g, g, g, r.o, comm::self_communicator(), true);
    r.spmv = spmv_rows(r.o.spmv_grid, r.o.reps);
  }
  barrier(*world);
  if (r.ranks > 1) {
    for (Run& x : solver_runs("strong", g, g, g, r.o, world, false)) r.runs.push_back(x);
    for (Run& x : solver_runs("weak", g, g, g * r.ranks, r.o, world, false)) r.runs.push_back(x);
  }
  if (!root) return 0;
  std::cout << tables(r, false);
  if (!r.o.json_path.empty()) {
    write_json(r);
    std::cout << "\nwrote " << r.o.json_path << "\n";
  }
  if (!r.o.md_path.empty()) {
    write_file_atomically(r.o.md_path, "# tb-bench-banded\n\n" + summary(r.m) + "\n\n" + tables(r, true));
    std::cout << "wrote " << r.o.md_path << "\n";
  }
  return 0;
}

}  // namespace
}  // namespace tb::bench

int main(int argc, char** argv) { return tb::bench::guarded_main("tb-bench-banded", argc, argv, tb::bench::run); }
