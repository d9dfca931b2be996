#pragma once
// The per-cell arithmetic of the multigrid cycle, shared by the sequential
// reference, the OpenMP loops and the CUDA threads (kernels.hpp), so that the
// host tests cover the arithmetic the GPU runs.
//
// A level's operator is a structured stencil: the 7-point star on the finest
// level (5 points in 2D, 3 in 1D), the 27-point box of the Galerkin coarse
// levels (9 in 2D, 3 in 1D). Points are listed k slowest, then j, then i, so
// point p and point P-1-p are opposite and the centre is P/2. Coefficients are
// coefficient-major, coef[p * cells + c], so that consecutive cells read
// consecutive memory for every point. The vectors x the stencil reads are
// padded: `padding(grid)` zeros on each side, and a point off the grid has a
// zero coefficient, so every row reads in range without a branch.
#include <cstddef>

#include "mesh/graph/structured_index.hpp"
#include "solvers/core/host_device.hpp"

namespace tb::mg {

inline constexpr int max_points = 27;

// Entries beyond the furthest point of a box stencil on either side of a level's vectors.
TB_HOST_DEVICE inline index_t padding(const StructuredIndex& g) { return g.ni * g.nj + g.ni + 1; }

struct StencilView {
  StructuredIndex grid;
  int points = 0;
  bool box = false;                 // 27-point box (colours by parity in i, j, k) or star (two colours)
  index_t offset[max_points] = {};  // the linear offset of each point
  const double* coef = nullptr;     // [points][cells]
  const double* dinv = nullptr;     // 1 / the centre coefficient
  // The entries outside the stencil (finest level only; null elsewhere): CSR
  // over all rows, absolute columns. Rows holding such entries are marked in
  // `irregular`; the colour sweeps leave them to a relaxation of their own.
  const index_t* rest_ptr = nullptr;
  const index_t* rest_col = nullptr;
  const double* rest_val = nullptr;
  const unsigned char* irregular = nullptr;
};

// (A x)[c], points in order, then the row's remainder.
template <int P>
TB_HOST_DEVICE inline double stencil_product(const StencilView& a, index_t c, const double* x) {
  const std::size_t n = std::size_t(a.grid.cells());
  double s = 0.0;
  for (int p = 0; p < P; ++p) s += a.coef[std::size_t(p) * n + std::size_t(c)] * x[c + a.offset[p]];
  if (a.rest_ptr)
    for (index_t k = a.rest_ptr[c]; k < a.rest_ptr[c + 1]; ++k) s += a.rest_val[k] * x[a.rest_col[k]];
  return s;
}

// One Chebyshev (or, with alpha = 0, damped Jacobi) step at cell c:
// d = alpha d + beta D^{-1} (b - A x_in), x_out = x_in + d; a null x_in is zero.
template <int P>
TB_HOST_DEVICE inline void polynomial_cell(const StencilView& a, index_t c, double alpha, double beta, const double* b,
                                           const double* x_in, double* d, double* x_out) {
  if (x_in) {
    const double dc = alpha * d[c] + beta * a.dinv[c] * (b[c] - stencil_product<P>(a, c, x_in));
    d[c] = dc;
    x_out[c] = x_in[c] + dc;
  } else {
    const double dc = beta * a.dinv[c] * b[c];
    d[c] = dc;
    x_out[c] = dc;
  }
}

// The cells of colour `colour`: a star's two colours are the parity of
// i + j + k; a box's eight are the parities of i, j and k (bit 0, 1, 2), so no
// two cells of a colour share a point. Cells are enumerated line by line: line
// l of the colour's lines holds the cells i = i0 + 2 m, m < half_i.
struct ColourLines {
  index_t lines = 0;   // lines of the colour
  index_t half_i = 0;  // cells of a line at most: (ni + 1) / 2
};

TB_HOST_DEVICE inline index_t parity_count(index_t n, index_t parity) { return (n - parity + 1) / 2; }

TB_HOST_DEVICE inline ColourLines colour_lines(const StencilView& a, int colour) {
  const StructuredIndex& g = a.grid;
  ColourLines cl;
  cl.half_i = (g.ni + 1) / 2;
  if (a.box)
    cl.lines = parity_count(g.nj, (colour >> 1) & 1) * parity_count(g.nk, (colour >> 2) & 1);
  else
    cl.lines = g.nj * g.nk;
  return cl;
}

// The m-th cell of line l of a colour, or -1 past the line's end.
TB_HOST_DEVICE inline index_t colour_cell(const StencilView& a, int colour, index_t l, index_t m) {
  const StructuredIndex& g = a.grid;
  index_t i, j, k;
  if (a.box) {
    const index_t cj = (colour >> 1) & 1, ck = (colour >> 2) & 1;
    const index_t lines_j = parity_count(g.nj, cj);
    j = cj + 2 * (l % lines_j);
    k = ck + 2 * (l / lines_j);
    i = (colour & 1) + 2 * m;
  } else {
    j = l % g.nj;
    k = l / g.nj;
    i = ((colour + j + k) & 1) + 2 * m;
  }
  return i < g.ni ? g.natural(i, j, k) : -1;
}

// Gauss-Seidel at cell c, in place (its colour's other cells are not read).
template <int P>
TB_HOST_DEVICE inline void gauss_seidel_cell(const StencilView& a, index_t c, const double* b, double* x) {
  if (a.irregular && a.irregular[c]) return;
  x[c] += a.dinv[c] * (b[c] - stencil_product<P>(a, c, x));
}

// The transfer between a level and the next coarser one. Coarsening keeps the
// cells of even index in each coarsened direction (coarse extent (n + 1) / 2);
// an odd fine index lies between two coarse cells and takes weight w of the
// lower one and 1 - w of the upper (w = 1 at the upper end of the grid). The
// weights are one per index of each direction, so P is the tensor product of
// three one-dimensional interpolations; R = P^T, so the Galerkin operator
// P^T A P of a symmetric A is symmetric, and it stays within the 27-point box.
struct TransferView {
  StructuredIndex fine, coarse;
  bool coarsened[3] = {false, false, false};
  const double* weight[3] = {nullptr, nullptr, nullptr};  // per fine index, where coarsened
};

TB_HOST_DEVICE inline index_t extent_of(const StructuredIndex& g, int d) {
  return d == 0 ? g.ni : d == 1 ? g.nj : g.nk;
}

// The coarse indices fine index i is interpolated from along direction d:
// count 1 or 2, lower first, with their weights.
struct Parents {
  index_t first = 0;
  int count = 1;
  double w_lo = 1.0, w_hi = 0.0;
};

TB_HOST_DEVICE inline Parents parents_of(const TransferView& t, int d, index_t i) {
  Parents p;
  if (!t.coarsened[d]) {
    p.first = i;
    return p;
  }
  p.first = i / 2;
  if (i % 2 == 1) {
    p.w_lo = t.weight[d][i];
    p.w_hi = 1.0 - p.w_lo;
    p.count = p.first + 1 < extent_of(t.coarse, d) ? 2 : 1;
  }
  return p;
}

// P(f, I) along direction d for fine index i and coarse index ic (0 when f is
// not interpolated from ic).
TB_HOST_DEVICE inline double transfer_weight(const TransferView& t, int d, index_t i, index_t ic) {
  if (!t.coarsened[d]) return i == ic ? 1.0 : 0.0;
  const index_t o = i - 2 * ic;
  return o == 0 ? 1.0 : o == 1 ? t.weight[d][i] : o == -1 ? 1.0 - t.weight[d][i] : 0.0;
}

// The fine indices coarse index ic gathers from along direction d.
TB_HOST_DEVICE inline void children_range(const TransferView& t, int d, index_t ic, index_t* lo, index_t* hi) {
  const index_t n = extent_of(t.fine, d);
  if (!t.coarsened[d]) {
    *lo = ic;
    *hi = ic;
    return;
  }
  *lo = 2 * ic - 1 < 0 ? 0 : 2 * ic - 1;
  *hi = 2 * ic + 1 < n ? 2 * ic + 1 : n - 1;
}

// Both transfers work a line of i at a time: what varies across a line is
// i alone, so the (j, k) part of P is a few weights and rows fixed per line.
//
// Restriction to the coarse line (cj, ck): up to 3 x 3 fine rows (j, k) and
// their weights w_k w_j. A column is one fine index i summed over them.
struct RestrictLine {
  int rows = 0;
  index_t row[9] = {};  // natural index of (0, j, k)
  double w[9] = {};
};

TB_HOST_DEVICE inline RestrictLine restrict_line(const TransferView& t, index_t cj, index_t ck) {
  RestrictLine line;
  index_t j0, j1, k0, k1;
  children_range(t, 1, cj, &j0, &j1);
  children_range(t, 2, ck, &k0, &k1);
  for (index_t k = k0; k <= k1; ++k) {
    const double wk = transfer_weight(t, 2, k, ck);
    for (index_t j = j0; j <= j1; ++j) {
      line.row[line.rows] = t.fine.natural(0, j, k);
      line.w[line.rows] = wk * transfer_weight(t, 1, j, cj);
      ++line.rows;
    }
  }
  return line;
}

TB_HOST_DEVICE inline double restrict_column(const RestrictLine& line, index_t i, const double* r) {
  double s = 0.0;
  for (int q = 0; q < line.rows; ++q) s += line.w[q] * r[line.row[q] + i];
  return s;
}

// (P^T r) at coarse index ci of the line: its fine columns, i ascending.
TB_HOST_DEVICE inline double restrict_cell(const TransferView& t, const RestrictLine& line, index_t ci,
                                           const double* r) {
  index_t i0, i1;
  children_range(t, 0, ci, &i0, &i1);
  double s = 0.0;
  for (index_t i = i0; i <= i1; ++i) s += transfer_weight(t, 0, i, ci) * restrict_column(line, i, r);
  return s;
}

// Prolongation to the fine line (j, k): up to 2 x 2 coarse rows and their
// weights. A column is one coarse index summed over them.
struct ProlongLine {
  int rows = 0;
  index_t row[4] = {};  // natural index of (0, J, K) on the coarse grid
  double w[4] = {};
};

TB_HOST_DEVICE inline ProlongLine prolong_line(const TransferView& t, index_t j, index_t k) {
  ProlongLine line;
  const Parents pj = parents_of(t, 1, j), pk = parents_of(t, 2, k);
  for (int c = 0; c < pk.count; ++c) {
    const double wk = c == 0 ? pk.w_lo : pk.w_hi;
    for (int b = 0; b < pj.count; ++b) {
      line.row[line.rows] = t.coarse.natural(0, pj.first + b, pk.first + c);
      line.w[line.rows] = wk * (b == 0 ? pj.w_lo : pj.w_hi);
      ++line.rows;
    }
  }
  return line;
}

TB_HOST_DEVICE inline double prolong_column(const ProlongLine& line, index_t ic, const double* xc) {
  double s = 0.0;
  for (int q = 0; q < line.rows; ++q) s += line.w[q] * xc[line.row[q] + ic];
  return s;
}

// (P xc) at fine index i of the line, given the columns of its parents.
TB_HOST_DEVICE inline double prolong_value(const Parents& pi, double column_lo, double column_hi) {
  return pi.count == 2 ? pi.w_lo * column_lo + pi.w_hi * column_hi : pi.w_lo * column_lo;
}

// x[i] = (G b)[i] for the dense n x n coarse inverse G, entry (i, j) at
// g[i * row_stride + j * col_stride]: row-major on the host, column-major on a
// GPU, where consecutive threads then read consecutive entries.
TB_HOST_DEVICE inline double dense_row(index_t n, const double* g, index_t row_stride, index_t col_stride, index_t i,
                                       const double* b) {
  const double* row = g + std::size_t(i) * std::size_t(row_stride);
  double s = 0.0;
  for (index_t j = 0; j < n; ++j) s += row[std::size_t(j) * std::size_t(col_stride)] * b[j];
  return s;
}

}  // namespace tb::mg
