#include "complete_solvers.hpp"

#include <string>

#include "solvers/core/error.hpp"

namespace tb::banded {

namespace {

std::string pattern_text(const BsrMatrix& a) {
  return std::to_string(a.block_rows) + " rows, " + std::to_string(a.nnz_blocks()) + " entries";
}

// This rank's rows of b and x onto the backend, the solve, and the gather of
// every rank's rows of x into the full x on every rank.
template <class Method>
SolveStats solve_slab(Method& m, const comm::Communicator& comm, const comm::RowPartition& part, Vector& b_dev,
                      Vector& x_dev, std::vector<double>& x_local, std::span<const double> b, std::span<double> x,
                      const char* who) {
  const std::size_t n = std::size_t(part.n());
  if (b.size() != n || x.size() != n)
    throw Error(std::string(who) + ": vectors of length " + std::to_string(b.size()) + " and " +
                std::to_string(x.size()) + " for a matrix of " + std::to_string(n) + " rows");
  const std::size_t first = std::size_t(part.first(comm.rank())), rows = std::size_t(part.rows(comm.rank()));
  b_dev.copy_from_host(b.subspan(first, rows));
  x_dev.copy_from_host(x.subspan(first, rows));
  SolveStats st = m.solve(b_dev, x_dev);
  x_local.resize(rows);
  x_dev.copy_to_host(x_local);
  comm.allgather(part, x_local.data(), x.data());
  return st;
}

// The limit a solver keeps for the method it builds at set-up, passed on to
// the one it has (LinearSolver::limit's answer: whether any limit applies).
template <class Method>
bool keep_limit(BandedStop& stop, Method* method, SolveLimit l, const comm::Communicator& comm) {
  stop.limit = applicable_limit(stop, l, comm.size() > 1);
  if (method) method->limit(stop.limit);
  return stop.limit.iterations > 0 || stop.limit.seconds > 0.0;
}

}  // namespace

DiaBicgstabSolver::DiaBicgstabSolver(BandedStop stop, Backend backend, std::shared_ptr<const comm::Communicator> comm,
                                     double min_fill, GbcgVariant variant)
    : stop_(stop), backend_(backend), comm_(std::move(comm)), min_fill_(min_fill), variant_(variant) {}

void DiaBicgstabSolver::setup(const BsrMatrix& a) {
  if (own_rows_) return setup_own_rows(a);
  part_ = comm::balanced_partition(a.block_rows, comm_->size());
  const int me = comm_->rank();
  slab_ = dia_from_bsr(a, part_.first(me), part_.rows(me), &map_, min_fill_);
  keep_pattern(a);
  if (variant_ == GbcgVariant::one_reduction) {
    transposed_slab_ = transposed_dia_from_bsr(a, part_.first(me), part_.rows(me), transposed_map_, min_fill_);
    gbcg_ = std::make_unique<Gbcg>(slab_, transposed_slab_, comm_, part_, stop_, backend_);
  } else {
    gbcg_ = std::make_unique<Gbcg>(slab_, comm_, part_, stop_, backend_);
  }
  b_ = Vector(backend_, std::size_t(slab_.rows));
  x_ = Vector(backend_, std::size_t(slab_.rows));
}

void DiaBicgstabSolver::update(const BsrMatrix& a) {
  if (!gbcg_) return setup(a);
  if (own_rows_) return update_own_rows(a);
  if (!a.same_pattern(pattern_))
    throw Error("bicgstab_dia: update with a matrix whose pattern differs from setup's (" + pattern_text(a) +
                "; set up with " + pattern_text(pattern_) + "); call setup for a new pattern");
  update_values(a, map_, slab_);
  if (variant_ == GbcgVariant::classic) return gbcg_->update_values(slab_);
  update_values(a, transposed_map_, transposed_slab_);
  gbcg_->update_values(slab_, transposed_slab_);
}

SolveStats DiaBicgstabSolver::solve(std::span<const double> b, std::span<double> x) {
  if (!gbcg_) throw Error("bicgstab_dia: solve() before setup()");
  if (own_rows_) return solve_own_rows(b, x);
  return solve_slab(*gbcg_, *comm_, part_, b_, x_, x_local_, b, x, "bicgstab_dia");
}

SolveStats DiaBicgstabSolver::solve_on_backend(const Vector& b, Vector& x) {
  if (!gbcg_) throw Error("bicgstab_dia: solve() before setup()");
  return gbcg_->solve(b, x);
}

bool DiaBicgstabSolver::limit(SolveLimit l) { return keep_limit(stop_, gbcg_.get(), l, *comm_); }

// Sizes, row_ptr and col_idx (no values): what update checks a matrix against.
void DiaBicgstabSolver::keep_pattern(const BsrMatrix& a) {
  pattern_.block_size = a.block_size;
  pattern_.block_rows = a.block_rows;
  pattern_.block_cols = a.block_cols;
  pattern_.row_ptr = a.row_ptr;
  pattern_.col_idx = a.col_idx;
}

bool DiaBicgstabSolver::take_own_rows() {
  if (gbcg_) throw Error("bicgstab_dia: take_own_rows() after setup()");
  own_rows_ = true;
  return true;
}

void DiaBicgstabSolver::setup_own_rows(const BsrMatrix& a) {
  gbcg_.reset();
  owned_ = std::make_unique<OwnedRowsDia>(a, *comm_, min_fill_, variant_ == GbcgVariant::one_reduction);
  part_ = owned_->partition();
  keep_pattern(a);
  // A zero diagonal is found on its rank alone.
  comm::agreed(*comm_, [&] {
    gbcg_ = variant_ == GbcgVariant::one_reduction
                ? std::make_unique<Gbcg>(owned_->slab(), owned_->transposed_slab(), comm_, part_, stop_, backend_)
                : std::make_unique<Gbcg>(owned_->slab(), comm_, part_, stop_, backend_);
  });
  b_ = Vector(backend_, std::size_t(owned_->slab().rows));
  x_ = Vector(backend_, std::size_t(owned_->slab().rows));
}

void DiaBicgstabSolver::update_own_rows(const BsrMatrix& a) {
  comm::agreed(*comm_, [&] {
    if (!a.same_pattern(pattern_))
      throw Error("bicgstab_dia: rank " + std::to_string(comm_->rank()) + " updates with rows whose pattern (" +
                  pattern_text(a) + ") differs from setup's (" + pattern_text(pattern_) +
                  "); call setup for a new pattern");
  });
  owned_->update_values(a, *comm_);
  comm::agreed(*comm_, [&] {
    if (variant_ == GbcgVariant::classic)
      gbcg_->update_values(owned_->slab());
    else
      gbcg_->update_values(owned_->slab(), owned_->transposed_slab());
  });
}

// This rank's entries of b and x: no gather.
SolveStats DiaBicgstabSolver::solve_own_rows(std::span<const double> b, std::span<double> x) {
  const std::size_t rows = std::size_t(part_.rows(comm_->rank()));
  comm::agreed(*comm_, [&] {
    if (b.size() != rows || x.size() != rows)
      throw Error("bicgstab_dia: rank " + std::to_string(comm_->rank()) + " gave vectors of length " +
                  std::to_string(b.size()) + " and " + std::to_string(x.size()) + " for its " + std::to_string(rows) +
                  " rows");
  });
  b_.copy_from_host(b);
  x_.copy_from_host(x);
  SolveStats st = gbcg_->solve(b_, x_);
  x_.copy_to_host(x);
  return st;
}

const SolveTimes& DiaBicgstabSolver::times() const {
  if (!gbcg_) throw Error("bicgstab_dia: times() before setup()");
  return gbcg_->times();
}

void DiaBicgstabSolver::reset_times() {
  if (gbcg_) gbcg_->reset_times();
}

StencilCgSolver::StencilCgSolver(index_t nx, index_t ny, index_t nz, BandedStop stop, Backend backend,
                                 std::shared_ptr<const comm::Communicator> comm, GscgVariant variant)
    : nx_(nx), ny_(ny), nz_(nz), stop_(stop), backend_(backend), comm_(std::move(comm)), variant_(variant) {}

void StencilCgSolver::setup(const BsrMatrix& a) {
  coefficients_ = stencil_from_bsr(a, nx_, ny_, nz_);
  part_ = comm::balanced_partition(a.block_rows, comm_->size());
  gscg_ = std::make_unique<Gscg>(coefficients_, comm_, part_, stop_, backend_, variant_);
  b_ = Vector(backend_, std::size_t(gscg_->rows()));
  x_ = Vector(backend_, std::size_t(gscg_->rows()));
}

// New values must still form a stencil operator; its coefficients may change.
void StencilCgSolver::update(const BsrMatrix& a) {
  if (!gscg_) return setup(a);
  coefficients_ = stencil_from_bsr(a, nx_, ny_, nz_);
  gscg_->update_coefficients(coefficients_);
}

SolveStats StencilCgSolver::solve(std::span<const double> b, std::span<double> x) {
  if (!gscg_) throw Error("cg_stencil: solve() before setup()");
  return solve_slab(*gscg_, *comm_, part_, b_, x_, x_local_, b, x, "cg_stencil");
}

bool StencilCgSolver::limit(SolveLimit l) { return keep_limit(stop_, gscg_.get(), l, *comm_); }

const SolveTimes& StencilCgSolver::times() const {
  if (!gscg_) throw Error("cg_stencil: times() before setup()");
  return gscg_->times();
}

void StencilCgSolver::reset_times() {
  if (gscg_) gscg_->reset_times();
}

}  // namespace tb::banded
