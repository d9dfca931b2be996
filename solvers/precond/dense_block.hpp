#pragma once
// Small dense block kernels shared by the block preconditioners: a block is
// n x n, row-major, contiguous (the BSR layout). The template parameter N fixes
// n at compile time (N = 0: runtime n), so the factorisation and sweeps of
// block sizes 1..8 unroll fully, as PETSc's hand-written BAIJ kernels do,
// without a second copy of the arithmetic. The block kernels are also
// TB_HOST_DEVICE: the asynchronous ILU's CUDA rows (solvers/async_ilu) run this
// very arithmetic, which is what makes one of its sweeps equal BILU(0) bit for bit.
#include <cmath>

#include "solvers/core/host_device.hpp"
#include "solvers/core/types.hpp"

namespace tb::dense {

template <int N>
TB_HOST_DEVICE constexpr index_t dim(index_t n) {
  return N > 0 ? N : n;
}

// In-place inverse by Gauss-Jordan elimination with partial pivoting. Returns
// false, leaving the block undefined, when a pivot is zero or not finite.
template <int N = 0>
TB_HOST_DEVICE inline bool invert(double* a, index_t n_rt) {
  const index_t n = dim<N>(n_rt);
  // perm records the row swaps so the inverse's columns can be swapped back.
  index_t perm[N > 0 ? N : 64];
  for (index_t c = 0; c < n; ++c) {
    index_t piv = c;
    double best = std::fabs(a[c * n + c]);
    for (index_t r = c + 1; r < n; ++r)
      if (std::fabs(a[r * n + c]) > best) best = std::fabs(a[r * n + c]), piv = r;
    if (!(best > 0.0) || !std::isfinite(best)) return false;
    perm[c] = piv;
    if (piv != c)
      for (index_t k = 0; k < n; ++k) {
        const double t = a[c * n + k];
        a[c * n + k] = a[piv * n + k];
        a[piv * n + k] = t;
      }
    const double inv = 1.0 / a[c * n + c];
    a[c * n + c] = 1.0;
    for (index_t k = 0; k < n; ++k) a[c * n + k] *= inv;
    for (index_t r = 0; r < n; ++r) {
      if (r == c) continue;
      const double f = a[r * n + c];
      if (f == 0.0) continue;
      a[r * n + c] = 0.0;
      for (index_t k = 0; k < n; ++k) a[r * n + k] -= f * a[c * n + k];
    }
  }
  for (index_t c = n - 1; c >= 0; --c)
    if (perm[c] != c)
      for (index_t r = 0; r < n; ++r) {
        const double t = a[r * n + c];
        a[r * n + c] = a[r * n + perm[c]];
        a[r * n + perm[c]] = t;
      }
  for (index_t k = 0; k < n * n; ++k)
    if (!std::isfinite(a[k])) return false;
  return true;
}

// c = a * b
template <int N = 0>
TB_HOST_DEVICE inline void multiply(const double* a, const double* b, double* c, index_t n_rt) {
  const index_t n = dim<N>(n_rt);
  for (index_t i = 0; i < n; ++i)
    for (index_t j = 0; j < n; ++j) {
      double s = 0.0;
      for (index_t k = 0; k < n; ++k) s += a[i * n + k] * b[k * n + j];
      c[i * n + j] = s;
    }
}

// c -= a * b
template <int N = 0>
TB_HOST_DEVICE inline void multiply_subtract(const double* a, const double* b, double* c, index_t n_rt) {
  const index_t n = dim<N>(n_rt);
  for (index_t i = 0; i < n; ++i)
    for (index_t k = 0; k < n; ++k) {
      const double aik = a[i * n + k];
      for (index_t j = 0; j < n; ++j) c[i * n + j] -= aik * b[k * n + j];
    }
}

// y = a x
template <int N = 0>
TB_HOST_DEVICE inline void matvec(const double* a, const double* x, double* y, index_t n_rt) {
  const index_t n = dim<N>(n_rt);
  for (index_t i = 0; i < n; ++i) {
    double s = 0.0;
    for (index_t k = 0; k < n; ++k) s += a[i * n + k] * x[k];
    y[i] = s;
  }
}

// y -= a x
template <int N = 0>
TB_HOST_DEVICE inline void matvec_subtract(const double* a, const double* x, double* y, index_t n_rt) {
  const index_t n = dim<N>(n_rt);
  for (index_t i = 0; i < n; ++i) {
    double s = 0.0;
    for (index_t k = 0; k < n; ++k) s += a[i * n + k] * x[k];
    y[i] -= s;
  }
}

}  // namespace tb::dense
