#pragma once
// The loop bodies of FGBILU (seed 000), one matrix or vector element each:
// the "ACC style" kernels of Algorithms 4, 5, 6 and 7. They are compiled for the
// host loops (kernels_ref.cpp, and the coarse cell bodies of
// cell_kernels.hpp, which call them per cell) and for the CUDA kernels
// (cuda/kernels.cu), so the CPU tests run the arithmetic the GPU runs.
// Indices are 0-based; q is a wavefront position (wavefront_schedule.hpp).
#include <cstddef>

#include "solvers/core/host_device.hpp"
#include "solvers/core/types.hpp"

namespace tb::fgbilu {

// Raw pointers of a Stencil7Matrix and its schedule on one backend.
struct Stencil7View {
  index_t n = 1;
  index_t cells = 0;
  const double* coef = nullptr;        // [c][q][u*n+v], stencil7_matrix.hpp
  const index_t* natural = nullptr;    // q -> natural cell
  const index_t* position = nullptr;   // natural cell -> q
  const index_t* neighbour = nullptr;  // [d][q] -> q' or -1
};

// Scratch for one hyperplane: s[t][ql][u*n+v] (Algorithm 4), t = 0..2, ql = q - plane begin.
struct PlaneScratch {
  double* s = nullptr;
  index_t stride = 0;  // max N_p * n * n: the distance between s_1, s_2, s_3
};

TB_HOST_DEVICE inline const double* coef_block(const Stencil7View& a, int c, index_t q) {
  return a.coef + (static_cast<std::size_t>(c) * a.cells + q) * a.n * a.n;
}
TB_HOST_DEVICE inline index_t neighbour_of(const Stencil7View& a, int direction, index_t q) {
  return a.neighbour[static_cast<std::size_t>(direction) * a.cells + q];
}
// Lower term t = 0, 1, 2 (k-1, j-1, i-1): coefficient alpha, beta, gamma of the cell,
// and the neighbour's upper coefficient back to the cell, eta, zeta, epsilon.
TB_HOST_DEVICE inline int upper_coefficient_back(int t) { return 6 - t; }

// Algorithm 4, kernel #1: s_t^{u,v} = <lower_t^{u,:}, d_nbr^{:,v}> (d already inverted).
template <int N = 0>
TB_HOST_DEVICE inline void factor_product_element(const Stencil7View& a, const double* d, PlaneScratch sc, index_t ql,
                                                  index_t q, index_t u, index_t v) {
  const index_t n = N > 0 ? N : a.n;
  for (int t = 0; t < 3; ++t) {
    const index_t nq = neighbour_of(a, t, q);
    double sum = 0.0;
    if (nq >= 0) {
      const double* l = coef_block(a, t, q) + u * n;
      const double* dn = d + static_cast<std::size_t>(nq) * n * n + v;
      for (index_t w = 0; w < n; ++w) sum += l[w] * dn[w * n];
    }
    sc.s[t * sc.stride + static_cast<std::size_t>(ql) * n * n + u * n + v] = sum;
  }
}

// Algorithm 4, kernel #2 (Eq. 1): d^{u,v} = delta^{u,v} - <s_1^{u,:}, eta_{k-1}^{:,v}>
// - <s_2^{u,:}, zeta_{j-1}^{:,v}> - <s_3^{u,:}, epsilon_{i-1}^{:,v}>.
template <int N = 0>
TB_HOST_DEVICE inline void factor_update_element(const Stencil7View& a, double* d, PlaneScratch sc, index_t ql,
                                                 index_t q, index_t u, index_t v) {
  const index_t n = N > 0 ? N : a.n;
  double acc = coef_block(a, 3, q)[u * n + v];
  for (int t = 0; t < 3; ++t) {
    const index_t nq = neighbour_of(a, t, q);
    if (nq < 0) continue;
    const double* s = sc.s + t * sc.stride + static_cast<std::size_t>(ql) * n * n + u * n;
    const double* up = coef_block(a, upper_coefficient_back(t), nq) + v;
    double dot = 0.0;
    for (index_t w = 0; w < n; ++w) dot += s[w] * up[w * n];
    acc -= dot;
  }
  d[static_cast<std::size_t>(q) * n * n + u * n + v] = acc;
}

// Algorithm 4, kernel #3 = Algorithm 5 line 2 for pivot r: w = 0 .. 2(n-1)-1 covers
// row r (scaled) then column r (scaled and negated), skipping (r, r) by index
// arithmetic rather than a branch.
template <int N = 0>
TB_HOST_DEVICE inline void gj_scale_element(double* blk, index_t n_rt, index_t r, index_t w) {
  const index_t n = N > 0 ? N : n_rt;
  const index_t a = w >= n - 1 ? 1 : 0;
  index_t x = w - a * (n - 1);
  x += x >= r ? 1 : 0;
  const index_t b = a * (x - r);
  const index_t u = r + b, v = x - b;
  blk[u * n + v] = (1 - 2 * a) * blk[u * n + v] / blk[r * n + r];
}

// Algorithm 4, kernel #4 = Algorithm 5 line 3: (uh, vh) in 0..n-2 skip row and column r.
template <int N = 0>
TB_HOST_DEVICE inline void gj_update_element(double* blk, index_t n_rt, index_t r, index_t uh, index_t vh) {
  const index_t n = N > 0 ? N : n_rt;
  const index_t u = uh + (uh >= r ? 1 : 0), v = vh + (vh >= r ? 1 : 0);
  blk[u * n + v] += blk[u * n + r] * blk[r * n + v] * blk[r * n + r];
}

// Algorithm 4, kernel #5 = Algorithm 5 line 4.
template <int N = 0>
TB_HOST_DEVICE inline void gj_pivot_element(double* blk, index_t n_rt, index_t r) {
  const index_t n = N > 0 ? N : n_rt;
  blk[r * n + r] = 1.0 / blk[r * n + r];
}

// Algorithm 5: in-place inverse by Gauss-Jordan elimination without pivoting.
// A zero or non-finite pivot leaves non-finite entries, which the callers detect.
template <int N = 0>
TB_HOST_DEVICE inline void gauss_jordan_invert(double* blk, index_t n_rt) {
  const index_t n = N > 0 ? N : n_rt;
  for (index_t r = 0; r < n; ++r) {
    for (index_t w = 0; w < 2 * (n - 1); ++w) gj_scale_element<N>(blk, n, r, w);
    for (index_t uh = 0; uh < n - 1; ++uh)
      for (index_t vh = 0; vh < n - 1; ++vh) gj_update_element<N>(blk, n, r, uh, vh);
    gj_pivot_element<N>(blk, n, r);
  }
}

// Algorithm 6(a), first kernel: z^u = b^u - <alpha^{u,:}, x_{k-1}> - <beta^{u,:}, x_{j-1}> - <gamma^{u,:}, x_{i-1}>.
template <int N = 0>
TB_HOST_DEVICE inline double forward_gather_element(const Stencil7View& a, const double* b, const double* x, index_t q,
                                                    index_t u) {
  const index_t n = N > 0 ? N : a.n;
  double acc = b[static_cast<std::size_t>(a.natural[q]) * n + u];
  for (int t = 0; t < 3; ++t) {
    const index_t nq = neighbour_of(a, t, q);
    if (nq < 0) continue;
    const double* l = coef_block(a, t, q) + u * n;
    const double* xn = x + static_cast<std::size_t>(a.natural[nq]) * n;
    double dot = 0.0;
    for (index_t w = 0; w < n; ++w) dot += l[w] * xn[w];
    acc -= dot;
  }
  return acc;
}

// Algorithm 6(b), first kernel: z^u = <epsilon^{u,:}, x_{i+1}> + <zeta^{u,:}, x_{j+1}> + <eta^{u,:}, x_{k+1}>.
template <int N = 0>
TB_HOST_DEVICE inline double backward_gather_element(const Stencil7View& a, const double* x, index_t q, index_t u) {
  const index_t n = N > 0 ? N : a.n;
  double acc = 0.0;
  for (int dir = 3; dir < 6; ++dir) {
    const index_t nq = neighbour_of(a, dir, q);
    if (nq < 0) continue;
    const double* up = coef_block(a, dir + 1, q) + u * n;
    const double* xn = x + static_cast<std::size_t>(a.natural[nq]) * n;
    double dot = 0.0;
    for (index_t w = 0; w < n; ++w) dot += up[w] * xn[w];
    acc += dot;
  }
  return acc;
}

// Algorithm 6, second kernels: <d^{u,:}, z>.
template <int N = 0>
TB_HOST_DEVICE inline double block_row_dot(const double* d, index_t n_rt, index_t q, index_t u, const double* z) {
  const index_t n = N > 0 ? N : n_rt;
  const double* row = d + static_cast<std::size_t>(q) * n * n + u * n;
  double dot = 0.0;
  for (index_t w = 0; w < n; ++w) dot += row[w] * z[w];
  return dot;
}

// Algorithm 7: R^u = b^u - sum over the seven blocks of <block^{u,:}, x_neighbour>.
template <int N = 0>
TB_HOST_DEVICE inline double residual_element(const Stencil7View& a, const double* b, const double* x, index_t q,
                                              index_t u) {
  const index_t n = N > 0 ? N : a.n;
  const index_t cell = a.natural[q];
  double acc = b[static_cast<std::size_t>(cell) * n + u];
  for (int c = 0; c < 7; ++c) {
    index_t other = cell;
    if (c != 3) {
      const index_t nq = neighbour_of(a, c < 3 ? c : c - 1, q);
      if (nq < 0) continue;
      other = a.natural[nq];
    }
    const double* row = coef_block(a, c, q) + u * n;
    const double* xn = x + static_cast<std::size_t>(other) * n;
    double dot = 0.0;
    for (index_t w = 0; w < n; ++w) dot += row[w] * xn[w];
    acc -= dot;
  }
  return acc;
}

// Entry t of the 7-point coefficients from a BSR matrix's values: block
// map[t / nb] of the BSR values (Stencil7Map::bsr_block), or 0 where the
// block is off the grid (-1). The numeric refresh of values already on a
// device (update_values' copy, one entry per thread).
TB_HOST_DEVICE inline double gathered_entry(const index_t* map, index_t nb, const double* values, long long t) {
  const index_t k = map[t / nb];
  return k < 0 ? 0.0 : values[(long long)k * nb + t % nb];
}

}  // namespace tb::fgbilu
