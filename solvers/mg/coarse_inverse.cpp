#include "coarse_inverse.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "solvers/core/error.hpp"

namespace tb::mg {

namespace {

// In-place inverse of the row-major n x n matrix a by Gauss-Jordan elimination
// with partial pivoting; false when a pivot is zero or not finite.
bool invert(double* a, index_t n, index_t* perm) {
  const std::size_t m = std::size_t(n);
  for (index_t c = 0; c < n; ++c) {
    index_t piv = c;
    double best = std::fabs(a[std::size_t(c) * m + std::size_t(c)]);
    for (index_t r = c + 1; r < n; ++r)
      if (std::fabs(a[std::size_t(r) * m + std::size_t(c)]) > best)
        best = std::fabs(a[std::size_t(r) * m + std::size_t(c)]), piv = r;
    if (!(best > 0.0) || !std::isfinite(best)) return false;
    perm[c] = piv;
    double* row_c = a + std::size_t(c) * m;
    if (piv != c) std::swap_ranges(row_c, row_c + m, a + std::size_t(piv) * m);
    const double inv = 1.0 / row_c[c];
    row_c[c] = 1.0;
    for (std::size_t k = 0; k < m; ++k) row_c[k] *= inv;
    for (index_t r = 0; r < n; ++r) {
      if (r == c) continue;
      double* row_r = a + std::size_t(r) * m;
      const double f = row_r[c];
      if (f == 0.0) continue;
      row_r[c] = 0.0;
      for (std::size_t k = 0; k < m; ++k) row_r[k] -= f * row_c[k];
    }
  }
  for (index_t c = n - 1; c >= 0; --c)
    if (perm[c] != c)
      for (std::size_t r = 0; r < m; ++r) std::swap(a[r * m + std::size_t(c)], a[r * m + std::size_t(perm[c])]);
  return std::all_of(a, a + m * m, [](double v) { return std::isfinite(v); });
}

}  // namespace

void CoarseInverse::reserve(index_t n) {
  if (n > max_direct_cells)
    throw Error("mg: the coarsest level has " + std::to_string(n) + " cells, more than the " +
                std::to_string(max_direct_cells) + " a dense solve takes");
  n_ = n;
  inverse_.assign(std::size_t(n) * std::size_t(n), 0.0);
  column_.assign(std::size_t(n), 0.0);
  perm_.assign(std::size_t(n), 0);
}

void CoarseInverse::factor(const StencilView& a, const StencilPoints& points) {
  const index_t n = a.grid.cells();
  if (n != n_) reserve(n);
  const std::size_t m = std::size_t(n);
  std::fill(inverse_.begin(), inverse_.end(), 0.0);
  double* g = inverse_.data();
  // The dense operator; the row sums tell a Neumann operator.
  double largest_diagonal = 0.0, largest_row_sum = 0.0;
  for (index_t c = 0; c < n; ++c) {
    const index_t ijk[3] = {a.grid.i_of(c), a.grid.j_of(c), a.grid.k_of(c)};
    double row_sum = 0.0;
    for (int p = 0; p < points.count; ++p) {
      const double v = a.coef[std::size_t(p) * m + std::size_t(c)];
      if (v == 0.0) continue;
      index_t nb[3];
      for (int d = 0; d < 3; ++d) nb[d] = ijk[d] + points.delta[p][d];
      g[std::size_t(c) * m + std::size_t(a.grid.natural(nb[0], nb[1], nb[2]))] += v;
      row_sum += v;
    }
    if (a.rest_ptr)
      for (index_t k = a.rest_ptr[c]; k < a.rest_ptr[c + 1]; ++k) {
        g[std::size_t(c) * m + std::size_t(a.rest_col[k])] += a.rest_val[k];
        row_sum += a.rest_val[k];
      }
    largest_diagonal = std::max(largest_diagonal, std::abs(g[std::size_t(c) * m + std::size_t(c)]));
    largest_row_sum = std::max(largest_row_sum, std::abs(row_sum));
  }
  singular_ = n > 1 && largest_row_sum <= 1e-10 * largest_diagonal;
  // Fix the last unknown: its row and column become the identity's.
  const index_t fixed = n - 1;
  if (singular_)
    for (std::size_t k = 0; k < m; ++k) {
      g[std::size_t(fixed) * m + k] = k == std::size_t(fixed) ? 1.0 : 0.0;
      g[k * m + std::size_t(fixed)] = k == std::size_t(fixed) ? 1.0 : 0.0;
    }
  if (!invert(g, n, perm_.data()))
    throw Error("mg: the coarsest level's operator (" + std::to_string(n) + " cells) is singular" +
                (singular_ ? " beyond the constants" : ""));
  if (!singular_) return;
  // G = Pi G_fixed Pi, with G_fixed's fixed row and column zero.
  g[std::size_t(fixed) * m + std::size_t(fixed)] = 0.0;
  const double inv_n = 1.0 / double(n);
  for (std::size_t r = 0; r < m; ++r) {  // G_fixed Pi: subtract each row's mean
    double* row = g + r * m;
    double mean = 0.0;
    for (std::size_t k = 0; k < m; ++k) mean += row[k];
    mean *= inv_n;
    for (std::size_t k = 0; k < m; ++k) row[k] -= mean;
  }
  std::fill(column_.begin(), column_.end(), 0.0);  // Pi (.): subtract each column's mean
  for (std::size_t r = 0; r < m; ++r)
    for (std::size_t k = 0; k < m; ++k) column_[k] += g[r * m + k];
  for (std::size_t r = 0; r < m; ++r)
    for (std::size_t k = 0; k < m; ++k) g[r * m + k] -= column_[k] * inv_n;
}

}  // namespace tb::mg
