#pragma once
// The loop bodies of the asynchronous (block) ILU(0) that the sequential,
// OpenMP and CUDA kernels share: one call updates one block row. The dense
// block loops are those of solvers/precond/dense_block.hpp, the ones BILU(0)
// runs, so that one sweep in natural order reproduces BILU(0) bit for bit (seed 001,
// section 6: "asynchronous ILU(0) factorization when run with one thread is
// exactly traditional ILU(0) factorization").
#include <cmath>

#include "solvers/core/host_device.hpp"
#include "solvers/core/types.hpp"
#include "solvers/precond/dense_block.hpp"

namespace tb::async_ilu {

// Raw pointers of the factorisation state on one backend. The factors live on
// A's block pattern (row_ptr, col_idx): blocks left of the diagonal hold L
// (unit diagonal blocks, not stored), the others U with U_ii kept as it is;
// dinv holds U_ii^{-1} per block row. For each stored block p, the products
// of Eq. 18 that update it are the pairs (prod_l[t], prod_u[t]) of block
// positions, t in [prod_ptr[p], prod_ptr[p+1]), in ascending k.
struct FactorView {
  index_t block_size = 1;
  index_t block_rows = 0;
  index_t blocks = 0;  // stored blocks, row_ptr[block_rows]
  const index_t* row_ptr = nullptr;
  const index_t* col_idx = nullptr;
  const index_t* diag = nullptr;
  const index_t* prod_ptr = nullptr;
  const index_t* prod_l = nullptr;
  const index_t* prod_u = nullptr;
  const double* a = nullptr;  // A's values on the same pattern
};

// Local block storage: a compile-time N lives in registers; the runtime size
// (N = 0, host only) takes the largest block the BSR format allows.
template <int N>
inline constexpr int local_entries = N > 0 ? N* N : 64 * 64;

// The initial guess's U_ii^{-1} of block row i (seed 001, section 6: x0 = A,
// so U_ii^{-1} = A_ii^{-1}), inverted exactly. Where A_ii is singular or not
// finite the identity stands in, Chow-Patel's modified iteration: only a U_ii
// that stays singular through the sweeps is an error (factor_row).
template <int N>
TB_HOST_DEVICE inline void initial_inverse_row(const FactorView& f, index_t i, double* dinv) {
  const index_t n = dense::dim<N>(f.block_size);
  const index_t nb = n * n;
  const double* aii = f.a + f.diag[i] * nb;
  double* block = dinv + i * nb;
  for (index_t e = 0; e < nb; ++e) block[e] = aii[e];
  if (dense::invert<N>(block, n)) return;
  for (index_t e = 0; e < nb; ++e) block[e] = 0.0;
  for (index_t c = 0; c < n; ++c) block[c * n + c] = 1.0;
}

// One block row of the fixed-point map of Eq. 18 (block) / Eq. 10 (b = 1),
// Alg. 4's work item: every block (i, j) of row i in ascending j is set to
//   L_ij = (A_ij - sum_k L_ik U_kj) U_jj^{-1}   (i > j)
//   U_ij =  A_ij - sum_k L_ik U_kj              (i <= j),  k < min(i, j),
// accumulating in a local block (the paper found accumulating in place slower
// to converge), reading src/src_dinv and writing dst/dst_dinv. With src == dst
// the row is Gauss-Seidel within itself (asynchronous schedule); with separate
// buffers it is one Jacobi update (synchronous schedule). The new U_ii is
// inverted exactly; on a singular or non-finite U_ii the old inverse is kept
// (Chow-Patel's "modified" iteration) and false is returned so the caller can
// report the block row.
template <int N>
TB_HOST_DEVICE inline bool factor_row(const FactorView& f, index_t i, const double* src, const double* src_dinv,
                                      double* dst, double* dst_dinv) {
  const index_t n = dense::dim<N>(f.block_size);
  const index_t nb = n * n;
  double acc[local_entries<N>];
  bool ok = true;
  for (index_t p = f.row_ptr[i]; p < f.row_ptr[i + 1]; ++p) {
    const index_t j = f.col_idx[p];
    for (index_t e = 0; e < nb; ++e) acc[e] = f.a[p * nb + e];
    for (index_t t = f.prod_ptr[p]; t < f.prod_ptr[p + 1]; ++t)
      dense::multiply_subtract<N>(src + f.prod_l[t] * nb, src + f.prod_u[t] * nb, acc, n);
    if (j < i) {
      dense::multiply<N>(acc, src_dinv + j * nb, dst + p * nb, n);
    } else {
      for (index_t e = 0; e < nb; ++e) dst[p * nb + e] = acc[e];
      if (j == i) {
        if (dense::invert<N>(acc, n)) {
          for (index_t e = 0; e < nb; ++e) dst_dinv[i * nb + e] = acc[e];
        } else {
          ok = false;
          if (dst_dinv != src_dinv)
            for (index_t e = 0; e < nb; ++e) dst_dinv[i * nb + e] = src_dinv[i * nb + e];
        }
      }
    }
  }
  return ok;
}

// One block row of the asynchronous forward block sweep (Alg. 5; Alg. 2 for
// b = 1): x_i = b_i - sum_{j<i} L_ij x_j, L's diagonal blocks being identities.
template <int N>
TB_HOST_DEVICE inline void lower_row(const FactorView& f, const double* lu, index_t i, const double* rhs,
                                     const double* src, double* dst) {
  const index_t n = dense::dim<N>(f.block_size);
  const index_t nb = n * n;
  double acc[N > 0 ? N : 64];
  for (index_t c = 0; c < n; ++c) acc[c] = rhs[i * n + c];
  for (index_t p = f.row_ptr[i]; p < f.diag[i]; ++p)
    dense::matvec_subtract<N>(lu + p * nb, src + f.col_idx[p] * n, acc, n);
  for (index_t c = 0; c < n; ++c) dst[i * n + c] = acc[c];
}

// One block row of the backward block sweep: x_i = U_ii^{-1} (y_i - sum_{j>i}
// U_ij x_j), the far blocks first as in the sequential BILU(0) apply.
template <int N>
TB_HOST_DEVICE inline void upper_row(const FactorView& f, const double* lu, const double* dinv, index_t i,
                                     const double* rhs, const double* src, double* dst) {
  const index_t n = dense::dim<N>(f.block_size);
  const index_t nb = n * n;
  double acc[N > 0 ? N : 64];
  for (index_t c = 0; c < n; ++c) acc[c] = rhs[i * n + c];
  for (index_t p = f.row_ptr[i + 1] - 1; p > f.diag[i]; --p)
    dense::matvec_subtract<N>(lu + p * nb, src + f.col_idx[p] * n, acc, n);
  dense::matvec<N>(dinv + i * nb, acc, dst + i * n, n);
}

}  // namespace tb::async_ilu
