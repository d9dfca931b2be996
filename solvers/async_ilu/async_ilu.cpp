#include "async_ilu.hpp"

#include <string>

#include "solvers/core/error.hpp"
#include "solvers/precond/bilu0.hpp"
#include "solvers/precond/kernels.hpp"

namespace tb::async_ilu {

void validate(const Options& o) {
  if (o.build_sweeps < 0)
    throw Error("async_ilu: build_sweeps must be >= 0 (0 = exact), got " + std::to_string(o.build_sweeps));
  if (o.apply_sweeps < 0)
    throw Error("async_ilu: apply_sweeps must be >= 0 (0 = exact), got " + std::to_string(o.apply_sweeps));
  if (o.chunk < 1) throw Error("async_ilu: chunk must be >= 1 block row, got " + std::to_string(o.chunk));
}

namespace {

template <class T>
Array<T> on_backend(Backend b, const std::vector<T>& v) {
  return Array<T>(b, std::span<const T>(v));
}

}  // namespace

AsyncIlu::AsyncIlu(Options o) : opts_(o) { validate(opts_); }

SweepSplit AsyncIlu::split() const {
  return {opts_.block ? opts_.chunk : opts_.chunk * scalar_rows_per_block_, opts_.gpu_rows};
}

FactorView AsyncIlu::view_of(bool device) const {
  FactorView f = host_view(pattern_, symbolic_, a_.data());
  if (device) {
    f.row_ptr = row_ptr_.data();
    f.col_idx = col_idx_.data();
    f.diag = diag_pos_.data();
    f.prod_ptr = prod_ptr_.data();
    f.prod_l = prod_l_.data();
    f.prod_u = prod_u_.data();
  }
  return f;
}

void AsyncIlu::setup(const BsrMatrix& a, Backend backend) {
  a.validate();
  if (a.block_rows != a.block_cols) throw Unsupported("async_ilu: the matrix is not square");
  if (backend == Backend::cuda && (opts_.build_sweeps == 0 || opts_.apply_sweeps == 0))
    throw Error("async_ilu: build_sweeps=0 / apply_sweeps=0 (exact) run on the host only; give a sweep count for cuda");
  set_up_ = false;
  backend_ = backend;
  scalar_rows_per_block_ = a.block_size;
  if (opts_.block) {
    pattern_ = a;
  } else {
    scalar_ = expand_to_scalar(a);
    pattern_ = scalar_.scalar;
  }
  symbolic_ = factor_pattern(pattern_);
  // Refused here, before any device memory, where the CUDA mapping cannot take the block.
  if (backend_ == Backend::cuda) (void)resolve_gpu_rows(opts_.gpu_rows, pattern_.block_size);
  if (backend_ == Backend::cuda) {
    row_ptr_ = on_backend(backend_, pattern_.row_ptr);
    col_idx_ = on_backend(backend_, pattern_.col_idx);
    diag_pos_ = on_backend(backend_, symbolic_.diag);
    prod_ptr_ = on_backend(backend_, symbolic_.prod_ptr);
    prod_l_ = on_backend(backend_, symbolic_.prod_l);
    prod_u_ = on_backend(backend_, symbolic_.prod_u);
  }
  const std::size_t nb = std::size_t(pattern_.block_entries());
  const std::size_t entries = pattern_.values.size();
  a_ = Vector(backend_, entries);
  lu_ = Vector(backend_, entries);
  lu_next_ = Vector(backend_, opts_.schedule == Schedule::synchronous ? entries : 0);
  dinv_ = Vector(backend_, std::size_t(pattern_.block_rows) * nb);
  dinv_next_ = Vector(backend_, opts_.schedule == Schedule::synchronous ? dinv_.size() : 0);
  bad_row_ = Array<index_t>(backend_, backend_ == Backend::cuda ? 1 : 0);
  y_ = Vector(backend_, std::size_t(pattern_.rows()));
  work_ = Vector(backend_, opts_.schedule == Schedule::synchronous ? y_.size() : 0);
  set_up_ = true;
  factored_ = false;
  factor(a);
}

void AsyncIlu::load_values(const BsrMatrix& a) {
  if (opts_.block) {
    if (!pattern_.same_pattern(a)) throw Error("async_ilu: the matrix pattern differs from the one at set-up");
    pattern_.values = a.values;
  } else {
    if (a.values.size() != scalar_.source.size())
      throw Error("async_ilu: the matrix pattern differs from the one at set-up");
    gather_scalar_values(scalar_, a.values, pattern_.values);
  }
  a_.copy_from_host(pattern_.values);
}

// x0 = A (seed 001, section 6), computed where the factors live
// (kernels::initial_guess) from the values f reads.
void AsyncIlu::set_initial_guess(const FactorView& f) { kernels::initial_guess(backend_, f, lu_.data(), dinv_.data()); }

void AsyncIlu::run_exact_on_host() {
  FactorState s{lu_.data(), dinv_.data(), lu_next_.data(), dinv_next_.data()};
  const index_t bad = kernels::ref::factor_sweeps(view_of(false), s, 1, Schedule::asynchronous, {});
  if (bad >= 0)
    throw Error("async_ilu: singular or non-finite pivot block in " +
                std::string(opts_.block ? "block row " : "scalar row ") + std::to_string(bad));
}

index_t AsyncIlu::run_sweeps(const FactorView& f, int sweeps) {
  FactorState s{lu_.data(), dinv_.data(), lu_next_.data(), dinv_next_.data(), bad_row_.data()};
  return kernels::factor_sweeps(backend_, f, s, sweeps, opts_.schedule, split());
}

void AsyncIlu::throw_if_singular(index_t bad) const {
  if (bad < 0) return;
  const std::string where = opts_.block ? "block row " + std::to_string(bad)
                                        : "scalar row " + std::to_string(bad) + " (block row " +
                                              std::to_string(bad / scalar_rows_per_block_) + ")";
  throw Error("async_ilu: the diagonal block U_ii of " + where +
              " is singular or not finite after the build sweeps (a zero or singular pivot)");
}

void AsyncIlu::factor(const BsrMatrix& a) {
  load_values(a);
  const FactorView on_backend = view_of(backend_ == Backend::cuda);
  if (!(opts_.reuse && factored_)) set_initial_guess(on_backend);
  factored_ = false;
  // The diagnostics read host copies: A's values from pattern_, the factors
  // copied back from the backend.
  const FactorView hv = host_view(pattern_, symbolic_, pattern_.values.data());
  std::vector<double> scratch_lu, scratch_dinv;
  if (opts_.diagnostics) {
    scratch_lu.resize(lu_.size());
    scratch_dinv.resize(dinv_.size());
    diag_.initial_residual = fixed_point_residual(hv, lu_.to_host(), dinv_.to_host(), scratch_lu, scratch_dinv);
  }
  if (opts_.build_sweeps == 0) {
    run_exact_on_host();
  } else {
    throw_if_singular(run_sweeps(on_backend, opts_.build_sweeps));
  }
  factored_ = true;
  if (opts_.diagnostics) {
    const std::vector<double> lu = lu_.to_host();
    const std::vector<double> dinv = dinv_.to_host();
    diag_.final_residual = fixed_point_residual(hv, lu, dinv, scratch_lu, scratch_dinv);
    diag_.relative_residual = diag_.initial_residual > 0.0 ? diag_.final_residual / diag_.initial_residual : 0.0;
    diag_.l_jacobi_norm = lower_jacobi_norm(hv, lu);
    diag_.u_jacobi_norm = upper_jacobi_norm(hv, lu, dinv);
    Bilu0Factors exact = bilu0_symbolic(pattern_);
    precond::kernels::ref::bilu0_factor(pattern_, exact);
    diag_.error_vs_exact = error_against(hv, lu, dinv, exact.values_in_pattern());
  }
}

bool AsyncIlu::factors_in_place() const {
  return opts_.block && opts_.build_sweeps > 0 && opts_.apply_sweeps > 0 && !opts_.diagnostics;
}

void AsyncIlu::factor_in_place(const double* values) {
  if (!factors_in_place())
    throw Error(
        "async_ilu: a refresh from values on the backend takes the block variant (async_bilu) with build_sweeps and "
        "apply_sweeps above 0 and diagnostics off; refresh from a host matrix (factor) instead");
  if (!set_up_) throw Error("async_ilu: factor_in_place() before setup()");
  // A's values read where the caller holds them: the factors never read a_.
  FactorView f = view_of(backend_ == Backend::cuda);
  f.a = values;
  if (!(opts_.reuse && factored_)) set_initial_guess(f);
  factored_ = false;
  throw_if_singular(run_sweeps(f, opts_.build_sweeps));
  factored_ = true;
}

void AsyncIlu::apply(const double* r, double* z) const {
  ApplyState s{lu_.data(), dinv_.data(), y_.data(), work_.data()};
  if (opts_.apply_sweeps == 0)  // the exact triangular solves, on the host (apply_sweeps=0)
    return kernels::ref::triangular_sweeps(view_of(false), s, r, z, 1, Schedule::asynchronous, {});
  kernels::triangular_sweeps(backend_, view_of(backend_ == Backend::cuda), s, r, z, opts_.apply_sweeps, opts_.schedule,
                             split());
}

}  // namespace tb::async_ilu
