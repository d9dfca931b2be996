// tb-bench-petsc: PETSc's BAIJ ILU(0) + FGMRES(m) against our
// fgmres(restart=m)+bilu0 on the same stencil7 system, in one run. PETSc is
// serial within a process here, so the like-for-like comparison is ours on one
// OpenMP thread; ours on all threads is reported beside it. PETSc headers stay
// in this file. Run with --help; bench/README.md explains the figures.
#include <petscksp.h>

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "solvers/core/error.hpp"
#include "solvers/core/json_writer.hpp"
#include "solvers/core/machine.hpp"
#include "solvers/core/timer.hpp"
#include "solvers/factory/registry.hpp"
#include "solvers/matrix/generate.hpp"

namespace tb::bench {
namespace {

struct Options {
  bool quick = false;
  index_t grid = 32;
  index_t block_size = 5;
  int restart = 30;
  double rtol = 1e-8;
  int maxit = 2000;
  int reps = 3;
  std::string json_path;
};

const char* usage =
    "usage: tb-bench-petsc [--quick] [--json FILE] [--grid N] [--block-size N] [--restart M] [--rtol R] [--reps N]\n"
    "  --quick         small smoke run (12^3 cells, one repetition)\n"
    "  --json FILE     also write the results with machine information as JSON\n"
    "  --grid N        stencil7 on N^3 cells (default 32)\n"
    "  --block-size N  unknowns per cell (default 5)\n"
    "  --restart M     FGMRES restart length (default 30)\n"
    "  --rtol R        relative tolerance on ||b - A x|| / ||b|| (default 1e-8)\n"
    "  --reps N        repetitions of set-up and solve; the best time is reported (default 3)\n";

template <class T>
T parse_number(const std::string& flag, const std::string& text, T lo) {
  T v{};
  const auto res = std::from_chars(text.data(), text.data() + text.size(), v);
  if (res.ec != std::errc() || res.ptr != text.data() + text.size() || !(v >= lo))
    throw Error(flag + " needs a number >= " + std::to_string(lo) + ", got '" + text + "'");
  return v;
}

Options parse_options(int argc, char** argv) {
  Options o;
  bool grid_set = false, reps_set = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) throw Error(arg + " needs a value");
      return argv[++i];
    };
    if (arg == "--help" || arg == "-h") {
      std::cout << usage;
      std::exit(0);
    } else if (arg == "--quick") {
      o.quick = true;
    } else if (arg == "--json") {
      o.json_path = next();
    } else if (arg == "--grid") {
      o.grid = parse_number<index_t>(arg, next(), 2);
      grid_set = true;
    } else if (arg == "--block-size") {
      o.block_size = parse_number<index_t>(arg, next(), 1);
    } else if (arg == "--restart") {
      o.restart = parse_number<int>(arg, next(), 1);
    } else if (arg == "--rtol") {
      o.rtol = parse_number<double>(arg, next(), 0.0);
    } else if (arg == "--reps") {
      o.reps = parse_number<int>(arg, next(), 1);
      reps_set = true;
    } else {
      throw Error("unknown option '" + arg + "'\n" + usage);
    }
  }
  if (o.quick) {
    if (!grid_set) o.grid = 12;
    if (!reps_set) o.reps = 1;
  }
  return o;
}

void petsc_check(PetscErrorCode status, const char* call) {
  if (status != 0) throw Error(std::string("PETSc ") + call + " failed with error code " + std::to_string(int(status)));
}
#define TB_PETSC(call) petsc_check((call), #call)

// Two ways to repeat: `fresh` builds the solver anew each repetition (set-up =
// symbolic + numeric factorisation, workspace allocated in the solve), as a
// one-off offline solve does; `time loop` keeps one solver (PETSc: one KSP)
// and per repetition refactors numerically after the matrix "changed" and
// solves, as a CFD time loop does from its second step on.
enum class Mode { fresh, time_loop };
const char* to_string(Mode m) { return m == Mode::fresh ? "fresh" : "time loop"; }

struct Run {
  std::string solver;
  Mode mode = Mode::fresh;
  int threads = 1;
  double setup_seconds = INFINITY;
  double solve_seconds = INFINITY;
  int iterations = 0;
  double relative_residual = NAN;  // ||b - A x|| / ||b||, recomputed after the solve
  std::string reason;
};

double norm(const std::vector<double>& v) {
  double s = 0.0;
  for (double e : v) s += e * e;
  return std::sqrt(s);
}

// PETSc's sequential BAIJ matrix with A's block pattern, preallocated exactly.
Mat to_petsc(const BsrMatrix& a) {
  std::vector<PetscInt> blocks_per_row(std::size_t(a.block_rows));
  for (index_t i = 0; i < a.block_rows; ++i) blocks_per_row[i] = a.row_ptr[i + 1] - a.row_ptr[i];
  Mat m;
  TB_PETSC(MatCreateSeqBAIJ(PETSC_COMM_SELF, a.block_size, a.rows(), a.cols(), 0, blocks_per_row.data(), &m));
  TB_PETSC(MatSetOption(m, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_TRUE));
  // PETSc's default row orientation reads a single bs x bs block row-major: our layout.
  for (index_t i = 0; i < a.block_rows; ++i)
    for (index_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) {
      const PetscInt row = i, col = a.col_idx[k];
      TB_PETSC(MatSetValuesBlocked(m, 1, &row, 1, &col, a.block(k), INSERT_VALUES));
    }
  TB_PETSC(MatAssemblyBegin(m, MAT_FINAL_ASSEMBLY));
  TB_PETSC(MatAssemblyEnd(m, MAT_FINAL_ASSEMBLY));
  return m;
}

Vec to_petsc(const std::vector<double>& v) {
  Vec p;
  TB_PETSC(VecCreateSeq(PETSC_COMM_SELF, PetscInt(v.size()), &p));
  PetscScalar* data;
  TB_PETSC(VecGetArray(p, &data));
  std::copy(v.begin(), v.end(), data);
  TB_PETSC(VecRestoreArray(p, &data));
  return p;
}

KSP make_ksp(Mat m, const Options& o) {
  KSP ksp;
  PC pc;
  TB_PETSC(KSPCreate(PETSC_COMM_SELF, &ksp));
  TB_PETSC(KSPSetOperators(ksp, m, m));
  TB_PETSC(KSPSetType(ksp, KSPFGMRES));
  TB_PETSC(KSPGMRESSetRestart(ksp, o.restart));
  // atol effectively off: both solvers stop on ||r|| <= rtol ||r0||, r0 = b.
  TB_PETSC(KSPSetTolerances(ksp, o.rtol, 1e-300, PETSC_DEFAULT, o.maxit));
  TB_PETSC(KSPGetPC(ksp, &pc));
  TB_PETSC(PCSetType(pc, PCILU));
  TB_PETSC(PCFactorSetLevels(pc, 0));
  TB_PETSC(PCFactorSetMatOrderingType(pc, MATORDERINGNATURAL));
  return ksp;
}

// One set-up (ILU(0) in natural order) and one solve from x0 = 0 per repetition.
// Fresh: a new KSP each time, symbolic + numeric. Time loop: one KSP; the
// matrix is assembled again so PCSetUp refactors numerically on the same pattern.
Run run_petsc(const BsrMatrix& a, const std::vector<double>& hb, const Options& o, Mode mode) {
  Run run;
  run.solver =
      std::string("PETSc ") + PETSC_VERSION_GIT + " baij ilu(0) natural + fgmres(" + std::to_string(o.restart) + ")";
  run.mode = mode;
  Mat m = to_petsc(a);
  Vec b = to_petsc(hb), x, r;
  TB_PETSC(VecDuplicate(b, &x));
  TB_PETSC(VecDuplicate(b, &r));
  KSP kept = mode == Mode::time_loop ? make_ksp(m, o) : nullptr;
  for (int rep = 0; rep < o.reps + (kept ? 1 : 0); ++rep) {
    KSP ksp = kept ? kept : make_ksp(m, o);
    PC pc;
    TB_PETSC(KSPGetPC(ksp, &pc));
    if (kept) {
      // A new assembly raises the matrix's state, as new Jacobian values would.
      TB_PETSC(MatAssemblyBegin(m, MAT_FINAL_ASSEMBLY));
      TB_PETSC(MatAssemblyEnd(m, MAT_FINAL_ASSEMBLY));
      TB_PETSC(KSPSetOperators(ksp, m, m));
    }
    WallTimer t;
    TB_PETSC(KSPSetUp(ksp));
    TB_PETSC(PCSetUp(pc));
    // The time loop's first repetition is its symbolic set-up: not timed.
    const bool timed = !(kept && rep == 0);
    if (timed) run.setup_seconds = std::min(run.setup_seconds, t.seconds());
    TB_PETSC(VecSet(x, 0.0));
    t.restart();
    TB_PETSC(KSPSolve(ksp, b, x));
    if (timed) run.solve_seconds = std::min(run.solve_seconds, t.seconds());
    PetscInt its;
    KSPConvergedReason reason;
    TB_PETSC(KSPGetIterationNumber(ksp, &its));
    TB_PETSC(KSPGetConvergedReason(ksp, &reason));
    run.iterations = int(its);
    run.reason = KSPConvergedReasons[reason];
    if (!kept) TB_PETSC(KSPDestroy(&ksp));
  }
  if (kept) TB_PETSC(KSPDestroy(&kept));
  PetscReal rnorm, bnorm;
  TB_PETSC(MatMult(m, x, r));
  TB_PETSC(VecAYPX(r, -1.0, b));
  TB_PETSC(VecNorm(r, NORM_2, &rnorm));
  TB_PETSC(VecNorm(b, NORM_2, &bnorm));
  run.relative_residual = double(rnorm / bnorm);
  TB_PETSC(VecDestroy(&r));
  TB_PETSC(VecDestroy(&x));
  TB_PETSC(VecDestroy(&b));
  TB_PETSC(MatDestroy(&m));
  return run;
}

void set_threads(int n) {
#ifdef _OPENMP
  omp_set_num_threads(n);
#else
  (void)n;
#endif
}

Run run_ours(const BsrMatrix& a, const std::vector<double>& b, const Options& o, int threads, Mode mode) {
  set_threads(threads);
  Run run;
  run.mode = mode;
  char rtol[32];
  std::snprintf(rtol, sizeof rtol, "%g", o.rtol);
  run.solver = "tb fgmres(restart=" + std::to_string(o.restart) + ",rtol=" + rtol +
               ",maxit=" + std::to_string(o.maxit) + ")+bilu0";
  run.threads = host_threads();
  std::vector<double> x(b.size());
  std::unique_ptr<LinearSolver> kept;
  if (mode == Mode::time_loop) {
    kept = make_solver(run.solver.substr(3));
    kept->setup(a);
  }
  for (int rep = 0; rep < o.reps + (kept ? 1 : 0); ++rep) {
    std::unique_ptr<LinearSolver> fresh = kept ? nullptr : make_solver(run.solver.substr(3));
    LinearSolver& solver = kept ? *kept : *fresh;
    WallTimer t;
    kept ? solver.update(a) : solver.setup(a);
    const double setup = t.seconds();
    std::fill(x.begin(), x.end(), 0.0);
    const SolveStats st = solver.solve(b, x);
    // The time loop's first repetition allocates the Krylov workspace: not timed.
    if (kept && rep == 0) continue;
    run.setup_seconds = std::min(run.setup_seconds, setup);
    run.solve_seconds = std::min(run.solve_seconds, st.solve_seconds);
    run.iterations = st.iterations;
    run.reason = std::string(to_string(st.reason));
  }
  run.relative_residual = residual_norm(a, x, b) / norm(b);
  return run;
}

void print_table(const std::vector<Run>& runs) {
  std::printf("\n%-52s %-9s %7s %9s %9s %6s %10s  %s\n", "solver", "mode", "threads", "setup s", "solve s", "its",
              "||r||/||b||", "reason");
  for (const Run& r : runs)
    std::printf("%-52s %-9s %7d %9.4f %9.4f %6d %10.2e  %s\n", r.solver.c_str(), to_string(r.mode), r.threads,
                r.setup_seconds, r.solve_seconds, r.iterations, r.relative_residual, r.reason.c_str());
}

void write_json(const Options& o, const Machine& m, const BsrMatrix& a, const std::vector<Run>& runs) {
  JsonWriter json;
  json.begin_object().value("benchmark", "tb-bench-petsc");
  write(json, m);
  json.begin_object("config")
      .value("quick", o.quick)
      .value("matrix", "stencil7 (generate_stencil7 defaults)")
      .value("grid", o.grid)
      .value("block_size", o.block_size)
      .value("rows", a.rows())
      .value("nnz_blocks", a.nnz_blocks())
      .value("restart", o.restart)
      .value("rtol", o.rtol)
      .value("maxit", o.maxit)
      .value("reps", o.reps)
      .value("rhs", "b = A x*, x*_i = sin(0.37 i) + 0.5; x0 = 0")
      .end_object();
  json.begin_array("runs");
  for (const Run& r : runs)
    json.begin_object()
        .value("solver", r.solver)
        .value("mode", to_string(r.mode))
        .value("threads", r.threads)
        .value("setup_seconds", r.setup_seconds)
        .value("solve_seconds", r.solve_seconds)
        .value("iterations", r.iterations)
        .value("relative_residual", r.relative_residual)
        .value("reason", r.reason)
        .end_object();
  json.end_array();
  for (Mode mode : {Mode::fresh, Mode::time_loop}) {
    const Run* petsc = nullptr;
    const Run* ours = nullptr;
    for (const Run& r : runs)
      if (r.mode == mode && r.threads == 1) (r.solver.starts_with("PETSc") ? petsc : ours) = &r;
    if (!petsc || !ours) continue;
    json.begin_object(mode == Mode::fresh ? "ratios_ours_1thread_over_petsc"
                                          : "ratios_ours_1thread_over_petsc_time_loop")
        .value("setup", ours->setup_seconds / petsc->setup_seconds)
        .value("solve", ours->solve_seconds / petsc->solve_seconds)
        .value("setup_plus_solve",
               (ours->setup_seconds + ours->solve_seconds) / (petsc->setup_seconds + petsc->solve_seconds))
        .value("iterations", double(ours->iterations) / petsc->iterations)
        .end_object();
  }
  json.end_object();
  json.save(o.json_path);
}

int run(int argc, char** argv) {
  const Options o = parse_options(argc, argv);
  const Machine machine = describe_machine();
  std::cout << summary(machine);
  Stencil7Params p;
  p.nx = p.ny = p.nz = o.grid;
  p.block_size = o.block_size;
  const BsrMatrix a = generate_stencil7(p);
  std::vector<double> x_star(std::size_t(a.rows())), b(x_star.size());
  for (std::size_t i = 0; i < x_star.size(); ++i) x_star[i] = std::sin(0.37 * double(i)) + 0.5;
  spmv_ref(a, x_star.data(), b.data());
  std::printf("\nstencil7 %d^3 cells, block size %d: %d rows, %d blocks; rtol %g, restart %d, best of %d\n", o.grid,
              o.block_size, a.rows(), a.nnz_blocks(), o.rtol, o.restart, o.reps);

  // PETSc sees only the program name: our options are not PETSc's.
  int petsc_argc = 1;
  char** petsc_argv = argv;
  TB_PETSC(PetscInitialize(&petsc_argc, &petsc_argv, nullptr, nullptr));
  std::vector<Run> runs;
  for (Mode mode : {Mode::fresh, Mode::time_loop}) runs.push_back(run_petsc(a, b, o, mode));
  TB_PETSC(PetscFinalize());

  const int all_threads = host_threads();
  for (Mode mode : {Mode::fresh, Mode::time_loop}) {
    runs.push_back(run_ours(a, b, o, 1, mode));
    if (all_threads > 1) runs.push_back(run_ours(a, b, o, all_threads, mode));
  }
  set_threads(all_threads);
  print_table(runs);
  if (!o.json_path.empty()) {
    write_json(o, machine, a, runs);
    std::cout << "\nwrote " << o.json_path << "\n";
  }
  return 0;
}

}  // namespace
}  // namespace tb::bench

int main(int argc, char** argv) {
  try {
    return tb::bench::run(argc, argv);
  } catch (const tb::Error& e) {
    std::cerr << "tb-bench-petsc: " << e.what() << "\n";
    return 2;
  }
}
