// The sequential twins of the FGBILU kernels (kernels.hpp): the paper's
// sequential baseline in natural order, the coarse-grained cell kernels of
// Algorithms 2 and 3 one hyperplane at a time, and the ACC-style kernels of
// Algorithms 4 and 6 as host loops, each loop nest one "kernel" of the paper (a
// barrier between consecutive nests) whose body is the element function the
// CUDA kernel runs.
#include "cell_kernels.hpp"
#include "kernels.hpp"

namespace tb::fgbilu::kernels::ref {

using namespace cells;

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

index_t acc_factor_plane(const Stencil7View& a, double* d, index_t begin, index_t end, PlaneScratch s) {
  const index_t n = a.n;
  for (index_t q = begin; q < end; ++q)  // kernel #1
    for (index_t u = 0; u < n; ++u)
      for (index_t v = 0; v < n; ++v) factor_product_element(a, d, s, q - begin, q, u, v);
  for (index_t q = begin; q < end; ++q)  // kernel #2
    for (index_t u = 0; u < n; ++u)
      for (index_t v = 0; v < n; ++v) factor_update_element(a, d, s, q - begin, q, u, v);
  for (index_t r = 0; r < n; ++r) {
    for (index_t q = begin; q < end; ++q)  // kernel #3
      for (index_t w = 0; w < 2 * (n - 1); ++w) gj_scale_element(d + std::size_t(q) * n * n, n, r, w);
    for (index_t q = begin; q < end; ++q)  // kernel #4
      for (index_t uh = 0; uh < n - 1; ++uh)
        for (index_t vh = 0; vh < n - 1; ++vh) gj_update_element(d + std::size_t(q) * n * n, n, r, uh, vh);
    for (index_t q = begin; q < end; ++q) gj_pivot_element(d + std::size_t(q) * n * n, n, r);  // kernel #5
  }
  for (index_t q = begin; q < end; ++q)
    for (index_t e = 0; e < n * n; ++e)
      if (!std::isfinite(d[std::size_t(q) * n * n + e])) return q;
  return -1;
}

void acc_forward_plane(const Stencil7View& a, const double* d, index_t begin, index_t end, const double* b, double* x,
                       double* z) {
  const index_t n = a.n;
  for (index_t q = begin; q < end; ++q)
    for (index_t u = 0; u < n; ++u) z[(q - begin) * n + u] = forward_gather_element(a, b, x, q, u);
  for (index_t q = begin; q < end; ++q)
    for (index_t u = 0; u < n; ++u)
      x[std::size_t(a.natural[q]) * n + u] = block_row_dot(d, n, q, u, z + (q - begin) * n);
}

void acc_backward_plane(const Stencil7View& a, const double* d, index_t begin, index_t end, double* x, double* z) {
  const index_t n = a.n;
  for (index_t q = begin; q < end; ++q)
    for (index_t u = 0; u < n; ++u) z[(q - begin) * n + u] = backward_gather_element(a, x, q, u);
  for (index_t q = begin; q < end; ++q)
    for (index_t u = 0; u < n; ++u)
      x[std::size_t(a.natural[q]) * n + u] -= block_row_dot(d, n, q, u, z + (q - begin) * n);
}

void gather_blocks(const index_t* map, index_t blocks, index_t nb, const double* values, double* coef) {
  const long long n = (long long)blocks * nb;
  for (long long t = 0; t < n; ++t) coef[t] = gathered_entry(map, nb, values, t);
}

}  // namespace tb::fgbilu::kernels::ref
