// The OpenMP vector kernels (kernels.hpp).
#include <algorithm>
#include <cmath>

#include "kernels.hpp"
#include "ordered_sum.hpp"
#include "threading.hpp"

namespace tb::kernels::omp {

// Reductions through ordered_sums: their rounding depends on the length alone, so
// every Krylov iterate is the same bits whatever the team size (threading.hpp).
// Streaming loops split only above threading::stream_grain doubles per thread.
using sidx = std::ptrdiff_t;
int threads_for(std::size_t n) { return threading::threads_for(long(n), threading::stream_grain); }
double dot(const double* x, const double* y, std::size_t n) {
  return ordered_sums<1>(sidx(n), threading::stream_grain, [&](sidx i, double* s) { s[0] += x[i] * y[i]; })[0];
}
void axpby(double a, const double* x, double b, double* y, std::size_t n) {
#pragma omp parallel for schedule(static) num_threads(threads_for(n)) if (threads_for(n) > 1)
  for (sidx i = 0; i < sidx(n); ++i) y[i] = a * x[i] + b * y[i];
}
void axpbypcz(double a, const double* x, double b, const double* y, double c, double* z, std::size_t n) {
#pragma omp parallel for schedule(static) num_threads(threads_for(n)) if (threads_for(n) > 1)
  for (sidx i = 0; i < sidx(n); ++i) z[i] = a * x[i] + b * y[i] + c * z[i];
}
void scale(double a, double* x, std::size_t n) {
#pragma omp parallel for schedule(static) num_threads(threads_for(n)) if (threads_for(n) > 1)
  for (sidx i = 0; i < sidx(n); ++i) x[i] *= a;
}
void fill(double* x, double value, std::size_t n) {
#pragma omp parallel for schedule(static) num_threads(threads_for(n)) if (threads_for(n) > 1)
  for (sidx i = 0; i < sidx(n); ++i) x[i] = value;
}
// Up to four vectors per pass over w, as PETSc's VecMDot/VecMAXPY group them:
// few enough streams for the hardware prefetchers, one read of w per group.
void multi_dot(const double* const* v, int k, const double* w, double* out, std::size_t n) {
  for (int g = 0; g < k; g += 4) {
    const int m = std::min(4, k - g);
    const double* v0 = v[g];
    const double* v1 = v[g + std::min(1, m - 1)];
    const double* v2 = v[g + std::min(2, m - 1)];
    const double* v3 = v[g + std::min(3, m - 1)];
    const auto s = ordered_sums<4>(sidx(n), threading::stream_grain, [&](sidx i, double* acc) {
      const double wi = w[i];
      acc[0] += v0[i] * wi;
      acc[1] += v1[i] * wi;
      acc[2] += v2[i] * wi;
      acc[3] += v3[i] * wi;
    });
    for (int j = 0; j < m; ++j) out[g + j] = s[j];
  }
}

void multi_axpy(const double* alpha, const double* const* v, int k, double* w, std::size_t n) {
  for (int g = 0; g < k; g += 4) {
    const int m = std::min(4, k - g);
    // Missing members of a short group get a zero coefficient on a valid vector.
    const double a0 = alpha[g], a1 = m > 1 ? alpha[g + 1] : 0.0, a2 = m > 2 ? alpha[g + 2] : 0.0,
                 a3 = m > 3 ? alpha[g + 3] : 0.0;
    const double* v0 = v[g];
    const double* v1 = v[g + std::min(1, m - 1)];
    const double* v2 = v[g + std::min(2, m - 1)];
    const double* v3 = v[g + std::min(3, m - 1)];
#pragma omp parallel for schedule(static) num_threads(threads_for(n)) if (threads_for(n) > 1)
    for (sidx i = 0; i < sidx(n); ++i) w[i] += a0 * v0[i] + a1 * v1[i] + a2 * v2[i] + a3 * v3[i];
  }
}

bool all_finite(const double* x, std::size_t n) {
  int bad = 0;
#pragma omp parallel for schedule(static) reduction(| : bad) num_threads(threads_for(n)) if (threads_for(n) > 1)
  for (sidx i = 0; i < sidx(n); ++i) bad |= !std::isfinite(x[i]);
  return !bad;
}

}  // namespace tb::kernels::omp
