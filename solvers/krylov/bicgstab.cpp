// Right-preconditioned BiCGStab (van der Vorst 1992): the residual it monitors
// is the true residual b - A x, not the preconditioned one.
#include <cmath>

#include "krylov_method.hpp"
#include "solvers/core/kernels.hpp"

namespace tb {

namespace {

class BiCGStab final : public KrylovMethod {
 public:
  using KrylovMethod::KrylovMethod;
  std::vector<std::size_t> work_indices() const override { return {0, 1, 2, 3, 4, 5, 6, 7}; }

  SolveStats solve(const LinearOperator& a, const Preconditioner& m, const Vector& b, Vector& x) override {
    namespace k = kernels;
    SolveStats st;
    Vector& r = work(0, b);
    Vector& r0hat = work(1, b);
    Vector& p = work(2, b);
    Vector& v = work(3, b);
    Vector& phat = work(4, b);
    Vector& s = work(5, b);
    Vector& shat = work(6, b);
    Vector& t = work(7, b);
    start(a, b, x, r, st);
    k::copy(r, r0hat);
    k::fill(p, 0.0);
    k::fill(v, 0.0);
    double rho = 1.0, alpha = 1.0, omega = 1.0;
    int it = 0;
    auto fail = [&](StopReason why, const char* what) {
      st.reason = why;
      st.detail = what;
    };
    while (st.reason == StopReason::not_run) {
      ++it;
      const double rho_new = space().dot(r0hat, r);
      if (!std::isfinite(rho_new)) {
        fail(StopReason::non_finite, "rho");
        break;
      }
      if (rho_new == 0.0) {
        fail(StopReason::breakdown, "rho = (r0hat, r) = 0");
        break;
      }
      const double beta = (rho_new / rho) * (alpha / omega);
      rho = rho_new;
      k::axpbypcz(1.0, r, -beta * omega, v, beta, p);  // p = r + beta (p - omega v)
      m.apply(p, phat);
      a.apply(phat, v);
      const double r0v = space().dot(r0hat, v);
      if (!std::isfinite(r0v)) {
        fail(StopReason::non_finite, "(r0hat, v)");
        break;
      }
      if (r0v == 0.0) {
        fail(StopReason::breakdown, "(r0hat, v) = 0");
        break;
      }
      alpha = rho / r0v;
      k::copy(r, s);
      k::axpy(-alpha, v, s);
      // Half step: x already good enough with s small.
      const double snorm = space().norm2(s);
      if (snorm <= target()) {
        k::axpy(alpha, phat, x);
        k::copy(s, r);
        st.reason = check(snorm, it, st.residual_history);
        break;
      }
      m.apply(s, shat);
      a.apply(shat, t);
      const double tt = space().dot(t, t);
      if (!std::isfinite(tt)) {
        fail(StopReason::non_finite, "(t, t)");
        break;
      }
      if (tt == 0.0) {
        fail(StopReason::breakdown, "(t, t) = 0");
        break;
      }
      omega = space().dot(t, s) / tt;
      k::axpbypcz(alpha, phat, omega, shat, 1.0, x);
      k::copy(s, r);
      k::axpy(-omega, t, r);
      st.reason = check(space().norm2(r), it, st.residual_history);
      if (st.reason == StopReason::not_run && omega == 0.0) fail(StopReason::breakdown, "omega = 0");
    }
    st.iterations = it;
    return st;
  }
};

}  // namespace

std::unique_ptr<KrylovMethod> make_bicgstab(StopCriteria stop) { return std::make_unique<BiCGStab>(stop); }

}  // namespace tb
