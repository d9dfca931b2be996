#pragma once
// The host loops of the multigrid kernels (kernels.hpp), shared by the
// sequential twins (kernels_ref.cpp, Host<false>) and the OpenMP kernels
// (kernels_omp.cpp, Host<true>): one loop body each (row_kernels.hpp, or the
// set-up bodies below), run by a plain loop or by a static OpenMP schedule.
// Every cell is computed by one thread in a fixed order, so ref and omp give
// the same bits for any team size.
#include <algorithm>
#include <cmath>

#include "kernels.hpp"
#include "solvers/core/threading.hpp"
#include "solvers/core/types.hpp"

namespace tb::mg::host_loops {

// A team only where each thread gets at least openmp_min_length of work
// (threading::threads_for, docs/threading.md): the coarsest level's dense
// solve (up to 512 x 512) would otherwise wake a second thread every cycle
// for less work than the wake-up costs.
template <bool Omp, class Body>
void for_cells(index_t n, Body body, long work_per_item = 1) {
  if constexpr (Omp) {
    const int threads = threading::threads_for(long(n) * work_per_item, openmp_min_length);
#pragma omp parallel for schedule(static) num_threads(threads) if (threads > 1)
    for (index_t i = 0; i < n; ++i) body(i);
  } else {
    for (index_t i = 0; i < n; ++i) body(i);
  }
}

// f.template operator()<P>() for the level's point count.
template <class F>
void with_points(int points, F&& f) {
  switch (points) {
    case 3:
      return f.template operator()<3>();
    case 5:
      return f.template operator()<5>();
    case 7:
      return f.template operator()<7>();
    case 9:
      return f.template operator()<9>();
    default:
      return f.template operator()<27>();
  }
}

// The index of (di, dj, dk) in a full 3 x 3 x 3 box, k slowest.
constexpr int box_key(index_t di, index_t dj, index_t dk) { return int((dk + 1) * 9 + (dj + 1) * 3 + (di + 1)); }
constexpr int box_centre = 13;

// Adds v * P(g, J) to acc (a full box around I) for every coarse parent J of
// fine cell gc; a J outside the box around I goes to the centre. For the
// remainder's entries, which may reach anywhere.
inline void scatter_to_parents(const TransferView& t, const index_t I[3], const index_t gc[3], double v, double* acc) {
  const Parents p[3] = {parents_of(t, 0, gc[0]), parents_of(t, 1, gc[1]), parents_of(t, 2, gc[2])};
  for (int c = 0; c < p[2].count; ++c) {
    const double wk = c == 0 ? p[2].w_lo : p[2].w_hi;
    const index_t ek = p[2].first + c - I[2];
    for (int b = 0; b < p[1].count; ++b) {
      const double wkj = wk * (b == 0 ? p[1].w_lo : p[1].w_hi);
      const index_t ej = p[1].first + b - I[1];
      for (int a = 0; a < p[0].count; ++a) {
        const double wi = a == 0 ? p[0].w_lo : p[0].w_hi;
        const index_t ei = p[0].first + a - I[0];
        const bool near = ei >= -1 && ei <= 1 && ej >= -1 && ej <= 1 && ek >= -1 && ek <= 1;
        acc[near ? box_key(ei, ej, ek) : box_centre] += v * (wkj * wi);
      }
    }
  }
}

// P along one direction around coarse index I: its fine children with their
// weights P_d(f, I), and for child c and a stencil point's offset delta the
// parents J of f + delta, as J - I (in -1..1: the box holds every product of
// two stencil points) with their weights.
struct AxisTable {
  index_t first_child = 0;
  int children = 0;
  double child_weight[3] = {};
  int count[3][3] = {};  // [child][delta + 1]; 0 off the grid
  int offset[3][3][2] = {};
  double weight[3][3][2] = {};
};

inline AxisTable axis_table(const TransferView& t, int d, index_t I) {
  AxisTable a;
  index_t lo, hi;
  children_range(t, d, I, &lo, &hi);
  a.first_child = lo;
  a.children = int(hi - lo + 1);
  const index_t n = extent_of(t.fine, d);
  for (int c = 0; c < a.children; ++c) {
    const index_t f = lo + c;
    a.child_weight[c] = transfer_weight(t, d, f, I);
    for (int delta = -1; delta <= 1; ++delta) {
      const index_t g = f + delta;
      if (g < 0 || g >= n) continue;
      const Parents p = parents_of(t, d, g);
      a.count[c][delta + 1] = p.count;
      for (int q = 0; q < p.count; ++q) {
        a.offset[c][delta + 1][q] = int(p.first + q - I);
        a.weight[c][delta + 1][q] = q == 0 ? p.w_lo : p.w_hi;
      }
    }
  }
  return a;
}

// Row ic of P^T A P, written into the coarse coefficients: for each fine
// child f of I and each point of f's stencil, the products with the parents
// of the point's cell.
inline void galerkin_row(const GalerkinArgs& g, const int* coarse_key, index_t ic) {
  const TransferView& t = g.transfer;
  const StencilView& a = g.fine;
  const std::size_t nf = std::size_t(t.fine.cells()), nc = std::size_t(t.coarse.cells());
  const index_t I[3] = {t.coarse.i_of(ic), t.coarse.j_of(ic), t.coarse.k_of(ic)};
  const AxisTable ax[3] = {axis_table(t, 0, I[0]), axis_table(t, 1, I[1]), axis_table(t, 2, I[2])};
  double acc[27] = {};
  for (int ck = 0; ck < ax[2].children; ++ck)
    for (int cj = 0; cj < ax[1].children; ++cj)
      for (int ci = 0; ci < ax[0].children; ++ci) {
        const index_t f = t.fine.natural(ax[0].first_child + ci, ax[1].first_child + cj, ax[2].first_child + ck);
        double wf = ax[2].child_weight[ck] * ax[1].child_weight[cj] * ax[0].child_weight[ci];
        if (wf == 0.0) continue;
        if (g.row_scale) wf *= g.row_scale[f];
        for (int p = 0; p < g.fine_points.count; ++p) {
          const double v = a.coef[std::size_t(p) * nf + std::size_t(f)];
          if (v == 0.0) continue;
          const int di = g.fine_points.delta[p][0] + 1, dj = g.fine_points.delta[p][1] + 1,
                    dk = g.fine_points.delta[p][2] + 1;
          const double u = wf * v;
          for (int qk = 0; qk < ax[2].count[ck][dk]; ++qk) {
            const double wk = ax[2].weight[ck][dk][qk];
            const int ek = ax[2].offset[ck][dk][qk];
            for (int qj = 0; qj < ax[1].count[cj][dj]; ++qj) {
              const double wkj = wk * ax[1].weight[cj][dj][qj];
              const int row = (ek + 1) * 9 + (ax[1].offset[cj][dj][qj] + 1) * 3 + 1;
              for (int qi = 0; qi < ax[0].count[ci][di]; ++qi)
                acc[row + ax[0].offset[ci][di][qi]] += u * (wkj * ax[0].weight[ci][di][qi]);
            }
          }
        }
        if (a.rest_ptr)
          for (index_t k = a.rest_ptr[f]; k < a.rest_ptr[f + 1]; ++k) {
            const index_t col = a.rest_col[k];
            const index_t gc[3] = {t.fine.i_of(col), t.fine.j_of(col), t.fine.k_of(col)};
            scatter_to_parents(t, I, gc, wf * a.rest_val[k], acc);
          }
      }
  for (int q = 0; q < g.coarse_points.count; ++q)
    g.coarse_coef[std::size_t(q) * nc + std::size_t(ic)] = acc[coarse_key[q]];
}

template <bool Omp>
struct Host {
  static void residual(const StencilView& a, const double* b, const double* x, double* r) {
    with_points(a.points, [&]<int P>() {
      for_cells<Omp>(a.grid.cells(), [&](index_t c) { r[c] = b[c] - stencil_product<P>(a, c, x); });
    });
  }
  static void polynomial_step(const StencilView& a, double alpha, double beta, const double* b, const double* x_in,
                              double* d, double* x_out) {
    with_points(a.points, [&]<int P>() {
      for_cells<Omp>(a.grid.cells(), [&](index_t c) { polynomial_cell<P>(a, c, alpha, beta, b, x_in, d, x_out); });
    });
  }
  static void colour_sweep(const StencilView& a, int colour, const double* b, double* x) {
    const ColourLines cl = colour_lines(a, colour);
    with_points(a.points, [&]<int P>() {
      for_cells<Omp>(
          cl.lines,
          [&](index_t l) {
            for (index_t m = 0; m < cl.half_i; ++m) {
              const index_t c = colour_cell(a, colour, l, m);
              if (c < 0) break;
              gauss_seidel_cell<P>(a, c, b, x);
            }
          },
          cl.half_i);
    });
  }
  static void rows_relax(const StencilView& a, const index_t* rows, index_t count, const double* b, const double* x,
                         double* t) {
    with_points(a.points, [&]<int P>() {
      for_cells<Omp>(count, [&](index_t k) {
        const index_t r = rows[k];
        t[k] = x[r] + a.dinv[r] * (b[r] - stencil_product<P>(a, r, x));
      });
    });
  }
  static void rows_scatter(const index_t* rows, index_t count, const double* t, double* x) {
    for_cells<Omp>(count, [&](index_t k) { x[rows[k]] = t[k]; });
  }
  static void rows_scale(const index_t* rows, index_t count, const double* s, double* x) {
    for_cells<Omp>(count, [&](index_t k) { x[rows[k]] *= s[k]; });
  }
  // A coarse (fine) line of cells per loop item: its (j, k) part of P once.
  static void restrict_residual(const TransferView& t, const double* r, double* bc) {
    const StructuredIndex& g = t.coarse;
    for_cells<Omp>(
        g.nj * g.nk,
        [&](index_t l) {
          const index_t j = l % g.nj, k = l / g.nj;
          const RestrictLine line = restrict_line(t, j, k);
          double* out = bc + g.natural(0, j, k);
          for (index_t i = 0; i < g.ni; ++i) out[i] = restrict_cell(t, line, i, r);
        },
        8 * long(g.ni));
  }
  static void prolong_add(const TransferView& t, const double* xc, double* x) {
    const StructuredIndex& g = t.fine;
    for_cells<Omp>(
        g.nj * g.nk,
        [&](index_t l) {
          const index_t j = l % g.nj, k = l / g.nj;
          const ProlongLine line = prolong_line(t, j, k);
          double* out = x + g.natural(0, j, k);
          for (index_t i = 0; i < g.ni; ++i) {
            const Parents pi = parents_of(t, 0, i);
            const double hi = pi.count == 2 ? prolong_column(line, pi.first + 1, xc) : 0.0;
            out[i] += prolong_value(pi, prolong_column(line, pi.first, xc), hi);
          }
        },
        g.ni);
  }
  static void dense_apply(index_t n, const double* g, index_t row_stride, index_t col_stride, const double* b,
                          double* x) {
    for_cells<Omp>(
        n, [&](index_t i) { x[i] = dense_row(n, g, row_stride, col_stride, i, b); }, n);
  }
  static void fill_zero(index_t n, double* x) {
    for_cells<Omp>(n, [&](index_t i) { x[i] = 0.0; });
  }
  static void copy(index_t n, const double* src, double* dst) {
    for_cells<Omp>(n, [&](index_t i) { dst[i] = src[i]; });
  }
  static void add(index_t n, const double* z, double* x) {
    for_cells<Omp>(n, [&](index_t i) { x[i] += z[i]; });
  }

  // For each coarsened direction d and odd index i, the stencil collapsed onto
  // d and summed over the plane of index i: its couplings to the planes below
  // and above give the lower parent's weight. On a tensor-product grid this is
  // linear interpolation between the cell centres. One pass over the cells in
  // their order (a plane's sum adds in that order whatever the team: this
  // set-up step runs on one thread in omp too); the sums wait in the weight
  // arrays, the lower one at i and the upper one at i - 1, whose weight is 1.
  static void transfer_weights(const StencilView& a, const StencilPoints& points, const bool coarsened[3], double* w_i,
                               double* w_j, double* w_k) {
    double* w[3] = {w_i, w_j, w_k};
    const StructuredIndex& g = a.grid;
    const std::size_t n = std::size_t(g.cells());
    for (int d = 0; d < 3; ++d)
      if (coarsened[d]) std::fill(w[d], w[d] + extent_of(g, d), 0.0);
    index_t c = 0;
    for (index_t k = 0; k < g.nk; ++k)
      for (index_t j = 0; j < g.nj; ++j)
        for (index_t i = 0; i < g.ni; ++i, ++c) {
          const index_t ijk[3] = {i, j, k};
          for (int d = 0; d < 3; ++d) {
            const index_t x = ijk[d];
            if (!coarsened[d] || x % 2 == 0 || x + 1 >= extent_of(g, d)) continue;
            for (int p = 0; p < points.count; ++p) {
              const double v = a.coef[std::size_t(p) * n + std::size_t(c)];
              if (points.delta[p][d] < 0) w[d][x] -= v;
              if (points.delta[p][d] > 0) w[d][x - 1] -= v;
            }
          }
        }
    for (int d = 0; d < 3; ++d) {
      if (!coarsened[d]) continue;
      const index_t m = extent_of(g, d);
      for (index_t x = 1; x < m; x += 2) {
        if (x + 1 >= m) {
          w[d][x] = 1.0;
          continue;
        }
        const double s_lo = w[d][x] > 0.0 ? w[d][x] : 0.0, s_hi = w[d][x - 1] > 0.0 ? w[d][x - 1] : 0.0;
        w[d][x] = s_lo + s_hi > 0.0 ? s_lo / (s_lo + s_hi) : 0.5;
      }
      for (index_t x = 0; x < m; x += 2) w[d][x] = 1.0;
    }
  }
  static void galerkin(const GalerkinArgs& g) {
    int key[max_points];
    for (int q = 0; q < g.coarse_points.count; ++q)
      key[q] = box_key(g.coarse_points.delta[q][0], g.coarse_points.delta[q][1], g.coarse_points.delta[q][2]);
    for_cells<Omp>(
        g.transfer.coarse.cells(), [&](index_t ic) { galerkin_row(g, key, ic); }, 1000);
  }
  static index_t inverse_diagonal(const StencilView& a, double* dinv) {
    const std::size_t n = std::size_t(a.grid.cells());
    const double* centre = a.coef + std::size_t(a.points / 2) * n;
    for_cells<Omp>(a.grid.cells(), [&](index_t c) { dinv[c] = 1.0 / centre[c]; });
    for (index_t c = 0; c < a.grid.cells(); ++c)
      if (!std::isfinite(dinv[c])) return c;
    return -1;
  }
};

}  // namespace tb::mg::host_loops

// The definitions of TB_MG_KERNELS and TB_MG_SETUP_KERNELS over Host<OMP>,
// expanded inside kernels::ref and kernels::omp.
#define TB_MG_HOST_DEFINITIONS(OMP)                                                                                  \
  void residual(const StencilView& a, const double* b, const double* x, double* r) {                                 \
    ::tb::mg::host_loops::Host<OMP>::residual(a, b, x, r);                                                           \
  }                                                                                                                  \
  void polynomial_step(const StencilView& a, double alpha, double beta, const double* b, const double* x_in,         \
                       double* d, double* x_out) {                                                                   \
    ::tb::mg::host_loops::Host<OMP>::polynomial_step(a, alpha, beta, b, x_in, d, x_out);                             \
  }                                                                                                                  \
  void colour_sweep(const StencilView& a, int colour, const double* b, double* x) {                                  \
    ::tb::mg::host_loops::Host<OMP>::colour_sweep(a, colour, b, x);                                                  \
  }                                                                                                                  \
  void rows_relax(const StencilView& a, const index_t* rows, index_t count, const double* b, const double* x,        \
                  double* t) {                                                                                       \
    ::tb::mg::host_loops::Host<OMP>::rows_relax(a, rows, count, b, x, t);                                            \
  }                                                                                                                  \
  void rows_scatter(const index_t* rows, index_t count, const double* t, double* x) {                                \
    ::tb::mg::host_loops::Host<OMP>::rows_scatter(rows, count, t, x);                                                \
  }                                                                                                                  \
  void rows_scale(const index_t* rows, index_t count, const double* s, double* x) {                                  \
    ::tb::mg::host_loops::Host<OMP>::rows_scale(rows, count, s, x);                                                  \
  }                                                                                                                  \
  void restrict_residual(const TransferView& t, const double* r, double* bc) {                                       \
    ::tb::mg::host_loops::Host<OMP>::restrict_residual(t, r, bc);                                                    \
  }                                                                                                                  \
  void prolong_add(const TransferView& t, const double* xc, double* x) {                                             \
    ::tb::mg::host_loops::Host<OMP>::prolong_add(t, xc, x);                                                          \
  }                                                                                                                  \
  void dense_apply(index_t n, const double* g, index_t row_stride, index_t col_stride, const double* b, double* x) { \
    ::tb::mg::host_loops::Host<OMP>::dense_apply(n, g, row_stride, col_stride, b, x);                                \
  }                                                                                                                  \
  void fill_zero(index_t n, double* x) { ::tb::mg::host_loops::Host<OMP>::fill_zero(n, x); }                         \
  void copy(index_t n, const double* src, double* dst) { ::tb::mg::host_loops::Host<OMP>::copy(n, src, dst); }       \
  void add(index_t n, const double* z, double* x) { ::tb::mg::host_loops::Host<OMP>::add(n, z, x); }                 \
  void transfer_weights(const StencilView& a, const StencilPoints& points, const bool coarsened[3], double* w_i,     \
                        double* w_j, double* w_k) {                                                                  \
    ::tb::mg::host_loops::Host<OMP>::transfer_weights(a, points, coarsened, w_i, w_j, w_k);                          \
  }                                                                                                                  \
  void galerkin(const GalerkinArgs& g) { ::tb::mg::host_loops::Host<OMP>::galerkin(g); }                             \
  index_t inverse_diagonal(const StencilView& a, double* dinv) {                                                     \
    return ::tb::mg::host_loops::Host<OMP>::inverse_diagonal(a, dinv);                                               \
  }
