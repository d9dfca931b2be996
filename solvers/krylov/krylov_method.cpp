#include "krylov_method.hpp"

#include <cmath>

#include "solvers/core/kernels.hpp"

namespace tb {

const VectorSpace KrylovMethod::local_space_{};

Vector& KrylovWorkspace::vector(std::size_t i, Backend b, std::size_t n) {
  std::deque<Vector>& vs = vectors_[b == Backend::host ? 0 : 1];
  if (vs.size() <= i) vs.resize(i + 1);
  Vector& v = vs[i];
  if (v.size() != n || v.backend() != b) v = Vector(b, n);
  return v;
}

std::size_t KrylovWorkspace::size() const {
  std::size_t n = 0;
  for (const auto& vs : vectors_)
    for (const Vector& v : vs) n += v.empty() ? 0 : 1;
  return n;
}

std::size_t KrylovWorkspace::bytes() const {
  std::size_t n = 0;
  for (const auto& vs : vectors_)
    for (const Vector& v : vs) n += v.size() * sizeof(double);
  return n;
}

Vector& KrylovMethod::work(std::size_t i, const Vector& like) { return work_->vector(i, like); }

void KrylovMethod::reserve(Backend b, std::size_t n) {
  for (std::size_t i : work_indices()) {
    Vector& v = work_->vector(i, b, n);
    kernels::fill(v, 0.0);
  }
}

double KrylovMethod::start(const LinearOperator& a, const Vector& b, const Vector& x, Vector& r, SolveStats& st) {
  if (limit_.seconds > 0.0) started_ = std::chrono::steady_clock::now();
  a.apply(x, r);
  kernels::axpby(1.0, b, -1.0, r);
  const double r0 = space().norm2(r);
  begin(r0, b, st);
  return r0;
}

void KrylovMethod::begin(double r0, const Vector& b, SolveStats& st) { begin(r0, stop_factors(b), st); }

void KrylovMethod::begin(double r0, const StopFactors& f, SolveStats& st) {
  st.initial_residual = r0;
  rule_ = rule_for(f, r0);
  st.target_residual = target();
  st.reason = check(r0, 0, st.residual_history);
}

StopFactors KrylovMethod::stop_factors(const Vector& b) const {
  StopFactors f;
  f.atol = stop_.atol;
  f.rtol = stop_.rtol;
  f.relative_to = stop_.relative_to;
  // ||b|| only when asked for: a global reduction on ranks.
  f.rhs_norm = stop_.relative_to == RtolReference::rhs ? space().norm2(b) : 0.0;
  f.dtol = stop_.dtol;
  f.stagnation_window = stop_.stagnation_window;
  f.maxit = limit_.iterations > 0 ? std::min(stop_.maxit, limit_.iterations) : stop_.maxit;
  return f;
}

StopReason KrylovMethod::check(double rnorm, int it, std::vector<double>& history) {
  history.push_back(rnorm);
  const StopReason r = stop_test(rnorm, it, rule_, best_, best_it_);
  if (r != StopReason::not_run) return r;
  if (limit_.seconds > 0.0 && it > 0 &&
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count() >= limit_.seconds)
    return StopReason::max_iterations;
  return StopReason::not_run;
}

}  // namespace tb
