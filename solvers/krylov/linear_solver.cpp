#include "linear_solver.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "solvers/core/device_launches.hpp"
#include "solvers/core/error.hpp"
#include "solvers/core/kernels.hpp"
#include "solvers/core/timer.hpp"

namespace tb {

LinearSolver::LinearSolver(std::string spec, std::unique_ptr<KrylovMethod> method,
                           std::unique_ptr<Preconditioner> precond, Backend backend)
    : spec_(std::move(spec)), method_(std::move(method)), precond_(std::move(precond)), backend_(backend) {
  if (!precond_->supports(backend_))
    throw Error("solver '" + spec_ + "': its preconditioner has no " + std::string(to_string(backend_)) + " backend");
  if (precond_->is_variable() && !method_->accepts_variable_preconditioner())
    throw Error("solver '" + spec_ + "': the preconditioner changes between applications; use fgmres or richardson");
}

LinearSolver::LinearSolver(std::string spec, std::unique_ptr<CompleteSolver> complete, Backend backend)
    : spec_(std::move(spec)), complete_(std::move(complete)), backend_(backend) {}

LinearSolver::~LinearSolver() = default;

bool LinearSolver::limit(SolveLimit l) {
  if (!method_) return complete_ && complete_->limit(l);
  if (l.iterations >= method_->stop().maxit) l.iterations = 0;
  method_->limit(l);
  return l.iterations > 0 || l.seconds > 0.0;
}

int LinearSolver::max_iterations() const {
  if (method_) return method_->stop().maxit;
  return complete_ ? complete_->max_iterations() : 0;
}

KrylovMethod& LinearSolver::method() {
  if (!method_) throw Error("solver '" + spec_ + "' is a complete solver: it has no separate Krylov method");
  return *method_;
}

Preconditioner& LinearSolver::preconditioner() {
  if (!precond_) throw Error("solver '" + spec_ + "' is a complete solver: it has no separate preconditioner");
  return *precond_;
}

namespace {
void check_matrix(const BsrMatrix& a, const std::string& spec) {
  a.validate();
  if (a.block_rows != a.block_cols) throw Error("solver '" + spec + "': the matrix is not square");
}
}  // namespace

void LinearSolver::setup(const BsrMatrix& a, BsrOperator::Storage storage) {
  if (complete_ && complete_->spans_ranks())
    a.validate();  // this rank's rows: the solver checks the shape against the ranks'
  else
    check_matrix(a, spec_);
  WallTimer t;
  if (complete_) {
    complete_->setup(a);
    set_up_ = true;
    setup_seconds_ = t.seconds();
    return;
  }
  op_ = std::make_unique<BsrOperator>(a, backend_, storage);
  precond_->setup(a, backend_);
  reserve_work();
  setup_seconds_ = t.seconds();
}

void LinearSolver::reserve_work() {
  const std::size_t n = std::size_t(op_->rows());
  method_->reserve(backend_, n);
  b_dev_ = Vector(backend_, n), x_dev_ = Vector(backend_, n), r_dev_ = Vector(backend_, n);
}

void LinearSolver::setup_in_place(const BsrMatrix& pattern, const BsrView& a) {
  if (!sets_up_in_place()) throw Error("internal: solver '" + spec_ + "' cannot set up from values on its backend");
  if (pattern.block_rows != pattern.block_cols) throw Error("solver '" + spec_ + "': the matrix is not square");
  WallTimer t;
  BsrMatrix shape;  // the pattern without its values: the operator holds none of its own
  shape.block_size = pattern.block_size, shape.block_rows = pattern.block_rows, shape.block_cols = pattern.block_cols;
  shape.row_ptr = pattern.row_ptr, shape.col_idx = pattern.col_idx;
  op_ = std::make_unique<BsrOperator>(shape, backend_);
  op_->apply_in_place(a);
  precond_->setup_in_place(pattern, a, backend_);
  reserve_work();
  setup_seconds_ = t.seconds();
}

void LinearSolver::update(const BsrMatrix& a) {
  if (complete_) {
    if (!set_up_) return setup(a);
    WallTimer t;
    complete_->update(a);
    setup_seconds_ = t.seconds();
    return;
  }
  if (!op_) return setup(a);
  WallTimer t;
  op_->update_values(a);
  precond_->update(a);
  setup_seconds_ = t.seconds();
}

void LinearSolver::attach(const BsrMatrix& a) {
  if (op_ && op_->borrows()) op_->update_values(a);
}

bool LinearSolver::updates_in_place() const {
  if (complete_) return complete_->updates_in_place();
  return method_ && precond_->updates_in_place();
}

void LinearSolver::update(const BsrView& a) {
  if (!updates_in_place() || (!op_ && !set_up_))
    throw Error("internal: solver '" + spec_ + "' cannot refresh from values on its backend");
  WallTimer t;
  if (complete_) {
    complete_->update_in_place(a);
    setup_seconds_ = t.seconds();
    return;
  }
  op_->apply_in_place(a);
  precond_->update_in_place(a);
  setup_seconds_ = t.seconds();
}

void LinearSolver::attach(const BsrView& a) {
  if (complete_ && set_up_) return complete_->attach_in_place(a);
  if (!op_) throw Error("internal: solver '" + spec_ + "': attach() before setup()");
  op_->apply_in_place(a);
}

namespace {
void keep_ends(std::vector<double>& history) {
  if (history.size() > 2) history = {history.front(), history.back()};
}
}  // namespace

SolveStats LinearSolver::solve(std::span<const double> b, std::span<double> x) {
  if (complete_) {
    SolveStats st = solve_complete(b, x);
    if (!history_) keep_ends(st.residual_history);
    return st;
  }
  if (!op_) throw Error("solver '" + spec_ + "': solve() before setup()");
  const std::size_t n = std::size_t(op_->rows());
  if (b.size() != n || x.size() != n)
    throw Error("solver '" + spec_ + "': vectors of length " + std::to_string(b.size()) + " and " +
                std::to_string(x.size()) + " for a matrix of " + std::to_string(n) + " rows");
  if (b_dev_.size() != n || b_dev_.backend() != backend_) {
    b_dev_ = Vector(backend_, n);
    x_dev_ = Vector(backend_, n);
  }
  b_dev_.copy_from_host(b);
  x_dev_.copy_from_host(x);
  SolveStats st = solve(b_dev_, x_dev_);
  x_dev_.copy_to_host(x);
  return st;
}

namespace {

// The solver's preconditioner as the method sees it during one solve: each
// application forwarded and counted with the device launches it issued
// (SolveStats). Built on the stack per solve; set-up goes to the solver's own.
class CountedApplications final : public Preconditioner {
 public:
  explicit CountedApplications(const Preconditioner& m) : m_(m) {}
  void setup(const BsrMatrix&, Backend) override { refuse(); }
  void update(const BsrMatrix&) override { refuse(); }
  void apply(const Vector& r, Vector& z) const override {
    const long before = device_launches();
    m_.apply(r, z);
    launches_ += device_launches() - before;
    ++applications_;
  }
  bool supports(Backend b) const override { return m_.supports(b); }
  bool is_variable() const override { return m_.is_variable(); }
  long applications() const { return applications_; }
  long launches() const { return launches_; }

 private:
  [[noreturn]] static void refuse() { throw Error("internal: a preconditioner is set up through its LinearSolver"); }
  const Preconditioner& m_;
  mutable long applications_ = 0, launches_ = 0;
};

}  // namespace

SolveStats CompleteSolver::solve_on_backend(const Vector& b, Vector&) {
  throw Error("internal: a complete solver asked to solve vectors on " + std::string(to_string(b.backend())));
}

void CompleteSolver::update_in_place(const BsrView&) {
  throw Error("internal: a complete solver refreshed from values on its backend");
}

void CompleteSolver::attach_in_place(const BsrView&) {
  throw Error("internal: a complete solver pointed at values on its backend");
}

void LinearSolver::record_history(bool on) {
  history_ = on;
  if (method_) method_->record_history(on);
}

void LinearSolver::recompute_final_residual(bool on) {
  recompute_ = on;
  if (complete_) complete_->recompute_final_residual(on);
}

SolveStats LinearSolver::solve(const Vector& b, Vector& x) {
  SolveStats st = solve_recorded(b, x);
  if (!history_) keep_ends(st.residual_history);
  return st;
}

namespace {

// NaN or Inf in b or x makes ||r0|| non-finite: the method stops at its
// start; the inputs are searched only then (each search a read on a device).
void name_non_finite_inputs(SolveStats& st, const Vector& b, const Vector& x) {
  if (st.reason == StopReason::non_finite && st.iterations == 0 && (!kernels::all_finite(b) || !kernels::all_finite(x)))
    st.detail = "right-hand side or initial guess holds NaN or Inf";
}

}  // namespace

SolveStats LinearSolver::solve_recorded(const Vector& b, Vector& x) {
  if (complete_ && complete_->solves_on(b.backend()) && x.backend() == b.backend()) {
    if (!set_up_) throw Error("solver '" + spec_ + "': solve() before setup()");
    WallTimer t;
    const long launches = device_launches();
    SolveStats st = complete_->solve_on_backend(b, x);
    // One over ranks tests its inputs itself, over all of them (spans_ranks).
    if (!complete_->spans_ranks()) name_non_finite_inputs(st, b, x);
    st.device_launches = device_launches() - launches;
    st.solve_seconds = t.seconds();
    st.setup_seconds = setup_seconds_;
    st.solver = spec_;
    return st;
  }
  if (complete_) {
    // The complete solver moves its own vectors; the host round trip keeps one entry point.
    std::vector<double> bh = b.to_host(), xh = x.to_host();
    SolveStats st = solve_complete(bh, xh);
    x.copy_from_host(xh);
    return st;
  }
  if (!op_) throw Error("solver '" + spec_ + "': solve() before setup()");
  WallTimer t;
  const long launches = device_launches();
  CountedApplications m(*precond_);
  SolveStats st = method_->solve(*op_, m, b, x);
  st.device_launches = device_launches() - launches;
  st.preconditioner_applications = m.applications();
  st.preconditioner_launches = m.launches();
  name_non_finite_inputs(st, b, x);
  st.solve_seconds = t.seconds();
  st.setup_seconds = setup_seconds_;
  st.solver = spec_;
  if (!recompute_) {
    st.take_estimate_as_final();
    return st;
  }
  // The true residual, independent of the method's own recurrences.
  Vector& r = r_dev_;
  if (r.size() != b.size() || r.backend() != b.backend()) r = Vector(b.backend(), b.size());
  op_->apply(x, r);
  kernels::axpby(1.0, b, -1.0, r);
  st.final_residual = kernels::norm2(r);
  if (st.converged() && !std::isfinite(st.final_residual)) st.reason = StopReason::non_finite;
  return st;
}

SolveStats LinearSolver::solve_complete(std::span<const double> b, std::span<double> x) {
  if (!set_up_) throw Error("solver '" + spec_ + "': solve() before setup()");
  WallTimer t;
  SolveStats st;
  const auto finite = [](std::span<const double> v) {
    return std::all_of(v.begin(), v.end(), [](double e) { return std::isfinite(e); });
  };
  if (!complete_->spans_ranks() && (!finite(b) || !finite(x))) {
    st.reason = StopReason::non_finite;
    st.detail = "right-hand side or initial guess holds NaN or Inf";
  } else {
    const long launches = device_launches();
    st = complete_->solve(b, x);
    st.device_launches = device_launches() - launches;
  }
  st.solve_seconds = t.seconds();
  st.setup_seconds = setup_seconds_;
  st.solver = spec_;
  return st;
}

}  // namespace tb
