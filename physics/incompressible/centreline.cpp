#include "physics/incompressible/centreline.hpp"

#include <algorithm>
#include <cmath>

#include "physics/incompressible/kernels.hpp"
#include "solvers/core/array.hpp"

namespace tb::incompressible {

namespace {

// The two cells bracketing x along an axis and the weight of the first.
struct Bracket {
  index_t lo, hi;
  double w;
};

Bracket bracket(const AxisGeometry& a, double x) {
  if (a.cells == 1 || x <= a.centres.front()) return {0, 0, 1.0};
  if (x >= a.centres.back()) return {a.cells - 1, a.cells - 1, 1.0};
  const auto it = std::upper_bound(a.centres.begin(), a.centres.end(), x);
  const index_t hi = index_t(it - a.centres.begin()), lo = hi - 1;
  return {lo, hi, (a.centres[hi] - x) / (a.centres[hi] - a.centres[lo])};
}

}  // namespace

LineSamples line_samples(const FractionalStep& flow, int component, int along, const std::array<double, 3>& point) {
  const FvGrid& g = flow.grid();
  const PlaneRange& planes = g.planes();
  const int n = g.dim();
  std::array<Bracket, 3> br{};
  for (int d = 0; d < 3; ++d) br[d] = d == along ? Bracket{0, 0, 1.0} : bracket(g.axis(d), point[d]);
  // On a piece of the grid each point is sampled by the rank owning its cells
  // (across the slab axis: the lower bracketing plane, whose upper one is then
  // at most a ghost); the others leave it zero and the ranks' profiles add up.
  const auto owned_plane = [&](index_t local) { return local >= planes.owned_begin && local < planes.owned_end; };
  const bool mine = along == planes.axis || owned_plane(br[planes.axis].lo);
  // The (up to four) bracketing cells, position t along the line, and their weights, in the order they add.
  auto across = [&](auto&& visit) {
    for (int a = 0; a < 2; ++a)
      for (int b = 0; b < 2; ++b) {
        std::array<index_t, 3> c{};
        double w = 1.0;
        int pick[2] = {a, b}, m = 0;
        for (int d = 0; d < 3; ++d) {
          if (d == along) continue;
          c[d] = pick[m] == 0 ? br[d].lo : br[d].hi;
          w *= pick[m] == 0 ? br[d].w : 1.0 - br[d].w;
          ++m;
        }
        visit(2 * a + b, c, w);
      }
  };
  const AxisGeometry& ax = g.axis(along);
  // The whole line's cells and where this grid's first one sits on it.
  const bool sliced = along == planes.axis;
  const index_t whole_cells = sliced ? planes.whole_planes : ax.cells, first = sliced ? planes.first : 0;
  const std::size_t ends = ax.periodic ? 0 : 1;
  LineSamples l;
  const std::size_t slots = std::size_t(whole_cells) + 2 * ends;
  l.coord.assign(slots, 0.0);
  l.fixed.assign(slots, 0.0);
  l.cells.assign(4 * slots, 0);
  l.weights.assign(4 * slots, 0.0);
  auto boundary = [&](std::size_t slot, int s) {
    double sum = 0.0;
    across([&](int, std::array<index_t, 3> c, double w) {
      c[along] = s < 0 ? 0 : ax.cells - 1;
      if (w != 0.0) sum += w * (component < n ? flow.boundaries().value(side_of(along, s), c)[component] : 0.0);
    });
    l.fixed[slot] = sum;
  };
  if (mine && ends == 1 && first == 0) {
    l.coord.front() = ax.nodes.front();
    boundary(0, -1);
  }
  for (index_t i = 0; i < ax.cells; ++i) {
    if (!mine || (sliced && !owned_plane(i))) continue;
    const std::size_t slot = std::size_t(first + i) + ends;
    l.coord[slot] = ax.centres[i];
    if (component >= n) continue;
    across([&](int k, std::array<index_t, 3> c, double w) {
      c[along] = i;
      l.cells[4 * slot + std::size_t(k)] = g.index(c[0], c[1], c[2]);
      l.weights[4 * slot + std::size_t(k)] = w;
    });
  }
  if (mine && ends == 1 && first + ax.cells == whole_cells) {
    l.coord.back() = ax.nodes.back();
    boundary(slots - 1, 1);
  }
  return l;
}

Profile sample_line(const FractionalStep& flow, int component, int along, const std::array<double, 3>& point) {
  const LineSamples l = line_samples(flow, component, along, point);
  const std::span<const double> u = flow.velocity();
  const std::size_t n = std::size_t(flow.grid().dim());
  Profile p;
  p.coord = l.coord;
  p.value.assign(l.coord.size(), 0.0);
  for (std::size_t slot = 0; slot < l.coord.size(); ++slot) {
    double sum = l.fixed[slot];
    for (std::size_t k = 4 * slot; k < 4 * slot + 4; ++k)
      if (l.weights[k] != 0.0) sum += l.weights[k] * u[n * std::size_t(l.cells[k]) + std::size_t(component)];
    p.value[slot] = sum;
  }
  if (const DomainShare* share = flow.share()) {
    share->sum(p.coord);
    share->sum(p.value);
  }
  return p;
}

double interpolate(const Profile& p, double x) {
  if (x <= p.coord.front()) return p.value.front();
  if (x >= p.coord.back()) return p.value.back();
  const auto it = std::upper_bound(p.coord.begin(), p.coord.end(), x);
  const std::size_t hi = std::size_t(it - p.coord.begin()), lo = hi - 1;
  const double w = (p.coord[hi] - x) / (p.coord[hi] - p.coord[lo]);
  return w * p.value[lo] + (1.0 - w) * p.value[hi];
}

double max_deviation(const Profile& computed, const Profile& reference, double scale) {
  double worst = 0.0;
  for (std::size_t i = 0; i < reference.coord.size(); ++i)
    worst = std::max(worst, std::abs(interpolate(computed, reference.coord[i] * scale) - reference.value[i]));
  return worst;
}

ProfileDeviation profile_deviation(const LineSamples& line, const Profile& reference, double scale) {
  const std::vector<double>& coord = line.coord;
  ProfileDeviation d;
  const std::size_t points = reference.coord.size();
  d.cells.assign(8 * points, 0);
  d.weights.assign(8 * points, 0.0);
  d.fixed.assign(2 * points, 0.0);
  d.mix.assign(points, 1.0);
  d.reference = reference.value;
  const auto take = [&](std::size_t i, int s, std::size_t slot) {
    d.fixed[2 * i + std::size_t(s)] = line.fixed[slot];
    for (std::size_t k = 0; k < 4; ++k) {
      d.cells[8 * i + 4 * std::size_t(s) + k] = line.cells[4 * slot + k];
      d.weights[8 * i + 4 * std::size_t(s) + k] = line.weights[4 * slot + k];
    }
  };
  // interpolate()'s cases: an end alone (mix 1, the other slot empty), or two slots mixed.
  for (std::size_t i = 0; i < points; ++i) {
    const double x = reference.coord[i] * scale;
    if (x <= coord.front() || x >= coord.back()) {
      take(i, 0, x <= coord.front() ? 0 : coord.size() - 1);
      continue;
    }
    const auto it = std::upper_bound(coord.begin(), coord.end(), x);
    const std::size_t hi = std::size_t(it - coord.begin()), lo = hi - 1;
    d.mix[i] = (coord[hi] - x) / (coord[hi] - coord[lo]);
    take(i, 0, lo);
    take(i, 1, hi);
  }
  return d;
}

double max_deviation(Backend backend, const ProfileDeviation& d, const double* u, int m, int e) {
  if (backend == Backend::host)
    return kernels::max_line_deviation(
        backend, d.points(), {d.cells.data(), d.weights.data(), d.fixed.data(), d.mix.data(), d.reference.data()}, u, m,
        e);
  const Array<index_t> cells(backend, std::span<const index_t>(d.cells));
  const Vector weights(backend, std::span<const double>(d.weights)), fixed(backend, std::span<const double>(d.fixed));
  const Vector mix(backend, std::span<const double>(d.mix)), reference(backend, std::span<const double>(d.reference));
  return kernels::max_line_deviation(
      backend, d.points(), {cells.data(), weights.data(), fixed.data(), mix.data(), reference.data()}, u, m, e);
}

}  // namespace tb::incompressible
