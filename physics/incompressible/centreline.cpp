#include "physics/incompressible/centreline.hpp"

#include <algorithm>
#include <cmath>

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

Profile sample_line(const FractionalStep& flow, int component, int along, const std::array<double, 3>& point) {
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
  // Weighted sum over the (up to four) bracketing cells of the value at position t along the line.
  auto across = [&](auto&& value_at) {
    double sum = 0.0;
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
        if (w != 0.0) sum += w * value_at(c);
      }
    return sum;
  };
  const AxisGeometry& ax = g.axis(along);
  // The whole line's cells and where this grid's first one sits on it.
  const bool sliced = along == planes.axis;
  const index_t whole_cells = sliced ? planes.whole_planes : ax.cells, first = sliced ? planes.first : 0;
  const std::size_t ends = ax.periodic ? 0 : 1;
  Profile p;
  p.coord.assign(std::size_t(whole_cells) + 2 * ends, 0.0);
  p.value.assign(p.coord.size(), 0.0);
  auto boundary = [&](int s) {
    return across([&](std::array<index_t, 3> c) {
      c[along] = s < 0 ? 0 : ax.cells - 1;
      return component < n ? flow.boundaries().value(side_of(along, s), c)[component] : 0.0;
    });
  };
  if (mine && ends == 1 && first == 0) {
    p.coord.front() = ax.nodes.front();
    p.value.front() = boundary(-1);
  }
  for (index_t i = 0; i < ax.cells; ++i) {
    if (!mine || (sliced && !owned_plane(i))) continue;
    const std::size_t slot = std::size_t(first + i) + ends;
    p.coord[slot] = ax.centres[i];
    p.value[slot] = across([&](std::array<index_t, 3> c) {
      c[along] = i;
      return component < n ? flow.velocity()[std::size_t(n) * g.index(c[0], c[1], c[2]) + component] : 0.0;
    });
  }
  if (mine && ends == 1 && first + ax.cells == whole_cells) {
    p.coord.back() = ax.nodes.back();
    p.value.back() = boundary(1);
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

}  // namespace tb::incompressible
