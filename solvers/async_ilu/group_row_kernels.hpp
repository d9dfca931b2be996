#pragma once
// The row bodies of row_kernels.hpp for a group of lanes per block row: the
// CUDA mapping for blocks too large for one thread's registers (up to 32).
// Lane c of the group computes component c of the block row, that is row c
// of every block it writes. dense_block.hpp's loops allow that split without
// reordering a single operation: row c of A B, of C -= A B and of A x reads
// row c of A alone. So a group computes factor_row / lower_row / upper_row
// bit for bit, and a group of lanes sweeping the rows in natural order is the
// sequential kernel (kernels::ref) exactly.
//
// Two steps need the whole block and go through the group's scratch (shared
// memory on the device): the inversion of U_ii, eliminated column by column
// with lane r updating row r and the group synchronised between the steps of
// Gauss-Jordan, and the backward sweep's final U_ii^{-1} times the row.
//
// G is the group: lane() (0..width-1), sync() (every lane of the group
// reaches it before any goes on) and all(bool) (a vote, also a sync). Lanes
// at or above the block size take part in every sync and vote and compute
// nothing. Control flow is uniform over the group: every lane walks the same
// blocks of the same row and takes the same pivots, read from the scratch.
#include <cmath>

#include "row_kernels.hpp"
#include "solvers/core/host_device.hpp"
#include "solvers/core/types.hpp"

namespace tb::async_ilu {

// The largest block a group takes: a warp's 32 lanes.
inline constexpr index_t max_group_block = 32;

// Scratch doubles one group needs: a whole block.
TB_HOST_DEVICE constexpr index_t group_scratch(index_t n) { return n * n; }

namespace group {

// Local arrays of a lane: one block row of n entries.
template <int N>
inline constexpr int lane_entries = N > 0 ? N : int(max_group_block);

// Row c of c_block -= a_block * b_block into acc (dense::multiply_subtract, row c).
template <int N>
TB_HOST_DEVICE inline void row_multiply_subtract(const double* a, const double* b, double* acc, index_t c, index_t n) {
  for (index_t k = 0; k < n; ++k) {
    const double aik = a[c * n + k];
    for (index_t j = 0; j < n; ++j) acc[j] -= aik * b[k * n + j];
  }
}

// out = row * b, a row times a block (dense::multiply, one row).
template <int N>
TB_HOST_DEVICE inline void row_multiply(const double* row, const double* b, double* out, index_t n) {
  for (index_t j = 0; j < n; ++j) {
    double s = 0.0;
    for (index_t k = 0; k < n; ++k) s += row[k] * b[k * n + j];
    out[j] = s;
  }
}

// Row c of a x (dense::matvec, one row).
template <int N>
TB_HOST_DEVICE inline double row_dot(const double* a, const double* x, index_t c, index_t n) {
  double s = 0.0;
  for (index_t k = 0; k < n; ++k) s += a[c * n + k] * x[k];
  return s;
}

// dense::invert on the n x n block s held in the group's scratch, by rows:
// the pivot search is the sequential one, run by every lane on the same
// values; lane r swaps and scales column r of the pivot rows, then eliminates
// its own row r. Returns the same bool on every lane.
template <int N, class G>
TB_HOST_DEVICE inline bool invert(double* s, index_t n_rt, const G& g) {
  const index_t n = dense::dim<N>(n_rt);
  const index_t r = g.lane();
  const bool active = r < n;
  index_t perm[lane_entries<N>];
  for (index_t c = 0; c < n; ++c) {
    index_t piv = c;
    double best = std::fabs(s[c * n + c]);
    for (index_t q = c + 1; q < n; ++q)
      if (std::fabs(s[q * n + c]) > best) best = std::fabs(s[q * n + c]), piv = q;
    if (!(best > 0.0) || !std::isfinite(best)) {
      g.sync();  // no lane writes the block while another still reads it
      return false;
    }
    perm[c] = piv;
    const double inv = 1.0 / s[piv * n + c];
    g.sync();  // column c read by every lane before rows move
    if (active) {
      const double to_pivot_row = s[piv * n + r];
      if (piv != c) s[piv * n + r] = s[c * n + r];
      s[c * n + r] = (r == c ? 1.0 : to_pivot_row) * inv;
    }
    g.sync();  // the pivot row complete
    if (active && r != c) {
      const double f = s[r * n + c];
      if (f != 0.0) {
        s[r * n + c] = 0.0;
        for (index_t k = 0; k < n; ++k) s[r * n + k] -= f * s[c * n + k];
      }
    }
    g.sync();  // every row eliminated before the next pivot search
  }
  bool finite = true;
  if (active) {
    for (index_t c = n - 1; c >= 0; --c)
      if (perm[c] != c) {
        const double t = s[r * n + c];
        s[r * n + c] = s[r * n + perm[c]];
        s[r * n + perm[c]] = t;
      }
    for (index_t k = 0; k < n; ++k) finite = finite && std::isfinite(s[r * n + k]);
  }
  return g.all(finite);
}

// factor_row (Eq. 18 / 22, Alg. 4's work item) by a group. scratch: the
// group's group_scratch(n) doubles.
template <int N, class G>
TB_HOST_DEVICE inline bool factor_row(const FactorView& f, index_t i, const double* src, const double* src_dinv,
                                      double* dst, double* dst_dinv, double* scratch, const G& g) {
  const index_t n = dense::dim<N>(f.block_size);
  const index_t nb = n * n;
  const index_t c = g.lane();
  const bool active = c < n;
  double acc[lane_entries<N>];
  bool ok = true;
  for (index_t p = f.row_ptr[i]; p < f.row_ptr[i + 1]; ++p) {
    const index_t j = f.col_idx[p];
    if (active) {
      for (index_t e = 0; e < n; ++e) acc[e] = f.a[p * nb + c * n + e];
      for (index_t t = f.prod_ptr[p]; t < f.prod_ptr[p + 1]; ++t)
        row_multiply_subtract<N>(src + f.prod_l[t] * nb, src + f.prod_u[t] * nb, acc, c, n);
    }
    if (j < i) {
      if (active) row_multiply<N>(acc, src_dinv + j * nb, dst + p * nb + c * n, n);
      continue;
    }
    if (active)
      for (index_t e = 0; e < n; ++e) dst[p * nb + c * n + e] = acc[e];
    if (j != i) continue;
    if (active)
      for (index_t e = 0; e < n; ++e) scratch[c * n + e] = acc[e];
    g.sync();  // the whole U_ii in the scratch
    if (invert<N>(scratch, n, g)) {
      if (active)
        for (index_t e = 0; e < n; ++e) dst_dinv[i * nb + c * n + e] = scratch[c * n + e];
    } else {
      ok = false;
      if (active && dst_dinv != src_dinv)
        for (index_t e = 0; e < n; ++e) dst_dinv[i * nb + c * n + e] = src_dinv[i * nb + c * n + e];
    }
    g.sync();  // the scratch free for the next row
  }
  return ok;
}

// lower_row (Alg. 5's forward sweep) by a group: lane c's component needs
// nothing of the other lanes.
template <int N, class G>
TB_HOST_DEVICE inline void lower_row(const FactorView& f, const double* lu, index_t i, const double* rhs,
                                     const double* src, double* dst, const G& g) {
  const index_t n = dense::dim<N>(f.block_size);
  const index_t nb = n * n;
  const index_t c = g.lane();
  if (c >= n) return;
  double acc = rhs[i * n + c];
  for (index_t p = f.row_ptr[i]; p < f.diag[i]; ++p) acc -= row_dot<N>(lu + p * nb, src + f.col_idx[p] * n, c, n);
  dst[i * n + c] = acc;
}

// upper_row by a group: the row's sum over the far blocks per lane, then
// U_ii^{-1} times it through the scratch (n doubles).
template <int N, class G>
TB_HOST_DEVICE inline void upper_row(const FactorView& f, const double* lu, const double* dinv, index_t i,
                                     const double* rhs, const double* src, double* dst, double* scratch, const G& g) {
  const index_t n = dense::dim<N>(f.block_size);
  const index_t nb = n * n;
  const index_t c = g.lane();
  const bool active = c < n;
  if (active) {
    double acc = rhs[i * n + c];
    for (index_t p = f.row_ptr[i + 1] - 1; p > f.diag[i]; --p)
      acc -= row_dot<N>(lu + p * nb, src + f.col_idx[p] * n, c, n);
    scratch[c] = acc;
  }
  g.sync();  // the whole row's sums in the scratch
  if (active) dst[i * n + c] = row_dot<N>(dinv + i * nb, scratch, c, n);
  g.sync();  // the scratch free for the next row
}

}  // namespace group
}  // namespace tb::async_ilu
