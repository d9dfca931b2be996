#include "physics/compressible/viscous.hpp"

#include <cmath>

namespace tb::compressible {

VelocityTemperatureGradients velocity_temperature_gradients(double rho, double p,
                                                            const std::array<double, 2 * num_vars>& g, double gamma) {
  return {g[2],
          g[3],
          g[4],
          g[5],
          gamma * (g[6] / rho - p * g[0] / (rho * rho)),
          gamma * (g[7] / rho - p * g[1] / (rho * rho))};
}

State viscous_flux(const Viscosity& visc, const VelocityTemperatureGradients& g, double u, double v, double t,
                   double nx, double ny) {
  const double mu = visc.mu(t), k = visc.conductivity(mu);
  const double div = g.ux + g.vy;
  const double txx = mu * (2.0 * g.ux - 2.0 / 3.0 * div), tyy = mu * (2.0 * g.vy - 2.0 / 3.0 * div);
  const double txy = mu * (g.uy + g.vx);
  const double fx = txx * nx + txy * ny, fy = txy * nx + tyy * ny;
  return {0.0, fx, fy, fx * u + fy * v + k * (g.tx * nx + g.ty * ny)};
}

namespace {

// u, v, T of a state and their derivatives with respect to the conserved variables.
struct VelocityTemperature {
  double u, v, t;
  State du, dv, dt;
};

VelocityTemperature velocity_temperature(const Viscosity& visc, const Gas& gas, const State& s) {
  const double rho = s[0], u = s[1] / rho, v = s[2] / rho, p = gas.pressure(s);
  const State dp = pressure_gradient(gas, s);
  const double g = gas.gamma / rho;
  return {u,
          v,
          visc.temperature(gas, s),
          {-u / rho, 1.0 / rho, 0.0, 0.0},
          {-v / rho, 0.0, 1.0 / rho, 0.0},
          {g * (dp[0] - p / rho), g * dp[1], g * dp[2], g * dp[3]}};
}

}  // namespace

State thin_layer_flux(const Viscosity& visc, const Gas& gas, const State& left, const State& right, double nx,
                      double ny, double dist, double mu) {
  const VelocityTemperature l = velocity_temperature(visc, gas, left), r = velocity_temperature(visc, gas, right);
  const double ax = (r.u - l.u) / dist, ay = (r.v - l.v) / dist, an = ax * nx + ay * ny;
  const double fx = mu * (ax + an * nx / 3.0), fy = mu * (ay + an * ny / 3.0);
  return {0.0, fx, fy, 0.5 * (fx * (l.u + r.u) + fy * (l.v + r.v)) + visc.conductivity(mu) * (r.t - l.t) / dist};
}

FluxJacobians thin_layer_jacobians(const Viscosity& visc, const Gas& gas, const State& left, const State& right,
                                   double nx, double ny, double dist, double mu) {
  const VelocityTemperature l = velocity_temperature(visc, gas, left), r = velocity_temperature(visc, gas, right);
  const double ax = (r.u - l.u) / dist, ay = (r.v - l.v) / dist, an = ax * nx + ay * ny;
  const double fx = mu * (ax + an * nx / 3.0), fy = mu * (ay + an * ny / 3.0);
  const double ubar = 0.5 * (l.u + r.u), vbar = 0.5 * (l.v + r.v), k = visc.conductivity(mu);
  FluxJacobians j;
  // side: +1 for the right state (d/dn = +1/dist), -1 for the left one.
  const auto fill = [&](Block& b, const VelocityTemperature& q, double side) {
    for (int m = 0; m < num_vars; ++m) {
      const double dax = side * q.du[m] / dist, day = side * q.dv[m] / dist, dan = dax * nx + day * ny;
      const double dfx = mu * (dax + dan * nx / 3.0), dfy = mu * (day + dan * ny / 3.0);
      b[0 * num_vars + m] = 0.0;
      b[1 * num_vars + m] = dfx;
      b[2 * num_vars + m] = dfy;
      b[3 * num_vars + m] = dfx * ubar + dfy * vbar + 0.5 * (fx * q.du[m] + fy * q.dv[m]) + side * k * q.dt[m] / dist;
    }
  };
  fill(j.left, l, -1.0);
  fill(j.right, r, 1.0);
  return j;
}

}  // namespace tb::compressible
