#include "hierarchy.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "solvers/core/error.hpp"

namespace tb::mg {

namespace {

index_t extent(const StructuredIndex& g, int d) { return d == 0 ? g.ni : d == 1 ? g.nj : g.nk; }

// The coupling of each direction: the stencil collapsed onto it, summed over the cells.
void direction_strength(const StencilView& a, const StencilPoints& points, double strength[3]) {
  const std::size_t n = std::size_t(a.grid.cells());
  for (int d = 0; d < 3; ++d) strength[d] = 0.0;
  for (int p = 0; p < points.count; ++p) {
    double s = 0.0;
    for (std::size_t c = 0; c < n; ++c) s += std::abs(a.coef[std::size_t(p) * n + c]);
    for (int d = 0; d < 3; ++d)
      if (points.delta[p][d] != 0) strength[d] += s;
  }
}

// The coarse operator of a symmetric fine one is symmetric in exact
// arithmetic; the two halves are summed in different orders, so each pair is
// set to its mean.
void symmetrise(const StencilView& v, const StencilPoints& points, std::vector<double>& coef) {
  const std::size_t n = std::size_t(v.grid.cells());
  const StructuredIndex& g = v.grid;
  for (index_t c = 0; c < g.cells(); ++c) {
    const index_t ijk[3] = {g.i_of(c), g.j_of(c), g.k_of(c)};
    for (int p = 0; p < points.count / 2; ++p) {
      bool inside = true;
      for (int d = 0; d < 3; ++d) {
        const index_t x = ijk[d] + points.delta[p][d];
        inside = inside && x >= 0 && x < extent(g, d);
      }
      if (!inside) continue;
      double& a = coef[std::size_t(p) * n + std::size_t(c)];
      double& b = coef[std::size_t(points.count - 1 - p) * n + std::size_t(c + v.offset[p])];
      a = b = 0.5 * (a + b);
    }
  }
}

// The largest eigenvalue of the symmetric tridiagonal matrix with diagonal a
// and off-diagonal b (m x m), by bisection on the Sturm sequence count.
double largest_tridiagonal_eigenvalue(const double* a, const double* b, int m) {
  double lo = a[0], hi = a[0];
  for (int i = 0; i < m; ++i) {
    const double r = (i > 0 ? std::abs(b[i - 1]) : 0.0) + (i + 1 < m ? std::abs(b[i]) : 0.0);
    lo = std::min(lo, a[i] - r);
    hi = std::max(hi, a[i] + r);
  }
  // Eigenvalues above x: the negative pivots of T - x I.
  auto above = [&](double x) {
    int count = 0;
    double d = 1.0;
    for (int i = 0; i < m; ++i) {
      d = a[i] - x - (i > 0 ? b[i - 1] * b[i - 1] / d : 0.0);
      if (d == 0.0) d = 1e-300;
      count += d < 0.0;
    }
    return m - count;
  };
  for (int it = 0; it < 100 && hi - lo > 1e-12 * std::max(std::abs(lo), std::abs(hi)); ++it) {
    const double mid = 0.5 * (lo + hi);
    (above(mid) > 0 ? lo : hi) = mid;
  }
  return hi;
}

}  // namespace

StencilView Hierarchy::view(int l) const {
  if (l == 0) {
    StencilView v = fine_.view();
    v.dinv = levels_[0].dinv.data();
    return v;
  }
  const Level& lv = levels_[std::size_t(l)];
  StencilView v;
  v.grid = lv.grid;
  v.box = lv.box;
  set_offsets(v, lv.points);
  v.coef = lv.coef.data();
  v.dinv = lv.dinv.data();
  return v;
}

TransferView Hierarchy::transfer(int l) const {
  const Level& lv = levels_[std::size_t(l)];
  TransferView t;
  t.fine = lv.grid;
  t.coarse = levels_[std::size_t(l) + 1].grid;
  for (int d = 0; d < 3; ++d) {
    t.coarsened[d] = lv.coarsened[d];
    t.weight[d] = lv.coarsened[d] ? lv.weight[d].data() : nullptr;
  }
  return t;
}

void Hierarchy::build(const BsrMatrix& a, const StructuredIndex* grid, const HierarchyOptions& o) {
  options_ = o;
  fine_ = structured_operator(a, infer_grid(a, grid));
  levels_.clear();
  Level finest;
  finest.grid = fine_.grid;
  finest.points = fine_.points;
  finest.dinv.assign(std::size_t(fine_.grid.cells()), 0.0);
  levels_.push_back(std::move(finest));
  const std::size_t cells = std::size_t(fine_.grid.cells());
  lanczos_u_.assign(cells + 2 * std::size_t(padding(fine_.grid)), 0.0);
  lanczos_q_.assign(cells, 0.0);
  lanczos_q_prev_.assign(cells, 0.0);
  lanczos_w_.assign(cells, 0.0);
  zeros_.assign(cells, 0.0);
  const int box_active = active_directions(fine_.grid);
  for (int l = 0;; ++l) {
    Level& lv = levels_[std::size_t(l)];
    if (lv.grid.cells() <= o.coarse_size || (o.max_levels > 0 && l + 1 >= o.max_levels)) break;
    double strength[3];
    direction_strength(view(l), lv.points, strength);
    const double strongest = std::max({strength[0], strength[1], strength[2]});
    bool any = false;
    for (int d = 0; d < 3; ++d) {
      lv.coarsened[d] = extent(lv.grid, d) > 1 && strength[d] >= o.semicoarsening * strongest && strength[d] > 0.0;
      any = any || lv.coarsened[d];
    }
    if (!any) break;
    Level next;
    next.grid = lv.grid;
    if (lv.coarsened[0]) next.grid.ni = (lv.grid.ni + 1) / 2;
    if (lv.coarsened[1]) next.grid.nj = (lv.grid.nj + 1) / 2;
    if (lv.coarsened[2]) next.grid.nk = (lv.grid.nk + 1) / 2;
    next.points = box_points(box_active);
    next.box = true;
    next.coef.assign(std::size_t(next.points.count) * std::size_t(next.grid.cells()), 0.0);
    next.dinv.assign(std::size_t(next.grid.cells()), 0.0);
    for (int d = 0; d < 3; ++d)
      if (lv.coarsened[d]) lv.weight[d].assign(std::size_t(extent(lv.grid, d)), 1.0);
    levels_.push_back(std::move(next));
    coarsen(l);
  }
  const index_t coarsest = levels_.back().grid.cells();
  direct_ = coarsest <= max_direct_cells;
  if (direct_) coarse_.reserve(coarsest);
  for (int l = 0; l < levels(); ++l) numeric(l);
  if (direct_) coarse_.factor(view(levels() - 1), levels_.back().points);
}

void Hierarchy::refresh(const BsrMatrix& a) {
  update_values(a, fine_);
  for (int l = 0; l + 1 < levels(); ++l) coarsen(l);
  for (int l = 0; l < levels(); ++l) numeric(l);
  if (direct_) coarse_.factor(view(levels() - 1), levels_.back().points);
}

// Level l + 1's values from level l's: the transfer weights, then P^T A P.
void Hierarchy::coarsen(int l) {
  Level& lv = levels_[std::size_t(l)];
  Level& next = levels_[std::size_t(l) + 1];
  const StencilView fine = view(l);
  double* w[3] = {nullptr, nullptr, nullptr};
  for (int d = 0; d < 3; ++d)
    if (lv.coarsened[d]) w[d] = lv.weight[d].data();
  kernels::omp::transfer_weights(fine, lv.points, lv.coarsened, w[0], w[1], w[2]);
  GalerkinArgs g;
  g.fine = l == 0 ? fine_.view(options_.remainder_in_galerkin) : fine;
  if (l == 0 && options_.remainder_in_galerkin && fine_.scaled()) g.row_scale = fine_.cell_scale.data();
  g.fine_points = lv.points;
  g.transfer = transfer(l);
  g.coarse_points = next.points;
  g.coarse_coef = next.coef.data();
  kernels::omp::galerkin(g);
  const bool symmetric = fine_.symmetric && (!fine_.has_remainder() || options_.remainder_in_galerkin);
  if (symmetric) symmetrise(view(l + 1), next.points, next.coef);
}

void Hierarchy::numeric(int l) {
  Level& lv = levels_[std::size_t(l)];
  StencilView v = view(l);
  const index_t bad = kernels::omp::inverse_diagonal(v, lv.dinv.data());
  if (bad >= 0)
    throw Error("mg: level " + std::to_string(l) + " (" + std::to_string(lv.grid.ni) + " x " +
                std::to_string(lv.grid.nj) + " x " + std::to_string(lv.grid.nk) + "): cell (" +
                std::to_string(lv.grid.i_of(bad)) + ", " + std::to_string(lv.grid.j_of(bad)) + ", " +
                std::to_string(lv.grid.k_of(bad)) + ") has a zero or non-finite diagonal");
  lv.largest_eigenvalue = largest_eigenvalue(l);
}

// Gershgorin's bound on the spectrum of D^{-1} A: the largest sum of a row's
// absolute values over its diagonal.
double Hierarchy::gershgorin_bound(int l) const {
  const StencilView v = view(l);
  const std::size_t n = std::size_t(v.grid.cells());
  double bound = 0.0;
  for (std::size_t c = 0; c < n; ++c) {
    double s = 0.0;
    for (int p = 0; p < v.points; ++p) s += std::abs(v.coef[std::size_t(p) * n + c]);
    if (v.rest_ptr)
      for (index_t k = v.rest_ptr[c]; k < v.rest_ptr[c + 1]; ++k) s += std::abs(v.rest_val[k]);
    bound = std::max(bound, s * std::abs(v.dinv[c]));
  }
  return bound;
}

// The largest eigenvalue of D^{-1} A, which the smoothers are scaled to:
// lanczos_steps of Lanczos on D^{-1/2} A D^{-1/2} (similar to D^{-1} A, and
// symmetric where A is), the largest Ritz value times lanczos_margin, at most
// Gershgorin's bound. A few rows can set the bound far above the spectrum
// (the coarse rows over tb-ib's image-point rows), and a Chebyshev interval
// built on it misses the modes to smooth. Power iterations approach the
// largest eigenvalue from below, slowly where the top of the spectrum is
// clustered (a Laplacian's), and a polynomial built below the top amplifies
// it. The Ritz value converges much faster, and the margin covers the rest
// (test: Mg.EigenvalueEstimateCoversTheSpectrum).
double Hierarchy::largest_eigenvalue(int l) {
  const StencilView v = view(l);
  const index_t n = v.grid.cells(), pad = padding(v.grid);
  const double bound = gershgorin_bound(l);
  if (n < 2) return bound;
  double* u = lanczos_u_.data() + pad;  // padded: the stencil reads it
  double* q = lanczos_q_.data();
  double* q_prev = lanczos_q_prev_.data();
  double* w = lanczos_w_.data();
  std::fill(lanczos_u_.begin(), lanczos_u_.begin() + 2 * pad + n, 0.0);
  double norm = 0.0;
  for (index_t c = 0; c < n; ++c) {
    q[c] = std::sin(0.7 * double(c) + 0.3) + 0.1 * std::cos(2.3 * double(c));
    q_prev[c] = 0.0;
    norm += q[c] * q[c];
  }
  for (index_t c = 0; c < n; ++c) q[c] /= std::sqrt(norm);
  double alpha[lanczos_steps] = {}, beta[lanczos_steps] = {};
  int steps = 0;
  for (int k = 0; k < lanczos_steps; ++k) {
    // w = D^{-1/2} A D^{-1/2} q - beta_{k-1} q_prev, by the residual kernel with b = 0.
    for (index_t c = 0; c < n; ++c) u[c] = std::sqrt(std::abs(v.dinv[c])) * q[c];
    kernels::omp::residual(v, zeros_.data(), u, w);
    double a = 0.0;
    for (index_t c = 0; c < n; ++c) {
      w[c] = -std::sqrt(std::abs(v.dinv[c])) * w[c] - (k > 0 ? beta[k - 1] * q_prev[c] : 0.0);
      a += w[c] * q[c];
    }
    double b = 0.0;
    for (index_t c = 0; c < n; ++c) {
      w[c] -= a * q[c];
      b += w[c] * w[c];
    }
    alpha[k] = a;
    beta[k] = std::sqrt(b);
    steps = k + 1;
    if (!(beta[k] > 1e-12 * std::abs(a))) break;  // an invariant subspace: T's values are exact
    for (index_t c = 0; c < n; ++c) {
      q_prev[c] = q[c];
      q[c] = w[c] / beta[k];
    }
  }
  const double ritz = largest_tridiagonal_eigenvalue(alpha, beta, steps);
  return std::isfinite(ritz) && ritz > 0.0 ? std::min(lanczos_margin * ritz, bound) : bound;
}

double Hierarchy::grid_complexity() const {
  double cells = 0.0;
  for (const Level& lv : levels_) cells += double(lv.grid.cells());
  return cells / double(levels_[0].grid.cells());
}

double Hierarchy::operator_complexity() const {
  double entries = 0.0;
  for (const Level& lv : levels_) entries += double(lv.grid.cells()) * lv.points.count;
  return entries / (double(levels_[0].grid.cells()) * levels_[0].points.count);
}

}  // namespace tb::mg
