#pragma once
// The coarse-grained cell bodies of Algorithms 2 and 3 (one cell per call),
// built from the element bodies of element_kernels.hpp, that the sequential
// twins (kernels_ref.cpp) and the OpenMP kernels (kernels_omp.cpp) share, so
// that every host variant is bitwise identical.
#include <cmath>
#include <utility>

#include "kernels.hpp"
#include "solvers/core/block_size_dispatch.hpp"
#include "solvers/core/types.hpp"
#include "solvers/precond/dense_block.hpp"

namespace tb::fgbilu::cells {

// Each OpenMP kernel opens one region for the whole grid (all hyperplanes of a
// sweep), when the grid's diagonal blocks hold at least tb::openmp_min_length
// entries: the project-wide bound (types.hpp).
inline bool parallel_grid(const Stencil7View& a) { return long(a.cells) * a.n * a.n >= openmp_min_length; }

inline bool all_finite(const double* blk, index_t n) {
  for (index_t e = 0; e < n * n; ++e)
    if (!std::isfinite(blk[e])) return false;
  return true;
}

// Algorithm 2, lines 3-4, for one cell. s: 3 * n * n scratch. N > 0 fixes n at
// compile time (1..8, with_block_size) so the element loops unroll.
template <int N>
bool factor_cell(const Stencil7View& a, double* d, index_t q, double* s) {
  const index_t n = dense::dim<N>(a.n);
  const PlaneScratch sc{s, n * n};
  for (index_t u = 0; u < n; ++u)
    for (index_t v = 0; v < n; ++v) factor_product_element<N>(a, d, sc, 0, q, u, v);
  for (index_t u = 0; u < n; ++u)
    for (index_t v = 0; v < n; ++v) factor_update_element<N>(a, d, sc, 0, q, u, v);
  double* blk = d + std::size_t(q) * n * n;
  gauss_jordan_invert<N>(blk, n);
  return all_finite(blk, n);
}

// Algorithm 3, forward sweep line 3. z: n scratch.
template <int N>
void forward_cell(const Stencil7View& a, const double* d, index_t q, const double* b, double* x, double* z) {
  const index_t n = dense::dim<N>(a.n);
  for (index_t u = 0; u < n; ++u) z[u] = forward_gather_element<N>(a, b, x, q, u);
  double* xq = x + std::size_t(a.natural[q]) * n;
  for (index_t u = 0; u < n; ++u) xq[u] = block_row_dot<N>(d, n, q, u, z);
}

// Algorithm 3, backward sweep line 8.
template <int N>
void backward_cell(const Stencil7View& a, const double* d, index_t q, double* x, double* z) {
  const index_t n = dense::dim<N>(a.n);
  for (index_t u = 0; u < n; ++u) z[u] = backward_gather_element<N>(a, x, q, u);
  double* xq = x + std::size_t(a.natural[q]) * n;
  for (index_t u = 0; u < n; ++u) xq[u] -= block_row_dot<N>(d, n, q, u, z);
}

template <class F>
decltype(auto) with_n(const Stencil7View& a, F&& f) {
  return with_block_size(a.n, std::forward<F>(f));
}

constexpr index_t max_n = 32;

}  // namespace tb::fgbilu::cells
