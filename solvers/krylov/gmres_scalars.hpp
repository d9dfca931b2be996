#pragma once
// GMRES's small dense algebra: the Hessenberg matrix, its Givens rotations,
// the residual estimate |g_{j+1}|, the stop test and the triangular solve for
// y, as loop bodies shared by the host method and the backend that keeps them
// (gmres.hpp, "scalars on the backend"); kernels.hpp launches them. Kept where the Krylov vectors are,
// an iteration's reductions stay there too: the host queues iterations and
// reads a two-number record only at its checks (Slot), where
// otherwise each iteration waits for its dot products. One thread runs each
// step on a device: the work is O(restart) per iteration.
#include <cmath>
#include <cstddef>

#include "solvers/core/host_device.hpp"
#include "solvers/krylov/stop_test.hpp"

namespace tb::gmres_scalars {

// The Givens rotations that zeroed H(i+1, i) for i < j applied to column j of
// the (m+1) x m row-major Hessenberg matrix h, then the one that zeroes
// H(j+1, j), applied to g (Saad & Schultz 1986, Section 3.3).
TB_HOST_DEVICE inline void rotate(double* h, double* cs, double* sn, double* g, int m, int j) {
  for (int i = 0; i < j; ++i) {
    const double t = cs[i] * h[i * m + j] + sn[i] * h[(i + 1) * m + j];
    h[(i + 1) * m + j] = -sn[i] * h[i * m + j] + cs[i] * h[(i + 1) * m + j];
    h[i * m + j] = t;
  }
  const double d = std::hypot(h[j * m + j], h[(j + 1) * m + j]);
  // A zero column (A z = 0: a preconditioner that returned nothing, or z in
  // A's null space) reduces nothing: the rotation that swaps keeps the
  // residual estimate |g_j| (the identity would zero it and report a
  // convergence that did not happen), and the column's coefficient is 0.
  cs[j] = d == 0.0 ? 0.0 : h[j * m + j] / d;
  sn[j] = d == 0.0 ? 1.0 : h[(j + 1) * m + j] / d;
  h[j * m + j] = d;
  h[(j + 1) * m + j] = 0.0;
  g[j + 1] = -sn[j] * g[j];
  g[j] = cs[j] * g[j];
}

// y from the j x j upper triangle R y = g.
TB_HOST_DEVICE inline void back_substitute(const double* h, const double* g, double* y, int m, int j) {
  for (int i = j - 1; i >= 0; --i) {
    double s = g[i];
    for (int c = i + 1; c < j; ++c) s -= h[i * m + c] * y[c];
    y[i] = h[i * m + i] == 0.0 ? 0.0 : s / h[i * m + i];
  }
}

// The scalars of one GMRES(m) solve in one array of the backend.
struct View {
  double* h;        // (m + 1) x m
  double* cs;       // m
  double* sn;       // m
  double* g;        // m + 1
  double* y;        // m
  double* coef;     // m + 1: a projection's coefficients, negated for the update
  double* history;  // maxit + 1: the estimate per iteration
  double* slot;     // Slot::count named numbers
  int m;
};

enum Slot : int {
  norm_sq,   // the last squared norm reduced (r before a cycle, the new vector in one)
  beta,      // ||r|| at the cycle's start
  new_norm,  // ||A z - V h||: H(j+1, j) before its rotation, the new vector's divisor
  best,      // stop_test's best residual and its iteration
  best_it,
  estimate,  // the record the host reads at a check: the last estimate,
  stop,      //   the stop word (stop_word: -1 until the solve stops)
  initial,   //   and, at the first check only, ||r0||
  count,
};
constexpr int record = estimate;  // the record's first slot: two numbers
constexpr int record_size = 2;
constexpr int first_record_size = 3;  // with ||r0||
static_assert(initial == record + record_size, "the first check reads the record and ||r0|| in one copy");

// The iteration that stopped and why in one number, so that a check reads
// two: it * reasons + r (exact in a double for any iteration count).
constexpr int reasons = int(StopReason::not_run) + 1;
TB_HOST_DEVICE inline double stop_word(int it, StopReason r) { return double(it) * reasons + double(int(r)); }
TB_HOST_DEVICE inline bool stopped(double word) { return word >= 0.0; }
inline int stopped_at(double word) { return stopped(word) ? int(word) / reasons : -1; }
inline StopReason stopped_for(double word) {
  return stopped(word) ? StopReason(int(word) % reasons) : StopReason::not_run;
}

// Doubles the array of View holds for restart m and maxit iterations.
inline std::size_t size(int m, int maxit) {
  return std::size_t(m + 1) * m + 3 * std::size_t(m) + 2 * std::size_t(m + 1) + std::size_t(maxit + 1) + Slot::count;
}

inline View view_of(double* p, int m, int maxit) {
  View v{};
  v.m = m;
  v.h = p, p += std::size_t(m + 1) * m;
  v.cs = p, p += m;
  v.sn = p, p += m;
  v.g = p, p += m + 1;
  v.y = p, p += m;
  v.coef = p, p += m + 1;
  v.history = p, p += maxit + 1;
  v.slot = p;
  return v;
}

// A solve's first cycle (it == 0: ||r0|| kept, the stop test at iteration 0,
// as KrylovMethod::begin takes it on the host) or a restart at iteration it:
// beta = sqrt(norm_sq), g = beta e_1; a non-finite beta stops the solve at it.
TB_HOST_DEVICE inline void begin_cycle(View v, int it, StopFactors f) {
  const double r = std::sqrt(v.slot[norm_sq]);
  v.slot[beta] = r;
  for (int i = 0; i <= v.m; ++i) v.g[i] = 0.0;
  v.g[0] = r;
  if (it == 0) {
    v.slot[initial] = r;
    v.slot[estimate] = r;
    double best_value = 0.0;
    int best_iteration = 0;
    const StopReason why = stop_test(r, 0, rule_for(f, r), best_value, best_iteration);
    v.slot[best] = best_value, v.slot[best_it] = double(best_iteration);
    v.slot[stop] = why == StopReason::not_run ? -1.0 : stop_word(0, why);
  } else if (!std::isfinite(r) && !stopped(v.slot[stop])) {
    v.slot[stop] = stop_word(it, StopReason::non_finite);
  }
}

// One classical pass over column j: H(i, j) += coef[i] (from zero on the first
// pass), coef[i] = -coef[i] for the update av -= V coef.
TB_HOST_DEVICE inline void add_projection(View v, int j, bool first_pass) {
  for (int i = 0; i <= j; ++i) {
    if (first_pass) v.h[i * v.m + j] = 0.0;
    v.h[i * v.m + j] += v.coef[i];
    v.coef[i] = -v.coef[i];
  }
}

// Modified Gram-Schmidt's entry i of column j: H(i, j) = coef[i], negated for its axpy.
TB_HOST_DEVICE inline void take_projection(View v, int i, int j) {
  v.h[i * v.m + j] = v.coef[i];
  v.coef[i] = -v.coef[i];
}

// Iteration it closes column j: H(j+1, j) = sqrt(norm_sq), the rotations, the
// estimate |g_{j+1}| into the history and, the first time the stop test (or a
// happy breakdown that did not converge) says so, the stop record.
TB_HOST_DEVICE inline void close_column(View v, int j, int it, StopFactors f) {
  const double hn = std::sqrt(v.slot[norm_sq]);
  v.slot[new_norm] = hn;
  v.h[(j + 1) * v.m + j] = hn;
  rotate(v.h, v.cs, v.sn, v.g, v.m, j);
  const double e = std::abs(v.g[j + 1]);
  v.history[it] = e;
  if (stopped(v.slot[stop])) return;
  v.slot[estimate] = e;
  double best_value = v.slot[best];
  int best_iteration = int(v.slot[best_it]);
  StopReason r = stop_test(e, it, rule_for(f, v.slot[initial]), best_value, best_iteration);
  v.slot[best] = best_value, v.slot[best_it] = double(best_iteration);
  // A happy breakdown means x is exact in this Krylov space: the estimate is
  // zero up to round-off and the test above stops the solve.
  if (r == StopReason::not_run && hn == 0.0) r = StopReason::breakdown;
  if (r != StopReason::not_run) v.slot[stop] = stop_word(it, r);
}

// y for the first j columns.
TB_HOST_DEVICE inline void solve_for_y(View v, int j) { back_substitute(v.h, v.g, v.y, v.m, j); }

}  // namespace tb::gmres_scalars
