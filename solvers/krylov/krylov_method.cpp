#include "krylov_method.hpp"

#include <cmath>

#include "solvers/core/vector_kernels.hpp"

namespace tb {

const VectorSpace KrylovMethod::local_space_{};

double VectorSpace::dot(const Vector& x, const Vector& y) const { return kernels::dot(x, y); }
double VectorSpace::norm2(const Vector& x) const { return std::sqrt(dot(x, x)); }
void VectorSpace::multi_dot(const Vector* const* v, int k, const Vector& w, double* out) const {
  kernels::multi_dot(v, k, w, out);
}

void VectorSpace::reduce(double*, int, double*, int) const {}

Vector& KrylovMethod::work(std::size_t i, const Vector& like) {
  if (work_.size() <= i) work_.resize(i + 1);
  Vector& v = work_[i];
  if (v.size() != like.size() || v.backend() != like.backend()) v = Vector(like.backend(), like.size());
  return v;
}

double KrylovMethod::start(const LinearOperator& a, const Vector& b, const Vector& x, Vector& r, SolveStats& st) {
  if (limit_.seconds > 0.0) started_ = std::chrono::steady_clock::now();
  a.apply(x, r);
  kernels::axpby(1.0, b, -1.0, r);
  const double r0 = space().norm2(r);
  st.initial_residual = r0;
  st.reason = check(r0, r0, 0, st.residual_history);
  return r0;
}

StopReason KrylovMethod::check(double rnorm, double r0norm, int it, std::vector<double>& history) {
  history.push_back(rnorm);
  if (!std::isfinite(rnorm)) return StopReason::non_finite;
  if (rnorm <= stop_.atol) return StopReason::converged_atol;
  if (rnorm <= stop_.rtol * r0norm) return StopReason::converged_rtol;
  if (rnorm > stop_.dtol * r0norm) return StopReason::diverged;
  if (it == 0 || rnorm < 0.999 * best_) {
    best_ = rnorm;
    best_it_ = it;
  } else if (stop_.stagnation_window > 0 && it - best_it_ >= stop_.stagnation_window) {
    return StopReason::stagnation;
  }
  if (it >= stop_.maxit || (limit_.iterations > 0 && it >= limit_.iterations)) return StopReason::max_iterations;
  if (limit_.seconds > 0.0 && it > 0 &&
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count() >= limit_.seconds)
    return StopReason::max_iterations;
  return StopReason::not_run;
}

}  // namespace tb
