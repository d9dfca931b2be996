// Sequential and OpenMP kernels: the coarse-grained cell bodies of Algorithms 2
// and 3 (one cell per iteration), built from the same element bodies as the
// fine-grained kernels so that every host variant is bitwise identical.
#include <algorithm>
#include <cmath>
#include <utility>

#include "kernels.hpp"
#include "solvers/core/block_size_dispatch.hpp"
#include "solvers/core/cuda_call.hpp"
#include "solvers/core/types.hpp"
#include "solvers/precond/dense_block.hpp"

namespace tb::fgbilu {

namespace {

// Each OpenMP kernel opens one region for the whole grid (all hyperplanes of a
// sweep), when the grid's diagonal blocks hold at least tb::openmp_min_length
// entries: the project-wide bound (types.hpp).
bool parallel_grid(const Stencil7View& a) { return long(a.cells) * a.n * a.n >= openmp_min_length; }

bool all_finite(const double* blk, index_t n) {
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

}  // namespace

namespace kernels::ref {

index_t factor_natural(const Stencil7View& a, double* d) {
  return with_n(a, [&]<int N>() -> index_t {
    double s[3 * max_n * max_n];
    for (index_t r = 0; r < a.cells; ++r)
      if (!factor_cell<N>(a, d, a.position[r], s)) return a.position[r];
    return -1;
  });
}

void forward_natural(const Stencil7View& a, const double* d, const double* b, double* x) {
  with_n(a, [&]<int N>() {
    double z[max_n];
    for (index_t r = 0; r < a.cells; ++r) forward_cell<N>(a, d, a.position[r], b, x, z);
  });
}

void backward_natural(const Stencil7View& a, const double* d, double* x) {
  with_n(a, [&]<int N>() {
    double z[max_n];
    for (index_t r = a.cells - 1; r >= 0; --r) backward_cell<N>(a, d, a.position[r], x, z);
  });
}

index_t factor_plane(const Stencil7View& a, double* d, index_t begin, index_t end) {
  return with_n(a, [&]<int N>() -> index_t {
    double s[3 * max_n * max_n];
    for (index_t q = begin; q < end; ++q)
      if (!factor_cell<N>(a, d, q, s)) return q;
    return -1;
  });
}

void forward_plane(const Stencil7View& a, const double* d, index_t begin, index_t end, const double* b, double* x) {
  with_n(a, [&]<int N>() {
    double z[max_n];
    for (index_t q = begin; q < end; ++q) forward_cell<N>(a, d, q, b, x, z);
  });
}

void backward_plane(const Stencil7View& a, const double* d, index_t begin, index_t end, double* x) {
  with_n(a, [&]<int N>() {
    double z[max_n];
    for (index_t q = begin; q < end; ++q) backward_cell<N>(a, d, q, x, z);
  });
}

void residual(const Stencil7View& a, const double* b, const double* x, double* r) {
  with_n(a, [&]<int N>() {
    const index_t n = dense::dim<N>(a.n);
    for (index_t q = 0; q < a.cells; ++q)
      for (index_t u = 0; u < n; ++u) r[std::size_t(a.natural[q]) * n + u] = residual_element<N>(a, b, x, q, u);
  });
}

}  // namespace kernels::ref

namespace kernels::omp {

// One parallel region for all hyperplanes, the worksharing loop's barrier
// between them (Algorithms 2 and 3): a region per hyperplane would pay a fork
// and a join per plane, 2 x 133 of them per solve at 45^3.
index_t factor_planes(const Stencil7View& a, double* d, const index_t* plane_ptr, index_t planes) {
  return with_n(a, [&]<int N>() -> index_t {
    // Cells after a singular one are computed from non-finite values, harmlessly;
    // the first bad cell in wavefront order is the one reported, as sequentially.
    index_t bad = a.cells;
#pragma omp parallel if (parallel_grid(a)) reduction(min : bad)
    {
      double s[3 * max_n * max_n];
      for (index_t p = 0; p < planes; ++p) {
#pragma omp for schedule(static)
        for (index_t q = plane_ptr[p]; q < plane_ptr[p + 1]; ++q)
          if (!factor_cell<N>(a, d, q, s)) bad = std::min(bad, q);
      }
    }
    return bad == a.cells ? -1 : bad;
  });
}

void forward_sweep(const Stencil7View& a, const double* d, const index_t* plane_ptr, index_t planes, const double* b,
                   double* x) {
  with_n(a, [&]<int N>() {
#pragma omp parallel if (parallel_grid(a))
    {
      double z[max_n];
      for (index_t p = 0; p < planes; ++p) {
#pragma omp for schedule(static)
        for (index_t q = plane_ptr[p]; q < plane_ptr[p + 1]; ++q) forward_cell<N>(a, d, q, b, x, z);
      }
    }
  });
}

void backward_sweep(const Stencil7View& a, const double* d, const index_t* plane_ptr, index_t planes, double* x) {
  with_n(a, [&]<int N>() {
#pragma omp parallel if (parallel_grid(a))
    {
      double z[max_n];
      for (index_t p = planes - 1; p >= 0; --p) {
#pragma omp for schedule(static)
        for (index_t q = plane_ptr[p]; q < plane_ptr[p + 1]; ++q) backward_cell<N>(a, d, q, x, z);
      }
    }
  });
}

void residual(const Stencil7View& a, const double* b, const double* x, double* r) {
  with_n(a, [&]<int N>() {
    const index_t n = dense::dim<N>(a.n);
#pragma omp parallel for schedule(static) if (parallel_grid(a))
    for (index_t q = 0; q < a.cells; ++q)
      for (index_t u = 0; u < n; ++u) r[std::size_t(a.natural[q]) * n + u] = residual_element<N>(a, b, x, q, u);
  });
}

}  // namespace kernels::omp

// Dispatch on the backend (TB_CUDA_CALL throws "built without CUDA" in
// host-only builds).
namespace kernels {

void residual(Backend b, const Stencil7View& a, const double* rhs, const double* x, double* r) {
  if (b == Backend::cuda) return TB_CUDA_CALL(cuda::residual(a, rhs, x, r));
  omp::residual(a, rhs, x, r);
}

index_t acc_factor_plane(Backend b, const Stencil7View& a, double* d, index_t begin, index_t end, PlaneScratch s) {
  if (b == Backend::cuda) return TB_CUDA_CALL(cuda::acc_factor_plane(a, d, begin, end, s));
  return ref::acc_factor_plane(a, d, begin, end, s);
}

void acc_forward_plane(Backend b, const Stencil7View& a, const double* d, index_t begin, index_t end, const double* rhs,
                       double* x, double* z) {
  if (b == Backend::cuda) return TB_CUDA_CALL(cuda::acc_forward_plane(a, d, begin, end, rhs, x, z));
  ref::acc_forward_plane(a, d, begin, end, rhs, x, z);
}

void acc_backward_plane(Backend b, const Stencil7View& a, const double* d, index_t begin, index_t end, double* x,
                        double* z) {
  if (b == Backend::cuda) return TB_CUDA_CALL(cuda::acc_backward_plane(a, d, begin, end, x, z));
  ref::acc_backward_plane(a, d, begin, end, x, z);
}

}  // namespace kernels

}  // namespace tb::fgbilu
