#include "physics/immersed/wake.hpp"

#include <algorithm>
#include <cmath>

namespace tb::immersed {

double recirculation_length(const ImmersedFlow& flow, double x_rear, double y_c, double z_c) {
  const CartesianGrid& g = flow.grid();
  const std::vector<double>& x = g.axis(0).centres;
  double h = x[1] - x[0];
  for (std::size_t i = 1; i + 1 < x.size(); ++i) h = std::min(h, x[i + 1] - x[i]);
  const double step = 0.25 * h;
  const std::vector<double>& z = g.axis(2).nodes;
  const PlaneRange& p = g.planes();
  const bool bottom = p.first + p.owned_begin == 0, top = p.first + p.owned_end == p.whole_planes;
  const bool owner = (bottom || z_c >= z[std::size_t(p.owned_begin)]) && (top || z_c < z[std::size_t(p.owned_end)]);
  std::vector<double> u;
  for (double s = x_rear; s <= x.back(); s += step)
    u.push_back(owner ? interpolate_cells(g, flow.velocity(0), {s, y_c, z_c}) : 0.0);
  if (const DomainShare* share = flow.share()) share->sum(u);
  for (std::size_t k = 1; k < u.size(); ++k)
    if (u[k - 1] < 0.0 && u[k] >= 0.0) return step * (double(k - 1) + u[k - 1] / (u[k - 1] - u[k]));
  return 0.0;
}

}  // namespace tb::immersed
