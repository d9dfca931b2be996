#include "distributed_solver.hpp"

#include <cmath>
#include <string>

#include "dist_bsr_operator.hpp"
#include "mpi_communicator.hpp"
#include "mpi_wait_clock.hpp"
#include "schwarz.hpp"
#include "solvers/core/error.hpp"
#include "solvers/core/kernels.hpp"
#include "solvers/core/timer.hpp"

namespace tb::dist {

struct DistributedSolver::Parts {
  RowDistribution rows;
  std::unique_ptr<DistBsrOperator> op;
  std::unique_ptr<SchwarzPreconditioner> precond;
  // Split rows read in place with overlap: their global-column form, which the
  // subdomain's assembly and the ghost rows' shipment read.
  BsrMatrix joined;
  Vector b, x, r;
};

namespace {
// The communicator's MPI handle, or MPI_COMM_NULL for the one-process group.
MPI_Comm mpi_handle(const comm::Communicator& c) {
  if (const auto* m = dynamic_cast<const MpiCommunicator*>(&c)) return m->comm();
  if (c.size() != 1) throw Error("distributed solver: a group of " + std::to_string(c.size()) + " ranks without MPI");
  return MPI_COMM_NULL;
}
}  // namespace

DistributedSolver::DistributedSolver(std::string spec, std::unique_ptr<KrylovMethod> method,
                                     std::unique_ptr<Preconditioner> local, int overlap,
                                     std::shared_ptr<const comm::Communicator> comm, std::optional<Backend> resident)
    : spec_(std::move(spec)),
      method_(std::move(method)),
      local_(std::move(local)),
      overlap_(overlap),
      comm_(std::move(comm)),
      resident_(resident) {
  if (!comm_) comm_ = comm::self_communicator();
  if (local_->is_variable() && !method_->accepts_variable_preconditioner())
    throw Error("spec '" + spec_ + "': the local solver changes between applications; use fgmres or richardson");
  if (resident_) {
    const std::string where(to_string(*resident_));
    if (overlap_ != 0)
      throw Error("spec '" + spec_ + "': restricted additive Schwarz (overlap 1) runs on the host only; on " + where +
                  " write bjacobi(local=...) or asm(overlap=0,local=...), or the method with backend=host");
    if (!local_->supports(*resident_))
      throw Error("spec '" + spec_ + "': the local solver has no " + where + " kernels; on " + where +
                  " take one that has (block_jacobi, multicolor, async_bilu, ...) or the method with backend=host");
  }
  method_->set_vector_space(&comm_->space());
}

DistributedSolver::~DistributedSolver() = default;

void DistributedSolver::check_parts(const RowDistribution& rows) const {
  if (rows.parts() != comm_->size())
    throw Error("spec '" + spec_ + "': a distribution over " + std::to_string(rows.parts()) + " ranks on " +
                std::to_string(comm_->size()));
}

void DistributedSolver::setup(const BsrMatrix& my_rows, const RowDistribution& rows) {
  WallTimer t;
  check_parts(rows);
  auto p = std::make_unique<Parts>();
  p->op =
      std::make_unique<DistBsrOperator>(mpi_handle(*comm_), rows, RankBlocks::from_rows(my_rows, rows, comm_->rank()));
  start(std::move(p), my_rows, rows);
  setup_seconds_ = t.seconds();
}

void DistributedSolver::setup(const BsrMatrix& local, OffRankRows off, const RowDistribution& rows) {
  WallTimer t;
  check_parts(rows);
  if (local.block_rows != rows.owned(comm_->rank()))
    throw Error("spec '" + spec_ + "': rank " + std::to_string(comm_->rank()) + " holds " +
                std::to_string(local.block_rows) + " block rows, the distribution gives it " +
                std::to_string(rows.owned(comm_->rank())));
  auto p = std::make_unique<Parts>();
  p->op = std::make_unique<DistBsrOperator>(mpi_handle(*comm_), rows, local, off);
  if (overlap_ == 0) {
    start(std::move(p), local, rows);  // block Jacobi reads the local block alone
  } else {
    join_rank_rows(local, off, rows.first(comm_->rank()), rows.n(), p->joined);
    const BsrMatrix& joined = p->joined;
    start(std::move(p), joined, rows);
  }
  setup_seconds_ = t.seconds();
}

// The Schwarz preconditioner and the vectors around p's operator; `rows_for_schwarz`:
// this rank's rows in global columns, or its local block for block Jacobi.
void DistributedSolver::start(std::unique_ptr<Parts> p, const BsrMatrix& rows_for_schwarz,
                              const RowDistribution& rows) {
  p->rows = rows;
  // The Schwarz wrapper takes the local solver once; later setups reuse it through the wrapper.
  std::unique_ptr<Preconditioner> local = parts_ ? nullptr : std::move(local_);
  if (!local) throw Error("spec '" + spec_ + "': set up twice (a new pattern needs a new solver)");
  p->precond = std::make_unique<SchwarzPreconditioner>(mpi_handle(*comm_), rows, overlap_, std::move(local), *p->op);
  const Backend backend = this->backend();
  if (resident_) p->op->place_on(backend, halo_path_.value_or(default_halo_path(backend)));
  p->precond->setup(rows_for_schwarz, backend);
  const std::size_t n = std::size_t(p->op->rows());
  p->b = Vector(backend, n);
  p->x = Vector(backend, n);
  p->r = Vector(backend, n);
  if (resident_) method_->reserve(backend, n);  // the solves allocate nothing on the device
  parts_ = std::move(p);
}

void DistributedSolver::update(const BsrMatrix& my_rows) {
  if (!parts_) throw Error("spec '" + spec_ + "': update() before setup()");
  WallTimer t;
  Parts& p = *parts_;
  if (p.op->holds_blocks()) {
    p.op->refresh_values(my_rows);
    p.precond->update(my_rows);
  } else {
    p.op->borrow(my_rows);
    if (overlap_ == 0) {
      p.precond->update(my_rows);
    } else {
      join_rank_rows(my_rows, {&p.op->off_rank(), p.op->ghost_columns()}, p.rows.first(comm_->rank()), p.rows.n(),
                     p.joined);
      p.precond->update(p.joined);
    }
  }
  setup_seconds_ = t.seconds();
}

bool DistributedSolver::updates_in_place() const {
  if (!resident_ || overlap_ != 0) return false;
  return parts_ ? parts_->precond->updates_in_place() : local_ && local_->updates_in_place();
}

void DistributedSolver::update_in_place(const BsrView& local) {
  attach_in_place(local);
  WallTimer t;
  parts_->precond->update_in_place(local);
  setup_seconds_ = t.seconds();
}

void DistributedSolver::attach_in_place(const BsrView& local) {
  if (!parts_) throw Error("spec '" + spec_ + "': update() before setup()");
  parts_->op->read_in_place(local);  // which refuses an operator without its values on a backend
}

SolveStats DistributedSolver::solve(std::span<const double> b, std::span<double> x) {
  if (!parts_) throw Error("spec '" + spec_ + "': solve() before setup()");
  Parts& p = *parts_;
  if (b.size() != p.b.size() || x.size() != p.x.size())
    throw Error("spec '" + spec_ + "': vectors of length " + std::to_string(b.size()) + " and " +
                std::to_string(x.size()) + " for " + std::to_string(p.b.size()) + " rows on this rank");
  WallTimer t;
  p.b.copy_from_host(b);
  p.x.copy_from_host(x);
  SolveStats st = run(p.b, p.x);
  p.x.copy_to_host(x);
  st.solve_seconds = t.seconds();
  return st;
}

SolveStats DistributedSolver::solve(const Vector& b, Vector& x) {
  if (!parts_) throw Error("spec '" + spec_ + "': solve() before setup()");
  const Parts& p = *parts_;
  if (!resident_ || b.backend() != *resident_ || x.backend() != *resident_)
    throw Error("spec '" + spec_ + "': vectors on " + std::string(to_string(b.backend())) + " and " +
                std::string(to_string(x.backend())) + " for a solve " +
                (resident_ ? "resident on " + std::string(to_string(*resident_)) : std::string("of host spans")));
  if (b.size() != p.b.size() || x.size() != p.x.size())
    throw Error("spec '" + spec_ + "': vectors of length " + std::to_string(b.size()) + " and " +
                std::to_string(x.size()) + " for " + std::to_string(p.b.size()) + " rows on this rank");
  return run(b, x);
}

// The method on vectors of the solve's backend; the true residual after it in p.r.
SolveStats DistributedSolver::run(const Vector& b, Vector& x) {
  Parts& p = *parts_;
  WallTimer t;
  const double waited = mpi_wait_seconds();
  SolveStats st;
  // Every rank takes the same branch: the finiteness test is reduced.
  double bad = (kernels::all_finite(b) && kernels::all_finite(x)) ? 0.0 : 1.0;
  comm_->space().reduce(nullptr, 0, &bad, 1);
  if (bad != 0.0) {
    st.reason = StopReason::non_finite;
    st.detail = "right-hand side or initial guess holds NaN or Inf on some rank";
  } else {
    st = method_->solve(*p.op, *p.precond, b, x);
  }
  st.solve_seconds = t.seconds();
  st.communication_seconds = mpi_wait_seconds() - waited;
  st.setup_seconds = setup_seconds_;
  st.solver = spec_;
  if (!recompute_) {
    st.take_estimate_as_final();
    return st;
  }
  p.op->apply(x, p.r);
  kernels::axpby(1.0, b, -1.0, p.r);
  st.final_residual = comm_->space().norm2(p.r);
  if (st.converged() && !std::isfinite(st.final_residual)) st.reason = StopReason::non_finite;
  return st;
}

const char* DistributedSolver::halo_transport() const {
  if (!resident_)
    return to_string(parts_ && parts_->op->halo() ? parts_->op->halo()->transport() : default_halo_transport());
  if (parts_ && parts_->op->backend_halo()) return to_string(parts_->op->backend_halo()->path());
  return to_string(halo_path_.value_or(default_halo_path(*resident_)));
}

std::uint64_t DistributedSolver::halo_bytes_staged() const {
  const BackendHaloExchange* h = parts_ ? parts_->op->backend_halo() : nullptr;
  return h ? h->staging().bytes_to_host + h->staging().bytes_to_backend : 0;
}

bool DistributedSolver::limit(SolveLimit l) {
  const int cap = l.iterations < method_->stop().maxit ? l.iterations : 0;
  method_->limit({cap, 0.0});
  return cap > 0;
}

int DistributedSolver::max_iterations() const { return method_->stop().maxit; }

index_t DistributedSolver::subdomain_rows() const { return parts_ ? parts_->precond->subdomain_rows() : 0; }
index_t DistributedSolver::ghost_columns() const { return parts_ ? index_t(parts_->op->ghost_columns().size()) : 0; }

}  // namespace tb::dist
