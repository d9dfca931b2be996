#include "physics/immersed/surface_force.hpp"

#include <cmath>
#include <numbers>

namespace tb::immersed {

namespace {

// Whether the surface point at height z lies in an owned z plane: node values
// are the whole grid's bits on every rank, so each point has one owner.
bool owned_height(const CartesianGrid& g, double z) {
  const std::vector<double>& nodes = g.axis(2).nodes;
  const PlaneRange& p = g.planes();
  const bool bottom = p.first + p.owned_begin == 0, top = p.first + p.owned_end == p.whole_planes;
  return (bottom || z >= nodes[p.owned_begin]) && (top || z < nodes[p.owned_end]);
}

}  // namespace

SurfaceForce sphere_force(const ImmersedFlow& flow, const Sphere& sphere, int bands, int sectors) {
  const CartesianGrid& g = flow.grid();
  const double r = sphere.radius(), mu = flow.settings().rho * flow.settings().nu;
  const double du = 2.0 / bands, dphi = 2.0 * std::numbers::pi / sectors, area = r * r * du * dphi;
  SurfaceForce f;
  for (int b = 0; b < bands; ++b) {
    const double ct = -1.0 + (b + 0.5) * du, st = std::sqrt(1.0 - ct * ct);
    for (int s = 0; s < sectors; ++s) {
      const double phi = (s + 0.5) * dphi;
      const Vec3 n{st * std::cos(phi), st * std::sin(phi), ct};
      const Vec3 xs = sphere.centre() + r * n;
      if (g.is_piece() && !owned_height(g, xs[2])) continue;
      std::array<index_t, 3> c;
      for (int d = 0; d < 3; ++d) c[d] = std::min(g.bracket(d, xs[d]) + 1, g.cells(d) - 1);
      const double delta = g.min_width(c);
      const Vec3 x1 = xs + delta * n, x2 = xs + 2.0 * delta * n;
      const double p1 = interpolate_cells(g, flow.pressure(), x1), p2 = interpolate_cells(g, flow.pressure(), x2);
      const double ps = (4.0 * p1 - p2) / 3.0;
      const Vec3 ub = sphere.velocity(xs);
      for (int d = 0; d < 3; ++d) {
        const double u1 = interpolate_cells(g, flow.velocity(d), x1) - ub[d];
        const double u2 = interpolate_cells(g, flow.velocity(d), x2) - ub[d];
        f.pressure[d] -= ps * n[d] * area;
        f.viscous[d] += mu * (4.0 * u1 - u2) / (2.0 * delta) * area;
      }
    }
  }
  if (const DomainShare* share = flow.share()) {
    std::array<double, 6> sums = {f.pressure[0], f.pressure[1], f.pressure[2],
                                  f.viscous[0],  f.viscous[1],  f.viscous[2]};
    share->sum(sums);
    f.pressure = {sums[0], sums[1], sums[2]};
    f.viscous = {sums[3], sums[4], sums[5]};
  }
  return f;
}

double drag_coefficient(const ImmersedFlow& flow, const Sphere& sphere, const SurfaceForce& f) {
  const Vec3& u = flow.settings().free_stream;
  const double r = sphere.radius();
  return f.total()[0] / (0.5 * flow.settings().rho * dot(u, u) * std::numbers::pi * r * r);
}

}  // namespace tb::immersed
