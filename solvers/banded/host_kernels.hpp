#pragma once
// The host loops that the sequential twins (kernels_ref.cpp) and the OpenMP
// kernels (kernels_omp.cpp) share: one loop body each (row_kernels.hpp or the
// lambdas below), run by a plain loop (Omp = false) or by a static OpenMP
// schedule (Omp = true). Every result is reproducible, whatever the thread count.
#include <algorithm>
#include <cmath>

#include "kernels.hpp"
#include "solvers/core/ordered_sum.hpp"

namespace tb::banded::kernels::host {

// rows_per_item: the rows one body call covers (an x-line: nx), so that the
// threading threshold counts rows, not loop items.
template <bool Omp, class Body>
void for_rows(index_t begin, index_t end, Body body, index_t rows_per_item = 1) {
  if constexpr (Omp) {
#pragma omp parallel for schedule(static) if (long(end - begin) * rows_per_item >= openmp_min_length)
    for (index_t i = begin; i < end; ++i) body(i);
  } else {
    for (index_t i = begin; i < end; ++i) body(i);
  }
}

// body(i, s0, s1, s2, m) adds row i's contributions to three sums and a maximum.
// The OpenMP sums add in the fixed order of ordered_reduce: the same bits for
// any team size.
template <bool Omp, class Body>
Partials reduce_rows(index_t n, Body body) {
  Partials p;
  if constexpr (Omp) {
    const auto r = ordered_reduce<4>(
        n, threading::stream_grain, [&](std::ptrdiff_t i, double* a) { body(index_t(i), a[0], a[1], a[2], a[3]); },
        [](double* total, const double* part) {
          for (int j = 0; j < 3; ++j) total[j] += part[j];
          total[3] = std::max(total[3], part[3]);
        });
    p.sum[0] = r[0], p.sum[1] = r[1], p.sum[2] = r[2], p.max_abs = r[3];
  } else {
    double s0 = 0.0, s1 = 0.0, s2 = 0.0, m = 0.0;
    for (index_t i = 0; i < n; ++i) body(i, s0, s1, s2, m);
    p.sum[0] = s0, p.sum[1] = s1, p.sum[2] = s2, p.max_abs = m;
  }
  return p;
}

template <bool Omp>
BicgMergedDots merged_dots(index_t n, const BicgVectors& w) {
  constexpr int k = BicgMergedDots::count;
  BicgMergedDots d;
  if constexpr (Omp) {
    const auto s = ordered_sums<k>(n, threading::stream_grain,
                                   [&](std::ptrdiff_t i, double* acc) { bicg_merged_row(index_t(i), w, acc); });
    for (int j = 0; j < k; ++j) d.sum[j] = s[std::size_t(j)];
  } else {
    double s[k] = {};
    for (index_t i = 0; i < n; ++i) bicg_merged_row(i, w, s);
    for (int j = 0; j < k; ++j) d.sum[j] = s[j];
  }
  return d;
}

template <bool Omp>
struct Host {
  static void dia_spmv(const DiaView& a, index_t begin, index_t end, const double* x_ext, double* y) {
    if (Omp && a.ndiag == 7)
      for_rows<Omp>(begin, end, [&](index_t i) { y[i] = dia_row<7>(a, i, x_ext); });
    else
      for_rows<Omp>(begin, end, [&](index_t i) { y[i] = dia_row(a, i, x_ext); });
  }
  // The reference takes one row at a time; the OpenMP kernel one x-line at a
  // time (stencil_line: the same arithmetic, a fifth of the integer divisions).
  static void stencil_spmv(const StencilSlab& a, index_t begin, index_t end, const double* x_ext, double* y) {
    if constexpr (!Omp) {
      for (index_t i = begin; i < end; ++i) y[i] = stencil_row(a, i, x_ext);
    } else {
      const index_t nx = a.c.nx, g0 = a.first_row + begin, g1 = a.first_row + end;
      for_rows<Omp>(
          g0 / nx, (g1 - 1) / nx + 1,
          [&](index_t line) {
            stencil_line(a, std::max(line * nx, g0) - a.first_row, std::min((line + 1) * nx, g1) - a.first_row, x_ext,
                         y);
          },
          nx);
    }
  }
  static void jacobi_apply(index_t n, const double* dinv, const double* r, double* z) {
    for_rows<Omp>(0, n, [&](index_t i) { z[i] = dinv[i] * r[i]; });
  }
  static void stencil_inverse_diagonal(const StencilSlab& a, index_t n, double* dinv) {
    for_rows<Omp>(0, n, [&](index_t i) { dinv[i] = 1.0 / stencil_diagonal(a.c, a.first_row + i); });
  }
  static void bicg_direction(index_t n, double beta, double omega, const BicgVectors& w) {
    for_rows<Omp>(0, n, [&](index_t i) {
      const double p = w.r[i] + beta * (w.p[i] - omega * w.v[i]);
      w.p[i] = p;
      w.y[i] = w.dinv[i] * p;
    });
  }
  static void bicg_half_step(index_t n, double alpha, const BicgVectors& w) {
    for_rows<Omp>(0, n, [&](index_t i) {
      const double s = w.r[i] - alpha * w.v[i];
      w.s[i] = s;
      w.z[i] = w.dinv[i] * s;
    });
  }
  static Partials bicg_stabiliser_dots(index_t n, const BicgVectors& w) {
    return reduce_rows<Omp>(n, [&](index_t i, double& s0, double& s1, double&, double&) {
      const double kt = w.dinv[i] * w.t[i];
      s0 += kt * w.z[i];
      s1 += kt * kt;
    });
  }
  static BicgMergedDots bicg_merged_dots(index_t n, const BicgVectors& w) { return merged_dots<Omp>(n, w); }
  static Partials bicg_solution_update(index_t n, double alpha, double omega, const BicgVectors& w) {
    return reduce_rows<Omp>(n, [&](index_t i, double& s0, double& s1, double&, double& m) {
      w.x[i] += alpha * w.y[i] + omega * w.z[i];
      const double r = w.s[i] - omega * w.t[i];
      w.r[i] = r;
      s0 += w.r0hat[i] * r;
      s1 += r * r;
      m = std::max(m, std::abs(r));
    });
  }
  static Partials cg_solution_update(index_t n, double alpha, const double* dinv, const double* p, const double* q,
                                     double* x, double* r, double* z) {
    return reduce_rows<Omp>(n, [&](index_t i, double& s0, double& s1, double&, double& m) {
      x[i] += alpha * p[i];
      const double ri = r[i] - alpha * q[i];
      r[i] = ri;
      z[i] = dinv[i] * ri;
      s0 += ri * z[i];
      s1 += ri * ri;
      m = std::max(m, std::abs(ri));
    });
  }
  static void cg_direction(index_t n, double beta, const double* z, double* p) {
    for_rows<Omp>(0, n, [&](index_t i) { p[i] = z[i] + beta * p[i]; });
  }
  static Partials cg_recurrence_update(index_t n, double alpha, double beta, const CgRecurrenceVectors& v) {
    return reduce_rows<Omp>(n, [&](index_t i, double& s0, double& s1, double&, double& m) {
      cg_recurrence_row(i, alpha, beta, v, s0, s1, m);
    });
  }
  static Partials dots_and_max(index_t n, int k, const double* const* x, const double* const* y, const double* m) {
    const double* x0 = k > 0 ? x[0] : nullptr;
    const double* x1 = k > 1 ? x[1] : nullptr;
    const double* x2 = k > 2 ? x[2] : nullptr;
    const double* y0 = k > 0 ? y[0] : nullptr;
    const double* y1 = k > 1 ? y[1] : nullptr;
    const double* y2 = k > 2 ? y[2] : nullptr;
    return reduce_rows<Omp>(n, [&](index_t i, double& s0, double& s1, double& s2, double& mx) {
      if (x0) s0 += x0[i] * y0[i];
      if (x1) s1 += x1[i] * y1[i];
      if (x2) s2 += x2[i] * y2[i];
      if (m) mx = std::max(mx, std::abs(m[i]));
    });
  }
};

}  // namespace tb::banded::kernels::host

// The definitions of kernels.hpp's host kernels in namespace ns over Host<omp>.
#define TB_BANDED_HOST_TWINS(ns, omp)                                                                                  \
  namespace ns {                                                                                                       \
  void dia_spmv(const DiaView& a, index_t b, index_t e, const double* x, double* y) {                                  \
    host::Host<omp>::dia_spmv(a, b, e, x, y);                                                                          \
  }                                                                                                                    \
  void stencil_spmv(const StencilSlab& a, index_t b, index_t e, const double* x, double* y) {                          \
    host::Host<omp>::stencil_spmv(a, b, e, x, y);                                                                      \
  }                                                                                                                    \
  void jacobi_apply(index_t n, const double* d, const double* r, double* z) {                                          \
    host::Host<omp>::jacobi_apply(n, d, r, z);                                                                         \
  }                                                                                                                    \
  void stencil_inverse_diagonal(const StencilSlab& a, index_t n, double* d) {                                          \
    host::Host<omp>::stencil_inverse_diagonal(a, n, d);                                                                \
  }                                                                                                                    \
  void bicg_direction(index_t n, double beta, double omega, const BicgVectors& w) {                                    \
    host::Host<omp>::bicg_direction(n, beta, omega, w);                                                                \
  }                                                                                                                    \
  void bicg_half_step(index_t n, double alpha, const BicgVectors& w) { host::Host<omp>::bicg_half_step(n, alpha, w); } \
  Partials bicg_stabiliser_dots(index_t n, const BicgVectors& w) {                                                     \
    return host::Host<omp>::bicg_stabiliser_dots(n, w);                                                                \
  }                                                                                                                    \
  BicgMergedDots bicg_merged_dots(index_t n, const BicgVectors& w) { return host::Host<omp>::bicg_merged_dots(n, w); } \
  Partials bicg_solution_update(index_t n, double alpha, double omega, const BicgVectors& w) {                         \
    return host::Host<omp>::bicg_solution_update(n, alpha, omega, w);                                                  \
  }                                                                                                                    \
  Partials cg_solution_update(index_t n, double alpha, const double* d, const double* p, const double* q, double* x,   \
                              double* r, double* z) {                                                                  \
    return host::Host<omp>::cg_solution_update(n, alpha, d, p, q, x, r, z);                                            \
  }                                                                                                                    \
  void cg_direction(index_t n, double beta, const double* z, double* p) {                                              \
    host::Host<omp>::cg_direction(n, beta, z, p);                                                                      \
  }                                                                                                                    \
  Partials cg_recurrence_update(index_t n, double alpha, double beta, const CgRecurrenceVectors& v) {                  \
    return host::Host<omp>::cg_recurrence_update(n, alpha, beta, v);                                                   \
  }                                                                                                                    \
  Partials dots_and_max(index_t n, int k, const double* const* x, const double* const* y, const double* m) {           \
    return host::Host<omp>::dots_and_max(n, k, x, y, m);                                                               \
  }                                                                                                                    \
  }
