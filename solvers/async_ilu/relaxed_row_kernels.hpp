#pragma once
// Host-only twins of the row bodies in row_kernels.hpp for the asynchronous
// OpenMP kernels (kernels_omp.cpp explains why): every entry that another
// thread may write meanwhile -- lu and dinv in the factor sweeps, the iterate
// y or z in the triangular sweeps -- is read and written through
// std::atomic_ref with memory_order_relaxed. A, the right-hand side, the
// pattern and, during the triangular sweeps, lu and dinv are read-only and
// read plainly.
//
// The loops, and the dense block kernels they call, are those of
// row_kernels.hpp, in the same order: the shared entries are copied into a
// local block by relaxed loads and the dense kernel runs on the copy, so it
// sees the same values and performs the same operations. The tests
// OneThread.* and Kernels.OpenMpEqualsTheSequentialTwin hold the two in step
// bit for bit. The plain bodies stay as they are for the sequential twin, the
// synchronous schedule and CUDA.
#include <atomic>

#include "row_kernels.hpp"

namespace tb::async_ilu::relaxed {

static_assert(std::atomic_ref<double>::is_always_lock_free, "relaxed sweeps need lock-free double atomics");
static_assert(std::atomic_ref<double>::required_alignment == alignof(double),
              "the factor and vector entries are plain, naturally aligned doubles");

inline double load(const double* p) {
  // atomic_ref<const double> is C++26; the entries themselves are never const objects.
  return std::atomic_ref<double>(*const_cast<double*>(p)).load(std::memory_order_relaxed);
}

inline void store(double* p, double v) { std::atomic_ref<double>(*p).store(v, std::memory_order_relaxed); }

// `count` shared entries copied to `local`, which is returned for the dense
// kernels. GCC does not unroll loops of atomic loads by itself; unrolled, the
// copy of a block is a straight run of moves (the b = 4 triangular sweeps
// were 45 % slower without it).
inline const double* gather(const double* shared, double* local, index_t count) {
#pragma GCC unroll 16
  for (index_t e = 0; e < count; ++e) local[e] = load(shared + e);
  return local;
}

inline void publish(double* shared, const double* local, index_t count) {
#pragma GCC unroll 16
  for (index_t e = 0; e < count; ++e) store(shared + e, local[e]);
}

// factor_row in place (src == dst, the asynchronous schedule): Eq. 18 / Eq. 10
// for block row i. On a singular or non-finite U_ii the inverse already in
// dinv stays (Chow-Patel's "modified" iteration) and false is returned.
template <int N>
inline bool factor_row(const FactorView& f, index_t i, double* lu, double* dinv) {
  const index_t n = dense::dim<N>(f.block_size);
  const index_t nb = n * n;
  double acc[local_entries<N>];
  double left[local_entries<N>];   // L_ik, then U_jj^{-1}
  double right[local_entries<N>];  // U_kj, then the new L_ij
  bool ok = true;
  // Loop bounds in locals: the compiler must reload memory after an atomic
  // access, so bounds read from the pattern in the loop condition would be
  // fetched again on every iteration.
  const index_t row_end = f.row_ptr[i + 1];
  for (index_t p = f.row_ptr[i]; p < row_end; ++p) {
    const index_t j = f.col_idx[p];
    for (index_t e = 0; e < nb; ++e) acc[e] = f.a[p * nb + e];
    const index_t products_end = f.prod_ptr[p + 1];
    for (index_t t = f.prod_ptr[p]; t < products_end; ++t)
      dense::multiply_subtract<N>(gather(lu + f.prod_l[t] * nb, left, nb), gather(lu + f.prod_u[t] * nb, right, nb),
                                  acc, n);
    if (j < i) {
      dense::multiply<N>(acc, gather(dinv + j * nb, left, nb), right, n);
      publish(lu + p * nb, right, nb);
      continue;
    }
    publish(lu + p * nb, acc, nb);
    if (j != i) continue;
    if (dense::invert<N>(acc, n))
      publish(dinv + i * nb, acc, nb);
    else
      ok = false;
  }
  return ok;
}

// lower_row in place on y (Alg. 5 / Alg. 2).
template <int N>
inline void lower_row(const FactorView& f, const double* lu, index_t i, const double* rhs, double* y) {
  const index_t n = dense::dim<N>(f.block_size);
  const index_t nb = n * n;
  double acc[N > 0 ? N : 64];
  double x_j[N > 0 ? N : 64];
  for (index_t c = 0; c < n; ++c) acc[c] = rhs[i * n + c];
  const index_t diag = f.diag[i];  // a local bound, as in factor_row
  for (index_t p = f.row_ptr[i]; p < diag; ++p)
    dense::matvec_subtract<N>(lu + p * nb, gather(y + f.col_idx[p] * n, x_j, n), acc, n);
  publish(y + i * n, acc, n);
}

// upper_row in place on z, the far blocks first.
template <int N>
inline void upper_row(const FactorView& f, const double* lu, const double* dinv, index_t i, const double* rhs,
                      double* z) {
  const index_t n = dense::dim<N>(f.block_size);
  const index_t nb = n * n;
  double acc[N > 0 ? N : 64];
  double x_j[N > 0 ? N : 64];
  for (index_t c = 0; c < n; ++c) acc[c] = rhs[i * n + c];
  const index_t diag = f.diag[i];
  for (index_t p = f.row_ptr[i + 1] - 1; p > diag; --p)
    dense::matvec_subtract<N>(lu + p * nb, gather(z + f.col_idx[p] * n, x_j, n), acc, n);
  dense::matvec<N>(dinv + i * nb, acc, x_j, n);
  publish(z + i * n, x_j, n);
}

}  // namespace tb::async_ilu::relaxed
