// The one file of the project that includes PETSc's headers (with the bench).
// PETSc runs serial per process (PETSC_COMM_SELF): under mpiexec each rank
// solves the whole replicated system, like every solver that is not MPI-aware.
#include "petsc_solver.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "petsc_library.hpp"
#include "solvers/core/error.hpp"

namespace tb::petsc {

namespace {

const PetscLibrary& lib() { return petsc_library(); }

void check(PetscErrorCode ierr, const char* what) {
  if (ierr == 0) return;
  const char* text = nullptr;
  lib().PetscErrorMessage(ierr, &text, nullptr);
  throw Error(std::string("petsc: ") + what + " failed: " + (text ? text : "error " + std::to_string(int(ierr))));
}

// PETSc is initialised on the first solver built and finalised at exit, only
// when this library started it (a program may have done so itself). Errors
// come back as codes, turned into tb::Error, instead of tracebacks on stderr.
class Session {
 public:
  Session() {
    PetscBool started = PETSC_FALSE;
    lib().PetscInitialized(&started);
    if (!started) {
      // The testbed's own messages, not PETSc's signal handler, should report a crash.
      check(lib().PetscOptionsSetValue(nullptr, "-no_signal_handler", nullptr), "PetscOptionsSetValue");
      check(lib().PetscInitializeNoArguments(), "PetscInitialize");
      owns_ = true;
    }
    lib().PetscPushErrorHandler(lib().PetscReturnErrorHandler, nullptr);
  }
  ~Session() {
    if (owns_) lib().PetscFinalize();
  }
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

 private:
  bool owns_ = false;
};

void start_petsc() { static Session session; }

StopReason stop_reason(KSPConvergedReason r) {
  switch (r) {
    case KSP_CONVERGED_RTOL:
    case KSP_CONVERGED_RTOL_NORMAL:
    case KSP_CONVERGED_HAPPY_BREAKDOWN:
    case KSP_CONVERGED_ITS:  // preonly: one application of the preconditioner (a direct solve)
      return StopReason::converged_rtol;
    case KSP_CONVERGED_ATOL:
    case KSP_CONVERGED_ATOL_NORMAL:
      return StopReason::converged_atol;
    case KSP_DIVERGED_ITS:
      return StopReason::max_iterations;
    case KSP_DIVERGED_DTOL:
      return StopReason::diverged;
    case KSP_DIVERGED_NANORINF:
      return StopReason::non_finite;
    default:
      return StopReason::breakdown;  // breakdown, indefinite matrix or PC, PC failed
  }
}

class KspSolver final : public CompleteSolver {
 public:
  KspSolver(PetscSettings s, StopCriteria stop) : s_(std::move(s)), stop_(stop) {
    parse_options(s_.options);  // refuse a malformed text before PETSc starts
    start_petsc();
  }
  ~KspSolver() override { destroy(); }
  KspSolver(const KspSolver&) = delete;
  KspSolver& operator=(const KspSolver&) = delete;

  void setup(const BsrMatrix& a) override;
  void update(const BsrMatrix& a) override;
  SolveStats solve(std::span<const double> b, std::span<double> x) override;

 private:
  void destroy();
  void create_matrix(const BsrMatrix& a);
  void create_ksp();
  void fill(const BsrMatrix& a);
  void refuse_unused_options();
  std::string rejected_option() const;
  double true_residual();

  PetscSettings s_;
  StopCriteria stop_;
  PetscOptions options_ = nullptr;
  Mat a_ = nullptr;
  KSP ksp_ = nullptr;
  Vec b_ = nullptr, x_ = nullptr, r_ = nullptr;
  BsrMatrix pattern_;  // sizes, row_ptr and col_idx of setup's matrix: update's check
  std::vector<PetscReal> history_;
  std::vector<PetscInt> cols_;
  std::vector<PetscScalar> row_values_;
};

void KspSolver::destroy() {
  if (ksp_) lib().KSPDestroy(&ksp_);
  if (a_) lib().MatDestroy(&a_);
  if (b_) lib().VecDestroy(&b_);
  if (x_) lib().VecDestroy(&x_);
  if (r_) lib().VecDestroy(&r_);
  if (options_) lib().PetscOptionsDestroy(&options_);
}

// The pattern once: preallocated from the block rows, then no new entry allowed.
void KspSolver::create_matrix(const BsrMatrix& a) {
  const PetscInt bs = a.block_size, n = PetscInt(a.rows());
  std::vector<PetscInt> blocks_per_row(std::size_t(a.block_rows));
  for (index_t i = 0; i < a.block_rows; ++i) blocks_per_row[std::size_t(i)] = a.row_ptr[i + 1] - a.row_ptr[i];
  check(lib().MatCreate(PETSC_COMM_SELF, &a_), "MatCreate");
  check(lib().MatSetSizes(a_, n, n, n, n), "MatSetSizes");
  check(lib().MatSetBlockSize(a_, bs), "MatSetBlockSize");
  check(lib().MatSetType(a_, s_.format == "aij" ? MATSEQAIJ : MATSEQBAIJ), "MatSetType");
  check(lib().MatXAIJSetPreallocation(a_, bs, blocks_per_row.data(), nullptr, nullptr, nullptr),
        "MatXAIJSetPreallocation");
  check(lib().MatSetOption(a_, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_TRUE), "MatSetOption");
  check(lib().MatCreateVecs(a_, &x_, &b_), "MatCreateVecs");
  check(lib().VecDuplicate(b_, &r_), "VecDuplicate");
}

// One MatSetValuesBlocked per block row: PETSc reads the row's blocks as one
// row-oriented bs x (blocks * bs) array, ours are stored block after block.
void KspSolver::fill(const BsrMatrix& a) {
  const index_t bs = a.block_size;
  for (index_t i = 0; i < a.block_rows; ++i) {
    const index_t first = a.row_ptr[i], count = a.row_ptr[i + 1] - first;
    cols_.assign(a.col_idx.begin() + first, a.col_idx.begin() + first + count);
    row_values_.resize(std::size_t(count) * std::size_t(bs * bs));
    for (index_t k = 0; k < count; ++k)
      for (index_t r = 0; r < bs; ++r)
        for (index_t c = 0; c < bs; ++c)
          row_values_[std::size_t(r) * std::size_t(count * bs) + std::size_t(k * bs + c)] =
              a.block(first + k)[r * bs + c];
    const PetscInt row = i;
    check(lib().MatSetValuesBlocked(a_, 1, &row, PetscInt(count), cols_.data(), row_values_.data(), INSERT_VALUES),
          "MatSetValuesBlocked");
  }
  check(lib().MatAssemblyBegin(a_, MAT_FINAL_ASSEMBLY), "MatAssemblyBegin");
  check(lib().MatAssemblyEnd(a_, MAT_FINAL_ASSEMBLY), "MatAssemblyEnd");
}

// ksp and pc first, the options text after, as PETSc's -ksp_type would come
// before -pc_... refinements on a command line. A private options database per
// solver: shadows and A/B runs in one process never see each other's options.
void KspSolver::create_ksp() {
  check(lib().PetscOptionsCreate(&options_), "PetscOptionsCreate");
  for (const auto& [name, value] : parse_options(s_.options))
    check(lib().PetscOptionsSetValue(options_, name.c_str(), value.empty() ? nullptr : value.c_str()),
          "PetscOptionsSetValue");
  check(lib().KSPCreate(PETSC_COMM_SELF, &ksp_), "KSPCreate");
  check(lib().PetscObjectSetOptions(reinterpret_cast<PetscObject>(ksp_), options_), "PetscObjectSetOptions");
  check(lib().KSPSetType(ksp_, s_.ksp.c_str()), "KSPSetType");
  PC pc = nullptr;
  check(lib().KSPGetPC(ksp_, &pc), "KSPGetPC");
  check(lib().PetscObjectSetOptions(reinterpret_cast<PetscObject>(pc), options_), "PetscObjectSetOptions");
  check(lib().PCSetType(pc, s_.pc.c_str()), "PCSetType");
  check(lib().KSPGMRESSetRestart(ksp_, s_.restart), "KSPGMRESSetRestart");  // a no-op for non-GMRES types
  check(lib().KSPSetTolerances(ksp_, stop_.rtol, stop_.atol, stop_.dtol, stop_.maxit), "KSPSetTolerances");
  // The harness hands the previous step's solution as x0. PETSc's default
  // test is then relative to ||b|| (KSP_CONVERGED_RTOL); relative_to = r0,
  // every other solver's default, asks for ||b - A x0|| (UIRNorm).
  check(lib().KSPSetInitialGuessNonzero(ksp_, PETSC_TRUE), "KSPSetInitialGuessNonzero");
  if (stop_.relative_to == RtolReference::initial_residual)
    check(lib().KSPConvergedDefaultSetUIRNorm(ksp_), "KSPConvergedDefaultSetUIRNorm");
  history_.assign(std::size_t(stop_.maxit) + 1, 0.0);
  check(lib().KSPSetResidualHistory(ksp_, history_.data(), PetscInt(history_.size()), PETSC_TRUE),
        "KSPSetResidualHistory");
  check(lib().KSPSetOperators(ksp_, a_, a_), "KSPSetOperators");
  try {
    check(lib().KSPSetFromOptions(ksp_), "KSPSetFromOptions");
  } catch (const Error& e) {
    const std::string culprit = rejected_option();
    if (!culprit.empty()) throw Unsupported(std::string(e.what()) + culprit);
    throw;
  }
}

// PETSc says only that an option's value was refused ("Argument out of
// range"), not which: each option is tried alone on a throw-away KSP of the
// same types until one fails. "" when none fails alone.
std::string KspSolver::rejected_option() const {
  for (const auto& [name, value] : parse_options(s_.options)) {
    PetscOptions one = nullptr;
    KSP ksp = nullptr;
    PC pc = nullptr;
    bool refused = false;
    if (lib().PetscOptionsCreate(&one) != 0) return {};
    if (lib().PetscOptionsSetValue(one, name.c_str(), value.empty() ? nullptr : value.c_str()) == 0 &&
        lib().KSPCreate(PETSC_COMM_SELF, &ksp) == 0) {
      refused = lib().PetscObjectSetOptions(reinterpret_cast<PetscObject>(ksp), one) != 0 ||
                lib().KSPSetType(ksp, s_.ksp.c_str()) != 0 || lib().KSPGetPC(ksp, &pc) != 0 ||
                lib().PetscObjectSetOptions(reinterpret_cast<PetscObject>(pc), one) != 0 ||
                lib().PCSetType(pc, s_.pc.c_str()) != 0 || lib().KSPSetOperators(ksp, a_, a_) != 0 ||
                lib().KSPSetFromOptions(ksp) != 0;
    }
    if (ksp) lib().KSPDestroy(&ksp);
    lib().PetscOptionsDestroy(&one);
    if (refused)
      return ": the option " + name.substr(1) + (value.empty() ? "" : ":" + value) + " of options=" + s_.options +
             " has a value PETSc does not take for ksp=" + s_.ksp + ", pc=" + s_.pc;
  }
  return {};
}

// A misspelt option would otherwise be ignored silently and the study would
// compare something else than it says.
void KspSolver::refuse_unused_options() {
  PetscInt count = 0;
  char** names = nullptr;
  char** values = nullptr;
  check(lib().PetscOptionsLeftGet(options_, &count, &names, &values), "PetscOptionsLeftGet");
  std::string unused;
  for (PetscInt i = 0; i < count; ++i) unused += std::string(unused.empty() ? "" : ", ") + "-" + names[i];
  lib().PetscOptionsLeftRestore(options_, &count, &names, &values);
  if (!unused.empty())
    throw Unsupported("petsc: options not used by ksp=" + s_.ksp + ", pc=" + s_.pc + ": " + unused +
                      " (misspelt, or for another KSP or PC type)");
}

void KspSolver::setup(const BsrMatrix& a) {
  destroy();
  create_matrix(a);
  fill(a);
  create_ksp();
  try {
    check(lib().KSPSetUp(ksp_), "KSPSetUp");
  } catch (const Error& e) {
    throw Error(std::string(e.what()) + " (ksp=" + s_.ksp + ", pc=" + s_.pc + ", format=" + s_.format +
                "; gamg and hypre need format=aij)");
  }
  refuse_unused_options();
  pattern_ = BsrMatrix{a.block_size, a.block_rows, a.block_cols, a.row_ptr, a.col_idx, {}};
}

// Values only: the same Mat, so PETSc keeps its symbolic factorisation or
// hierarchy structure and redoes the numeric part.
void KspSolver::update(const BsrMatrix& a) {
  if (!ksp_) return setup(a);
  if (!a.same_pattern(pattern_))
    throw Error("petsc: update with a matrix whose pattern differs from setup's (" + std::to_string(a.block_rows) +
                " block rows, " + std::to_string(a.nnz_blocks()) + " blocks; set up with " +
                std::to_string(pattern_.block_rows) + ", " + std::to_string(pattern_.nnz_blocks()) +
                "); call setup for a new pattern");
  fill(a);
  check(lib().KSPSetOperators(ksp_, a_, a_), "KSPSetOperators");
  check(lib().KSPSetUp(ksp_), "KSPSetUp");
  PC pc = nullptr;
  check(lib().KSPGetPC(ksp_, &pc), "KSPGetPC");
  check(lib().PCSetUp(pc), "PCSetUp");
}

double KspSolver::true_residual() {
  PetscReal norm = 0.0;
  check(lib().MatMult(a_, x_, r_), "MatMult");
  check(lib().VecAYPX(r_, -1.0, b_), "VecAYPX");
  check(lib().VecNorm(r_, NORM_2, &norm), "VecNorm");
  return double(norm);
}

void copy_in(Vec v, std::span<const double> h) {
  PetscScalar* p = nullptr;
  check(lib().VecGetArrayWrite(v, &p), "VecGetArrayWrite");
  std::copy(h.begin(), h.end(), p);
  check(lib().VecRestoreArrayWrite(v, &p), "VecRestoreArrayWrite");
}

void copy_out(Vec v, std::span<double> h) {
  const PetscScalar* p = nullptr;
  check(lib().VecGetArrayRead(v, &p), "VecGetArrayRead");
  std::copy(p, p + h.size(), h.begin());
  check(lib().VecRestoreArrayRead(v, &p), "VecRestoreArrayRead");
}

SolveStats KspSolver::solve(std::span<const double> b, std::span<double> x) {
  if (!ksp_) throw Error("petsc: solve() before setup()");
  PetscInt n = 0;
  check(lib().VecGetSize(b_, &n), "VecGetSize");
  if (b.size() != std::size_t(n) || x.size() != std::size_t(n))
    throw Error("petsc: vectors of length " + std::to_string(b.size()) + " and " + std::to_string(x.size()) +
                " for a matrix of " + std::to_string(n) + " rows");
  copy_in(b_, b);
  copy_in(x_, x);
  SolveStats st;
  st.initial_residual = true_residual();
  check(lib().KSPSolve(ksp_, b_, x_), "KSPSolve");
  KSPConvergedReason reason = KSP_CONVERGED_ITERATING;
  PetscInt its = 0, recorded = 0;
  check(lib().KSPGetConvergedReason(ksp_, &reason), "KSPGetConvergedReason");
  check(lib().KSPGetIterationNumber(ksp_, &its), "KSPGetIterationNumber");
  check(lib().KSPGetResidualHistory(ksp_, nullptr, &recorded), "KSPGetResidualHistory");
  copy_out(x_, x);
  st.reason = stop_reason(reason);
  st.iterations = int(its);
  st.residual_history.assign(history_.begin(), history_.begin() + std::min<std::size_t>(recorded, history_.size()));
  st.final_residual = true_residual();
  KSPType ksp_type = nullptr;
  PCType pc_type = nullptr;
  PC pc = nullptr;
  lib().KSPGetType(ksp_, &ksp_type);
  lib().KSPGetPC(ksp_, &pc);
  lib().PCGetType(pc, &pc_type);
  st.detail = std::string("PETSc ") + lib().reason_name(reason) + " (ksp " + ksp_type + ", pc " + pc_type + ")";
  return st;
}

}  // namespace

bool available() { return true; }

std::unique_ptr<CompleteSolver> make_solver(const PetscSettings& settings, const StopCriteria& stop) {
  return std::make_unique<KspSolver>(settings, stop);
}

}  // namespace tb::petsc
