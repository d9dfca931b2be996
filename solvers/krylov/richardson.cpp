// Preconditioned Richardson iteration (defect correction): x += omega M^{-1}(b - A x).
// With an ILU as M this is the "iterative correction" of seed 000, Eq. 3.
#include "krylov_method.hpp"
#include "solvers/core/kernels.hpp"

namespace tb {

namespace {

class Richardson final : public KrylovMethod {
 public:
  Richardson(StopCriteria stop, double omega) : KrylovMethod(stop), omega_(omega) {}
  bool accepts_variable_preconditioner() const override { return true; }
  std::vector<std::size_t> work_indices() const override { return {0, 1}; }

  SolveStats solve(const LinearOperator& a, const Preconditioner& m, const Vector& b, Vector& x) override {
    namespace k = kernels;
    SolveStats st;
    Vector& r = work(0, b);
    Vector& z = work(1, b);
    start(a, b, x, r, st);
    int it = 0;
    while (st.reason == StopReason::not_run) {
      ++it;
      m.apply(r, z);
      k::axpy(omega_, z, x);
      a.apply(x, r);
      k::axpby(1.0, b, -1.0, r);
      st.reason = check(space().norm2(r), it, st.residual_history);
    }
    st.iterations = it;
    return st;
  }

 private:
  double omega_;
};

}  // namespace

std::unique_ptr<KrylovMethod> make_richardson(StopCriteria stop, double omega) {
  return std::make_unique<Richardson>(stop, omega);
}

}  // namespace tb
