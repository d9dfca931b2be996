// Preconditioned conjugate gradients (Hestenes-Stiefel), for SPD A and SPD M.
#include <cmath>

#include "krylov_method.hpp"
#include "solvers/core/kernels.hpp"

namespace tb {

namespace {

class ConjugateGradient final : public KrylovMethod {
 public:
  using KrylovMethod::KrylovMethod;
  std::vector<std::size_t> work_indices() const override { return {0, 1, 2, 3}; }

  SolveStats solve(const LinearOperator& a, const Preconditioner& m, const Vector& b, Vector& x) override {
    namespace k = kernels;
    SolveStats st;
    Vector& r = work(0, b);
    Vector& z = work(1, b);
    Vector& p = work(2, b);
    Vector& q = work(3, b);
    start(a, b, x, r, st);
    m.apply(r, z);
    k::copy(z, p);
    double rz = space().dot(r, z);
    int it = 0;
    while (st.reason == StopReason::not_run) {
      ++it;
      a.apply(p, q);
      const double pq = space().dot(p, q);
      if (!std::isfinite(pq) || !std::isfinite(rz)) {
        st.reason = StopReason::non_finite;
        break;
      }
      if (pq <= 0.0) {
        st.reason = StopReason::breakdown;
        st.detail = "p'Ap <= 0: the matrix is not positive definite";
        break;
      }
      const double alpha = rz / pq;
      k::axpy(alpha, p, x);
      k::axpy(-alpha, q, r);
      st.reason = check(space().norm2(r), it, st.residual_history);
      if (st.reason != StopReason::not_run) break;
      m.apply(r, z);
      const double rz_new = space().dot(r, z);
      if (rz_new == 0.0) {
        st.reason = StopReason::breakdown;
        st.detail = "r'M^{-1}r = 0: the preconditioner is singular or indefinite";
        break;
      }
      k::axpby(1.0, z, rz_new / rz, p);
      rz = rz_new;
    }
    st.iterations = it;
    return st;
  }
};

}  // namespace

std::unique_ptr<KrylovMethod> make_cg(StopCriteria stop) { return std::make_unique<ConjugateGradient>(stop); }

}  // namespace tb
