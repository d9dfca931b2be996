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
  lv.spectrum_bound = spectrum_bound(l);
}

// Gershgorin's bound on the spectrum of D^{-1} A: the largest sum of a row's
// absolute values over its diagonal. Power iterations approach the largest
// eigenvalue from below, and slowly where the top of the spectrum is
// clustered (a Laplacian's): 12 of them gave 1.65 for the 2 of a 32^3 Poisson
// matrix, and a Chebyshev polynomial built on such an estimate amplifies the
// modes above it. The bound is 2 for a Laplacian, its largest eigenvalue to
// O(h^2).
double Hierarchy::spectrum_bound(int l) const {
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
