// GMRES with its scalars on the host (gmres.hpp); the choice between the two
// places and the method's frame.
#include "gmres.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "gmres_scalars.hpp"
#include "solvers/core/error.hpp"
#include "solvers/core/kernels.hpp"

namespace tb {

Gmres::Gmres(StopCriteria stop, int restart, bool flexible, Orthogonalization orthog, GmresScalars scalars,
             bool queue_ahead)
    : KrylovMethod(stop),
      m_(restart),
      flexible_(flexible),
      orthog_(orthog),
      scalars_(scalars),
      queue_ahead_(queue_ahead),
      h_((restart + 1) * restart),
      cs_(restart),
      sn_(restart),
      g_(restart + 1),
      y_(restart),
      coef_(restart + 1),
      basis_ptr_(restart + 1),
      basis_data_(restart + 1) {
  if (restart < 1) throw Error("gmres: restart must be at least 1, got " + std::to_string(restart));
  if (scalars == GmresScalars::backend && orthog == Orthogonalization::cgsp)
    throw Error("gmres: scalars=backend takes orthog=cgs, cgs2 or mgs (cgsp chooses its norm on the host)");
}

// r and w; z for the update (GMRES); the basis v_0..v_k and, flexible, the
// directions z_0..z_{k-1}, where k = min(restart, maxit) is the longest cycle.
std::vector<std::size_t> Gmres::work_indices() const {
  const std::size_t m = std::size_t(m_), k = std::min(m, std::size_t(stop_.maxit));
  std::vector<std::size_t> ids = {0, 1};
  if (!flexible_) ids.push_back(2);
  for (std::size_t i = 0; i <= k; ++i) ids.push_back(3 + i);
  if (flexible_)
    for (std::size_t i = 0; i < k; ++i) ids.push_back(4 + m + i);
  return ids;
}

bool Gmres::scalars_on_backend(const Vector& b) const {
  if (scalars_ == GmresScalars::host || orthog_ == Orthogonalization::cgsp) return false;
  if (space().reduces_across_processes() || limits().seconds > 0.0) return false;
  return scalars_ == GmresScalars::backend || b.backend() != Backend::host;
}

SolveStats Gmres::solve(const LinearOperator& a, const Preconditioner& m, const Vector& b, Vector& x) {
  return scalars_on_backend(b) ? solve_on_backend(a, m, b, x) : solve_on_host(a, m, b, x);
}

SolveStats Gmres::solve_on_host(const LinearOperator& a, const Preconditioner& m, const Vector& b, Vector& x) {
  namespace k = kernels;
  SolveStats st;
  Vector& r = work(0, b);
  const double r0 = start(a, b, x, r, st);
  double beta = r0;
  int it = 0;
  while (st.reason == StopReason::not_run) {
    Vector& v0 = basis(0, b);
    k::copy(r, v0);
    k::scale(1.0 / beta, v0);
    std::fill(g_.begin(), g_.end(), 0.0);
    g_[0] = beta;
    int j = 0;
    bool happy = false;
    for (; j < m_ && st.reason == StopReason::not_run; ++j) {
      ++it;
      Vector& z = flexible_ ? direction(j, b) : work(1, b);
      m.apply(basis(j, b), z);
      // The new vector is built in its basis slot: no copy per iteration.
      Vector& vn = basis(j + 1, b);
      a.apply(z, vn);
      H(j + 1, j) = orthogonalize(j, vn, b);
      happy = H(j + 1, j) == 0.0;
      if (!happy) k::scale(1.0 / H(j + 1, j), vn);
      gmres_scalars::rotate(h_.data(), cs_.data(), sn_.data(), g_.data(), m_, j);
      st.reason = check(std::abs(g_[j + 1]), it, st.residual_history);
      // A happy breakdown means x is exact in this Krylov space: the estimate
      // is zero up to round-off and the check above stops the solve.
      if (happy && st.reason == StopReason::not_run) {
        st.reason = StopReason::breakdown;
        st.detail = "Krylov space invariant but residual not reduced";
      }
    }
    update_solution(j, m, b, x);
    if (st.reason != StopReason::not_run) break;
    a.apply(x, r);
    k::axpby(1.0, b, -1.0, r);
    beta = space().norm2(r);
    if (!std::isfinite(beta)) {
      st.reason = StopReason::non_finite;
      break;
    }
  }
  st.iterations = it;
  return st;
}

// Column j of H: av made orthogonal to v_0..v_j; returns its norm, H(j+1, j).
double Gmres::orthogonalize(int j, Vector& av, const Vector& like) {
  if (orthog_ == Orthogonalization::mgs) {
    for (int i = 0; i <= j; ++i) {
      H(i, j) = space().dot(av, basis(i, like));
      kernels::axpy(-H(i, j), basis(i, like), av);
    }
    return space().norm2(av);
  }
  for (int i = 0; i <= j; ++i) {
    basis_ptr_[i] = &basis(i, like);
    H(i, j) = 0.0;
  }
  if (orthog_ == Orthogonalization::cgsp) return project_pythagorean(j, av);
  const int passes = orthog_ == Orthogonalization::cgs2 ? 2 : 1;
  for (int pass = 0; pass < passes; ++pass) project(j, av);
  return space().norm2(av);
}

// One classical pass: H(0..j, j) += V^T av, av -= V V^T av (one reduction).
void Gmres::project(int j, Vector& av) {
  space().multi_dot(basis_ptr_.data(), j + 1, av, coef_.data());
  subtract_projection(j, av);
}

void Gmres::subtract_projection(int j, Vector& av) {
  for (int i = 0; i <= j; ++i) {
    H(i, j) += coef_[i];
    coef_[i] = -coef_[i];
  }
  kernels::multi_axpy(coef_.data(), basis_ptr_.data(), j + 1, av);
}

// CGS-P (Smoktunowicz, Barlow & Langou 2006): av's own square norm joins
// the projections' reduction and the norm after the pass follows from
// Pythagoras, |av - V h|^2 = |av|^2 - |h|^2, so an iteration synchronises
// the ranks once instead of twice. The subtraction's rounding error is
// about eps |av|^2, so where |h| takes nearly all of |av| (the new vector
// almost in the basis) the norm is computed again from the vector.
double Gmres::project_pythagorean(int j, Vector& av) {
  basis_ptr_[j + 1] = &av;
  space().multi_dot(basis_ptr_.data(), j + 2, av, coef_.data());
  const double whole = coef_[j + 1];
  double projected = 0.0;
  for (int i = 0; i <= j; ++i) projected += coef_[i] * coef_[i];
  subtract_projection(j, av);
  const double rest = whole - projected;
  if (!(rest > kPythagorasLimit * whole)) return space().norm2(av);
  return std::sqrt(rest);
}

// x += Z y (flexible) or x += M^{-1} V y, with y from the triangular system R y = g.
void Gmres::update_solution(int j, const Preconditioner& m, const Vector& b, Vector& x) {
  namespace k = kernels;
  if (j == 0) return;
  gmres_scalars::back_substitute(h_.data(), g_.data(), y_.data(), m_, j);
  if (flexible_) {
    for (int i = 0; i < j; ++i) k::axpy(y_[i], direction(i, b), x);
    return;
  }
  Vector& u = work(1, b);
  k::fill(u, 0.0);
  for (int i = 0; i < j; ++i) k::axpy(y_[i], basis(i, b), u);
  Vector& z = work(2, b);
  m.apply(u, z);
  k::axpy(1.0, z, x);
}

std::unique_ptr<KrylovMethod> make_gmres(StopCriteria stop, int restart, bool flexible, Orthogonalization orthog,
                                         GmresScalars scalars, bool queue_ahead) {
  return std::make_unique<Gmres>(stop, restart, flexible, orthog, scalars, queue_ahead);
}

}  // namespace tb
