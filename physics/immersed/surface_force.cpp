#include "physics/immersed/surface_force.hpp"

#include <cmath>
#include <numbers>

namespace tb::immersed {

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
  return f;
}

double drag_coefficient(const ImmersedFlow& flow, const Sphere& sphere, const SurfaceForce& f) {
  const Vec3& u = flow.settings().free_stream;
  const double r = sphere.radius();
  return f.total()[0] / (0.5 * flow.settings().rho * dot(u, u) * std::numbers::pi * r * r);
}

}  // namespace tb::immersed
