// tb-bench-petsc: PETSc's BAIJ ILU(0) + FGMRES(m) against our
// fgmres(restart=m)+bilu0 on the same stencil7 system, in one run. PETSc is
// serial within a process here, so the like-for-like comparison is ours on one
// OpenMP thread; ours on all threads is reported beside it. PETSc headers stay
// in this file. Run with --help; bench/README.md explains the figures.
#include <petscksp.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "../common/command_line.hpp"
#include "solvers/core/error.hpp"
#include "solvers/core/json_writer.hpp"
#include "solvers/core/machine.hpp"
#include "solvers/core/timer.hpp"
#include "solvers/factory/registry.hpp"
#include "solvers/matrix/bsr_operator.hpp"
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
  int reps = 7;
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
    "  --reps N        timed repetitions of set-up and solve, after one untimed; each configuration's\n"
    "                  repetitions interleave with the others'; best and median reported (default 7)\n";

Options parse_options(int argc, char** argv) {
  Options o;
  bool grid_set = false, reps_set = false;
  for (ArgumentList args(argc, argv, usage); args.next();) {
    const std::string& f = args.flag();
    if (f == "--quick") {
      o.quick = true;
    } else if (f == "--json") {
      o.json_path = args.value();
    } else if (f == "--grid") {
      o.grid = index_t(parse_count(f, args.value(), 2));
      grid_set = true;
    } else if (f == "--block-size") {
      o.block_size = index_t(parse_count(f, args.value(), 1));
    } else if (f == "--restart") {
      o.restart = int(parse_count(f, args.value(), 1));
    } else if (f == "--rtol") {
      o.rtol = parse_real(f, args.value(), 0.0);
    } else if (f == "--reps") {
      o.reps = int(parse_count(f, args.value(), 1));
      reps_set = true;
    } else {
      args.reject();
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

// Per repetition: set-up and solve seconds; the tables give the best and the median.
struct Run {
  std::string solver;
  Mode mode = Mode::fresh;
  int threads = 1;
  std::vector<double> setup_seconds, solve_seconds;
  int iterations = 0;
  double relative_residual = NAN;  // ||b - A x|| / ||b||, recomputed after the solve
  std::string reason;
  std::vector<double> totals() const {
    std::vector<double> t(setup_seconds.size());
    for (std::size_t i = 0; i < t.size(); ++i) t[i] = setup_seconds[i] + solve_seconds[i];
    return t;
  }
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

double best(std::vector<double> t) { return t.empty() ? NAN : *std::min_element(t.begin(), t.end()); }
double median(std::vector<double> t) {
  if (t.empty()) return NAN;
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

// A solver configuration whose repetitions interleave with the others', so
// that a slow spell of a shared machine falls on all of them alike.
class Runner {
 public:
  virtual ~Runner() = default;
  // One set-up and one solve from x0 = 0; an untimed one first (warm-up, and
  // in the time loop the symbolic set-up and the Krylov workspace).
  virtual void repetition(bool timed) = 0;
  virtual Run finish() = 0;
};

// Fresh: a new KSP each time, symbolic + numeric. Time loop: one KSP; the
// matrix is assembled again so PCSetUp refactors numerically on the same pattern.
class PetscRunner final : public Runner {
 public:
  PetscRunner(const BsrMatrix& a, const std::vector<double>& hb, const Options& o, Mode mode) : o_(o) {
    run_.solver =
        std::string("PETSc ") + PETSC_VERSION_GIT + " baij ilu(0) natural + fgmres(" + std::to_string(o.restart) + ")";
    run_.mode = mode;
    m_ = to_petsc(a);
    b_ = to_petsc(hb);
    TB_PETSC(VecDuplicate(b_, &x_));
    if (mode == Mode::time_loop) kept_ = make_ksp(m_, o);
  }
  ~PetscRunner() override {
    if (kept_) KSPDestroy(&kept_);
    VecDestroy(&x_);
    VecDestroy(&b_);
    MatDestroy(&m_);
  }
  void repetition(bool timed) override {
    KSP ksp = kept_ ? kept_ : make_ksp(m_, o_);
    PC pc;
    TB_PETSC(KSPGetPC(ksp, &pc));
    if (kept_) {
      // A new assembly raises the matrix's state, as new Jacobian values would.
      TB_PETSC(MatAssemblyBegin(m_, MAT_FINAL_ASSEMBLY));
      TB_PETSC(MatAssemblyEnd(m_, MAT_FINAL_ASSEMBLY));
      TB_PETSC(KSPSetOperators(ksp, m_, m_));
    }
    WallTimer t;
    TB_PETSC(KSPSetUp(ksp));
    TB_PETSC(PCSetUp(pc));
    const double setup = t.seconds();
    TB_PETSC(VecSet(x_, 0.0));
    t.restart();
    TB_PETSC(KSPSolve(ksp, b_, x_));
    const double solve = t.seconds();
    if (timed) {
      run_.setup_seconds.push_back(setup);
      run_.solve_seconds.push_back(solve);
    }
    PetscInt its;
    KSPConvergedReason reason;
    TB_PETSC(KSPGetIterationNumber(ksp, &its));
    TB_PETSC(KSPGetConvergedReason(ksp, &reason));
    run_.iterations = int(its);
    run_.reason = KSPConvergedReasons[reason];
    if (!kept_) TB_PETSC(KSPDestroy(&ksp));
  }
  Run finish() override {
    Vec r;
    TB_PETSC(VecDuplicate(b_, &r));
    PetscReal rnorm, bnorm;
    TB_PETSC(MatMult(m_, x_, r));
    TB_PETSC(VecAYPX(r, -1.0, b_));
    TB_PETSC(VecNorm(r, NORM_2, &rnorm));
    TB_PETSC(VecNorm(b_, NORM_2, &bnorm));
    TB_PETSC(VecDestroy(&r));
    run_.relative_residual = double(rnorm / bnorm);
    return run_;
  }

 private:
  const Options& o_;
  Run run_;
  Mat m_;
  Vec b_, x_;
  KSP kept_ = nullptr;
};

class OursRunner final : public Runner {
 public:
  OursRunner(const BsrMatrix& a, const std::vector<double>& b, const Options& o, int threads, Mode mode)
      : a_(a), b_(b), x_(b.size()), threads_(threads) {
    char rtol[32];
    std::snprintf(rtol, sizeof rtol, "%g", o.rtol);
    spec_ = "fgmres(restart=" + std::to_string(o.restart) + ",rtol=" + rtol + ",maxit=" + std::to_string(o.maxit) +
            ")+bilu0";
    run_.solver = "tb " + spec_;
    run_.mode = mode;
    set_host_threads(threads_);
    run_.threads = host_threads();
    if (mode == Mode::time_loop) {
      kept_ = make_solver(spec_);
      kept_->setup(a_);
    }
  }
  void repetition(bool timed) override {
    set_host_threads(threads_);
    std::unique_ptr<LinearSolver> fresh = kept_ ? nullptr : make_solver(spec_);
    LinearSolver& solver = kept_ ? *kept_ : *fresh;
    WallTimer t;
    kept_ ? solver.update(a_) : solver.setup(a_);
    const double setup = t.seconds();
    std::fill(x_.begin(), x_.end(), 0.0);
    const SolveStats st = solver.solve(b_, x_);
    if (timed) {
      run_.setup_seconds.push_back(setup);
      run_.solve_seconds.push_back(st.solve_seconds);
    }
    run_.iterations = st.iterations;
    run_.reason = std::string(to_string(st.reason));
  }
  Run finish() override {
    run_.relative_residual = residual_norm(a_, x_, b_) / norm(b_);
    return run_;
  }

 private:
  const BsrMatrix& a_;
  const std::vector<double>& b_;
  std::vector<double> x_;
  int threads_;
  std::string spec_;
  Run run_;
  std::unique_ptr<LinearSolver> kept_;
};

// One kernel of each library on the same operands, timed alternately so that a
// slow spell of a shared machine falls on both: per call, the best and the median.
struct KernelTiming {
  std::string kernel;
  std::vector<double> ours, petsc;
};

template <class Ours, class Petsc>
KernelTiming time_alternately(const std::string& kernel, int reps, Ours&& ours, Petsc&& petsc) {
  KernelTiming k{kernel, {}, {}};
  ours();
  petsc();
  for (int rep = 0; rep < reps; ++rep) {
    WallTimer t;
    ours();
    k.ours.push_back(t.seconds());
    t.restart();
    petsc();
    k.petsc.push_back(t.seconds());
  }
  return k;
}

// SpMV, the BILU(0) numeric factorisation and its application, one thread.
std::vector<KernelTiming> compare_kernels(const BsrMatrix& a, const Options& o) {
  set_host_threads(1);
  const int reps = std::max(5, 4 * o.reps);
  const std::size_t n = std::size_t(a.rows());
  std::vector<double> hx(n);
  for (std::size_t i = 0; i < n; ++i) hx[i] = std::cos(0.11 * double(i));
  BsrOperator op(a, Backend::host);
  Vector x(Backend::host, n), y(Backend::host, n);
  x.copy_from_host(hx);
  std::unique_ptr<LinearSolver> ours = make_solver("fgmres+bilu0");
  ours->setup(a);

  Mat m = to_petsc(a);
  Vec px = to_petsc(hx), py;
  TB_PETSC(VecDuplicate(px, &py));
  KSP ksp = make_ksp(m, o);
  PC pc;
  TB_PETSC(KSPGetPC(ksp, &pc));
  TB_PETSC(KSPSetUp(ksp));
  TB_PETSC(PCSetUp(pc));

  std::vector<KernelTiming> out;
  out.push_back(time_alternately(
      "spmv", reps, [&] { op.apply(x, y); }, [&] { TB_PETSC(MatMult(m, px, py)); }));
  out.push_back(time_alternately(
      "bilu0 apply", reps, [&] { ours->preconditioner().apply(x, y); }, [&] { TB_PETSC(PCApply(pc, px, py)); }));
  out.push_back(time_alternately(
      "bilu0 numeric factorisation", std::max(3, o.reps), [&] { ours->update(a); },
      [&] {
        TB_PETSC(MatAssemblyBegin(m, MAT_FINAL_ASSEMBLY));
        TB_PETSC(MatAssemblyEnd(m, MAT_FINAL_ASSEMBLY));
        TB_PETSC(KSPSetOperators(ksp, m, m));
        TB_PETSC(PCSetUp(pc));
      }));
  TB_PETSC(KSPDestroy(&ksp));
  TB_PETSC(VecDestroy(&py));
  TB_PETSC(VecDestroy(&px));
  TB_PETSC(MatDestroy(&m));
  return out;
}

void print_kernels(const std::vector<KernelTiming>& ks) {
  std::printf("\n%-28s %12s %12s %12s %12s %10s\n", "kernel, 1 thread, ms", "ours best", "PETSc best", "ours median",
              "PETSc median", "ours/PETSc");
  for (const KernelTiming& k : ks)
    std::printf("%-28s %12.3f %12.3f %12.3f %12.3f %10.2f\n", k.kernel.c_str(), 1e3 * best(k.ours), 1e3 * best(k.petsc),
                1e3 * median(k.ours), 1e3 * median(k.petsc), median(k.ours) / median(k.petsc));
}

void print_table(const std::vector<Run>& runs) {
  std::printf("\n%-52s %-9s %7s %9s %9s %9s %6s %10s  %s\n", "solver", "mode", "threads", "setup s", "solve s",
              "median s", "its", "||r||/||b||", "reason");
  std::printf("%-52s %-9s %7s %9s %9s %9s\n", "", "", "", "(best)", "(best)", "(sum)");
  for (const Run& r : runs)
    std::printf("%-52s %-9s %7d %9.4f %9.4f %9.4f %6d %10.2e  %s\n", r.solver.c_str(), to_string(r.mode), r.threads,
                best(r.setup_seconds), best(r.solve_seconds), median(r.totals()), r.iterations, r.relative_residual,
                r.reason.c_str());
}

// The runs of one mode that the ratios compare: PETSc's and ours on one thread.
std::pair<const Run*, const Run*> petsc_and_ours(const std::vector<Run>& runs, Mode mode) {
  const Run *petsc = nullptr, *ours = nullptr;
  for (const Run& r : runs)
    if (r.mode == mode && r.threads == 1) (r.solver.starts_with("PETSc") ? petsc : ours) = &r;
  return {petsc, ours};
}

// Repetition k of each ran back to back, so their ratio sees one state of the
// machine; the median of these paired ratios is the figure the README quotes.
double paired_ratio_median(const Run& ours, const Run& petsc) {
  const std::vector<double> o = ours.totals(), p = petsc.totals();
  std::vector<double> r(std::min(o.size(), p.size()));
  for (std::size_t i = 0; i < r.size(); ++i) r[i] = o[i] / p[i];
  return median(r);
}

void print_ratios(const std::vector<Run>& runs) {
  std::printf("\nours(1 thread) / PETSc, set-up + solve: median of paired repetitions, ratio of medians, of bests\n");
  for (Mode mode : {Mode::fresh, Mode::time_loop}) {
    const auto [petsc, ours] = petsc_and_ours(runs, mode);
    if (petsc && ours)
      std::printf("  %-9s  %.2f  %.2f  %.2f\n", to_string(mode), paired_ratio_median(*ours, *petsc),
                  median(ours->totals()) / median(petsc->totals()), best(ours->totals()) / best(petsc->totals()));
  }
}

void write_json(const Options& o, const Machine& m, const BsrMatrix& a, const std::vector<Run>& runs,
                const std::vector<KernelTiming>& kernels) {
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
  for (const Run& r : runs) {
    json.begin_object()
        .value("solver", r.solver)
        .value("mode", to_string(r.mode))
        .value("threads", r.threads)
        .value("setup_seconds_best", best(r.setup_seconds))
        .value("solve_seconds_best", best(r.solve_seconds))
        .value("setup_plus_solve_seconds_median", median(r.totals()))
        .begin_array("setup_plus_solve_seconds_all");
    for (double t : r.totals()) json.value({}, t);
    json.end_array()
        .value("iterations", r.iterations)
        .value("relative_residual", r.relative_residual)
        .value("reason", r.reason)
        .end_object();
  }
  json.end_array();
  json.begin_array("kernels_1thread_alternating");
  for (const KernelTiming& k : kernels)
    json.begin_object()
        .value("kernel", k.kernel)
        .value("ours_best_seconds", best(k.ours))
        .value("petsc_best_seconds", best(k.petsc))
        .value("ours_median_seconds", median(k.ours))
        .value("petsc_median_seconds", median(k.petsc))
        .value("ours_over_petsc_median", median(k.ours) / median(k.petsc))
        .end_object();
  json.end_array();
  for (Mode mode : {Mode::fresh, Mode::time_loop}) {
    const auto [petsc, ours] = petsc_and_ours(runs, mode);
    if (!petsc || !ours) continue;
    json.begin_object(mode == Mode::fresh ? "ratios_ours_1thread_over_petsc"
                                          : "ratios_ours_1thread_over_petsc_time_loop")
        .value("setup_best", best(ours->setup_seconds) / best(petsc->setup_seconds))
        .value("solve_best", best(ours->solve_seconds) / best(petsc->solve_seconds))
        .value("setup_plus_solve_paired_median", paired_ratio_median(*ours, *petsc))
        .value("setup_plus_solve_median", median(ours->totals()) / median(petsc->totals()))
        .value("setup_plus_solve_best", best(ours->totals()) / best(petsc->totals()))
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
  std::printf("\nstencil7 %d^3 cells, block size %d: %d rows, %d blocks; rtol %g, restart %d, %d repetitions\n", o.grid,
              o.block_size, a.rows(), a.nnz_blocks(), o.rtol, o.restart, o.reps);

  // PETSc sees only the program name: our options are not PETSc's.
  int petsc_argc = 1;
  char** petsc_argv = argv;
  TB_PETSC(PetscInitialize(&petsc_argc, &petsc_argv, nullptr, nullptr));
  const int all_threads = host_threads();
  std::vector<Run> runs;
  {
    std::vector<std::unique_ptr<Runner>> runners;
    for (Mode mode : {Mode::fresh, Mode::time_loop}) {
      runners.push_back(std::make_unique<PetscRunner>(a, b, o, mode));
      runners.push_back(std::make_unique<OursRunner>(a, b, o, 1, mode));
      if (all_threads > 1) runners.push_back(std::make_unique<OursRunner>(a, b, o, all_threads, mode));
    }
    for (int rep = 0; rep <= o.reps; ++rep) {
      for (auto& r : runners) r->repetition(rep > 0);
      std::fprintf(stderr, "\rrepetition %d of %d", rep, o.reps);
    }
    std::fprintf(stderr, "\n");
    for (auto& r : runners) runs.push_back(r->finish());
  }
  const std::vector<KernelTiming> kernels = compare_kernels(a, o);
  TB_PETSC(PetscFinalize());
  set_host_threads(all_threads);
  print_kernels(kernels);
  print_table(runs);
  print_ratios(runs);
  if (!o.json_path.empty()) {
    write_json(o, machine, a, runs, kernels);
    std::cout << "\nwrote " << o.json_path << "\n";
  }
  return 0;
}

}  // namespace
}  // namespace tb::bench

int main(int argc, char** argv) { return tb::bench::guarded_main("tb-bench-petsc", argc, argv, tb::bench::run); }
