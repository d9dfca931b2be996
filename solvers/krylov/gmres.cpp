// Restarted GMRES(m) with right preconditioning (Saad & Schultz 1986) and its
// flexible variant FGMRES(m) (Saad 1993), which stores the preconditioned
// directions z_j = M_j^{-1} v_j so that M may change from one application to
// the next (asynchronous sweeps, inner iterations). Classical (default, fused
// kernels), classical with the Pythagorean norm, twice-classical or modified
// Gram-Schmidt, Givens rotations; the residual estimate |g_{j+1}| is that of
// b - A x itself.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "krylov_method.hpp"
#include "solvers/core/error.hpp"
#include "solvers/core/kernels.hpp"

namespace tb {

namespace {

class Gmres final : public KrylovMethod {
 public:
  Gmres(StopCriteria stop, int restart, bool flexible, Orthogonalization orthog)
      : KrylovMethod(stop),
        m_(restart),
        flexible_(flexible),
        orthog_(orthog),
        h_((restart + 1) * restart),
        cs_(restart),
        sn_(restart),
        g_(restart + 1),
        y_(restart),
        coef_(restart + 1),
        basis_ptr_(restart + 1) {
    if (restart < 1) throw Error("gmres: restart must be at least 1, got " + std::to_string(restart));
  }
  bool accepts_variable_preconditioner() const override { return flexible_; }
  // r and w; z for the update (GMRES); the basis v_0..v_k and, flexible, the
  // directions z_0..z_{k-1}, where k = min(restart, maxit) is the longest cycle.
  std::vector<std::size_t> work_indices() const override {
    const std::size_t m = std::size_t(m_), k = std::min(m, std::size_t(stop_.maxit));
    std::vector<std::size_t> ids = {0, 1};
    if (!flexible_) ids.push_back(2);
    for (std::size_t i = 0; i <= k; ++i) ids.push_back(3 + i);
    if (flexible_)
      for (std::size_t i = 0; i < k; ++i) ids.push_back(4 + m + i);
    return ids;
  }

  SolveStats solve(const LinearOperator& a, const Preconditioner& m, const Vector& b, Vector& x) override {
    namespace k = kernels;
    SolveStats st;
    Vector& r = work(0, b);
    Vector& w = work(1, b);
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
        Vector& z = flexible_ ? direction(j, b) : w;
        m.apply(basis(j, b), z);
        // The new vector is built in its basis slot: no copy per iteration.
        Vector& vn = basis(j + 1, b);
        a.apply(z, vn);
        H(j + 1, j) = orthogonalize(j, vn, b);
        happy = H(j + 1, j) == 0.0;
        if (!happy) k::scale(1.0 / H(j + 1, j), vn);
        rotate(j);
        st.reason = check(std::abs(g_[j + 1]), r0, it, st.residual_history);
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

 private:
  double& H(int i, int j) { return h_[i * m_ + j]; }
  Vector& basis(int i, const Vector& like) { return work(3 + i, like); }
  Vector& direction(int i, const Vector& like) { return work(4 + m_ + i, like); }

  // Column j of H: av made orthogonal to v_0..v_j; returns its norm, H(j+1, j).
  double orthogonalize(int j, Vector& av, const Vector& like) {
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
  void project(int j, Vector& av) {
    space().multi_dot(basis_ptr_.data(), j + 1, av, coef_.data());
    subtract_projection(j, av);
  }

  void subtract_projection(int j, Vector& av) {
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
  double project_pythagorean(int j, Vector& av) {
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

  // Below this fraction of |av|^2 the Pythagorean norm's relative error,
  // about eps |av|^2 / (2 rest), could exceed 1e-10.
  static constexpr double kPythagorasLimit = 1e-6;

  // Applies the earlier rotations to column j, then the one that zeroes H(j+1, j).
  void rotate(int j) {
    for (int i = 0; i < j; ++i) {
      const double t = cs_[i] * H(i, j) + sn_[i] * H(i + 1, j);
      H(i + 1, j) = -sn_[i] * H(i, j) + cs_[i] * H(i + 1, j);
      H(i, j) = t;
    }
    const double d = std::hypot(H(j, j), H(j + 1, j));
    // A zero column (A z = 0: a preconditioner that returned nothing, or z in
    // A's null space) reduces nothing: the rotation that swaps keeps the
    // residual estimate |g_j| (the identity would zero it and report a
    // convergence that did not happen), and the column's coefficient is 0.
    cs_[j] = d == 0.0 ? 0.0 : H(j, j) / d;
    sn_[j] = d == 0.0 ? 1.0 : H(j + 1, j) / d;
    H(j, j) = d;
    H(j + 1, j) = 0.0;
    g_[j + 1] = -sn_[j] * g_[j];
    g_[j] = cs_[j] * g_[j];
  }

  // x += Z y (flexible) or x += M^{-1} V y, with y from the triangular system R y = g.
  void update_solution(int j, const Preconditioner& m, const Vector& b, Vector& x) {
    namespace k = kernels;
    if (j == 0) return;
    for (int i = j - 1; i >= 0; --i) {
      double s = g_[i];
      for (int c = i + 1; c < j; ++c) s -= H(i, c) * y_[c];
      y_[i] = H(i, i) == 0.0 ? 0.0 : s / H(i, i);
    }
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

  int m_;
  bool flexible_;
  Orthogonalization orthog_;
  std::vector<double> h_, cs_, sn_, g_, y_, coef_;
  std::vector<const Vector*> basis_ptr_;
};

}  // namespace

std::unique_ptr<KrylovMethod> make_gmres(StopCriteria stop, int restart, bool flexible, Orthogonalization orthog) {
  return std::make_unique<Gmres>(stop, restart, flexible, orthog);
}

}  // namespace tb
