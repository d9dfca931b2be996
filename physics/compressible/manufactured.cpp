#include "physics/compressible/manufactured.hpp"

#include <cmath>
#include <numbers>

namespace tb::compressible {

namespace {

// phi(x, y) = c0 + cx f(ax pi x) + cy g(ay pi y) + cxy h(axy pi x y), where f,
// g, h are sin or cos: the form of Roy et al. 2004, Table 1, with amplitudes
// chosen for a subsonic (M ~ 0.5), non-dimensional state (rho ~ 1, c ~ 1).
struct Term {
  double c0, cx, ax, cy, ay, cxy, axy;
  bool sin_x, sin_y, sin_xy;
};

constexpr double pi = std::numbers::pi;

// rho as Roy et al. (2004) give it; u, v, p in the same style.
constexpr Term rho_term{1.0, 0.1, 0.75, 0.15, 1.0, 0.08, 1.25, true, false, false};
constexpr Term u_term{0.5, 0.05, 5.0 / 3.0, -0.03, 1.5, -0.02, 0.6, true, false, false};
constexpr Term v_term{0.2, -0.04, 1.5, 0.05, 1.0, 0.03, 0.9, false, true, false};
constexpr Term p_term{1.0 / 1.4, 0.1, 1.0, 0.07, 1.25, -0.05, 0.75, false, true, false};

// Value and d/dx, d/dy of one field.
struct Sample {
  double value, dx, dy;
};

// s(k t) and its derivative with respect to t.
void wave(bool is_sin, double k, double t, double& value, double& slope) {
  value = is_sin ? std::sin(k * t) : std::cos(k * t);
  slope = is_sin ? k * std::cos(k * t) : -k * std::sin(k * t);
}

Sample sample(const Term& f, const Vec2& x) {
  double fx, dfx, fy, dfy, fxy, dfxy;
  wave(f.sin_x, f.ax * pi, x.x, fx, dfx);
  wave(f.sin_y, f.ay * pi, x.y, fy, dfy);
  wave(f.sin_xy, f.axy * pi, x.x * x.y, fxy, dfxy);
  return {f.c0 + f.cx * fx + f.cy * fy + f.cxy * fxy, f.cx * dfx + f.cxy * dfxy * x.y, f.cy * dfy + f.cxy * dfxy * x.x};
}

}  // namespace

Primitive ManufacturedSolution::primitive(const Vec2& x) const {
  return {sample(rho_term, x).value, sample(u_term, x).value, sample(v_term, x).value, sample(p_term, x).value};
}

PrimitiveGradient ManufacturedSolution::gradient(const Vec2& x) const {
  const Sample r = sample(rho_term, x), u = sample(u_term, x), v = sample(v_term, x), p = sample(p_term, x);
  return {r.dx, r.dy, u.dx, u.dy, v.dx, v.dy, p.dx, p.dy};
}

State ManufacturedSolution::viscous_flux(const Vec2& x, const Vec2& n) const {
  if (!viscous_.enabled()) return {};
  const Primitive q = primitive(x);
  const VelocityTemperatureGradients g = velocity_temperature_gradients(q.rho, q.p, gradient(x).data(), gas_.gamma);
  return compressible::viscous_flux(viscous_, g, q.u, q.v, gas_.gamma * q.p / q.rho, n.x, n.y);
}

State ManufacturedSolution::net_flux(const Vec2& x, const Vec2& n) const {
  State f = physical_flux(gas_, conserved(x), n.x, n.y);
  const State fv = viscous_flux(x, n);
  for (int k = 0; k < num_vars; ++k) f[k] -= fv[k];
  return f;
}

State ManufacturedSolution::edge_integral(const Vec2& a, const Vec2& b) const {
  const double dx = b.x - a.x, dy = b.y - a.y, len = std::hypot(dx, dy);
  const Vec2 n{dy / len, -dx / len};
  // Three-point Gauss-Legendre on [0, 1]: exact for quintic integrands.
  const double s = std::sqrt(0.6);
  const double nodes[3] = {0.5 * (1.0 - s), 0.5, 0.5 * (1.0 + s)}, weights[3] = {5.0 / 18.0, 8.0 / 18.0, 5.0 / 18.0};
  State sum{};
  for (int q = 0; q < 3; ++q) {
    const State f = net_flux({a.x + nodes[q] * dx, a.y + nodes[q] * dy}, n);
    for (int k = 0; k < num_vars; ++k) sum[k] += weights[q] * len * f[k];
  }
  return sum;
}

std::vector<State> manufactured_sources(const Mesh2D& mesh, const ManufacturedSolution& mms) {
  std::vector<State> s(std::size_t(mesh.num_cells()), State{});
  for (index_t c = 0; c < mesh.num_cells(); ++c) {
    const index_t* v = mesh.cell_begin(c);
    const index_t m = mesh.cell_size(c);
    for (index_t e = 0; e < m; ++e) {
      const State f = mms.edge_integral(mesh.nodes[std::size_t(v[e])], mesh.nodes[std::size_t(v[(e + 1) % m])]);
      for (int k = 0; k < num_vars; ++k) s[std::size_t(c)][k] += f[k];
    }
  }
  return s;
}

}  // namespace tb::compressible
