#include "vector_kernels.hpp"

#include <algorithm>
#include <cmath>

#include "cuda_call.hpp"
#include "error.hpp"
#include "ordered_sum.hpp"
#include "threading.hpp"
#include "types.hpp"

namespace tb::kernels {

namespace {
void check_same(const Vector& x, const Vector& y, const char* op) {
  if (x.size() != y.size() || x.backend() != y.backend())
    throw Error(std::string(op) + ": vectors differ in size or backend (" + std::to_string(x.size()) + " on " +
                std::string(to_string(x.backend())) + ", " + std::to_string(y.size()) + " on " +
                std::string(to_string(y.backend())) + ")");
}
bool on_cuda(const Vector& x) { return x.backend() == Backend::cuda; }
}  // namespace

double dot(const Vector& x, const Vector& y) {
  check_same(x, y, "dot");
  if (on_cuda(x)) return TB_CUDA_CALL(cuda::dot(x.data(), y.data(), x.size()));
  return omp::dot(x.data(), y.data(), x.size());
}

double norm2(const Vector& x) { return std::sqrt(dot(x, x)); }

void axpy(double a, const Vector& x, Vector& y) { axpby(a, x, 1.0, y); }

void axpby(double a, const Vector& x, double b, Vector& y) {
  check_same(x, y, "axpby");
  if (on_cuda(x)) return TB_CUDA_CALL(cuda::axpby(a, x.data(), b, y.data(), x.size()));
  omp::axpby(a, x.data(), b, y.data(), x.size());
}

void axpbypcz(double a, const Vector& x, double b, const Vector& y, double c, Vector& z) {
  check_same(x, z, "axpbypcz");
  check_same(y, z, "axpbypcz");
  if (on_cuda(x)) return TB_CUDA_CALL(cuda::axpbypcz(a, x.data(), b, y.data(), c, z.data(), x.size()));
  omp::axpbypcz(a, x.data(), b, y.data(), c, z.data(), x.size());
}

void scale(double a, Vector& x) {
  if (on_cuda(x)) return TB_CUDA_CALL(cuda::scale(a, x.data(), x.size()));
  omp::scale(a, x.data(), x.size());
}

void fill(Vector& x, double value) {
  if (on_cuda(x)) return TB_CUDA_CALL(cuda::fill(x.data(), value, x.size()));
  omp::fill(x.data(), value, x.size());
}

void copy(const Vector& src, Vector& dst) { dst.copy_from(src); }

bool all_finite(const Vector& x) {
  if (on_cuda(x)) return TB_CUDA_CALL(cuda::all_finite(x.data(), x.size()));
  return omp::all_finite(x.data(), x.size());
}

// Both fused kernels take at most four vectors per call (see omp::multi_dot),
// so the dispatch gathers pointers group by group, without allocating.
void multi_dot(const Vector* const* v, int k, const Vector& w, double* out) {
  for (int g = 0; g < k; g += 4) {
    const int m = std::min(4, k - g);
    const double* p[4];
    for (int i = 0; i < m; ++i) {
      check_same(*v[g + i], w, "multi_dot");
      p[i] = v[g + i]->data();
    }
    if (on_cuda(w))
      TB_CUDA_CALL(cuda::multi_dot(p, m, w.data(), out + g, w.size()));
    else
      omp::multi_dot(p, m, w.data(), out + g, w.size());
  }
}

void multi_axpy(const double* alpha, const Vector* const* v, int k, Vector& w) {
  for (int g = 0; g < k; g += 4) {
    const int m = std::min(4, k - g);
    const double* p[4];
    for (int i = 0; i < m; ++i) {
      check_same(*v[g + i], w, "multi_axpy");
      p[i] = v[g + i]->data();
    }
    if (on_cuda(w))
      TB_CUDA_CALL(cuda::multi_axpy(alpha + g, p, m, w.data(), w.size()));
    else
      omp::multi_axpy(alpha + g, p, m, w.data(), w.size());
  }
}

namespace ref {
void multi_dot(const double* const* v, int k, const double* w, double* out, std::size_t n) {
  for (int i = 0; i < k; ++i) out[i] = dot(v[i], w, n);
}
void multi_axpy(const double* alpha, const double* const* v, int k, double* w, std::size_t n) {
  for (int i = 0; i < k; ++i) axpby(alpha[i], v[i], 1.0, w, n);
}
double dot(const double* x, const double* y, std::size_t n) {
  double s = 0.0;
  for (std::size_t i = 0; i < n; ++i) s += x[i] * y[i];
  return s;
}
void axpby(double a, const double* x, double b, double* y, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) y[i] = a * x[i] + b * y[i];
}
void axpbypcz(double a, const double* x, double b, const double* y, double c, double* z, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) z[i] = a * x[i] + b * y[i] + c * z[i];
}
void scale(double a, double* x, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) x[i] *= a;
}
void fill(double* x, double value, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) x[i] = value;
}
bool all_finite(const double* x, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i)
    if (!std::isfinite(x[i])) return false;
  return true;
}
}  // namespace ref

// Reductions through ordered_sums: their rounding depends on the length alone, so
// every Krylov iterate is the same bits whatever the team size (threading.hpp).
// Streaming loops split only above threading::stream_grain doubles per thread.
namespace omp {
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
}  // namespace omp

}  // namespace tb::kernels
