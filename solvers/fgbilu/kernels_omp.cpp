// The OpenMP kernels of FGBILU (kernels.hpp): the coarse-grained wavefront of
// Algorithms 2 and 3, one cell per iteration, over the cell bodies the
// sequential twins run (cell_kernels.hpp).
#include <algorithm>

#include "cell_kernels.hpp"
#include "kernels.hpp"

namespace tb::fgbilu::kernels::omp {

using namespace cells;

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

void gather_blocks(const index_t* map, index_t blocks, index_t nb, const double* values, double* coef) {
  const long long n = (long long)blocks * nb;
#pragma omp parallel for schedule(static) if (n >= openmp_min_length)
  for (long long t = 0; t < n; ++t) coef[t] = gathered_entry(map, nb, values, t);
}

}  // namespace tb::fgbilu::kernels::omp
