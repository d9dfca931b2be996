#pragma once
// Laminar viscous fluxes of the compressible Navier-Stokes equations (seed 001
// §2: ideal gas, Sutherland's law, constant Prandtl number, Fourier's law).
// Non-dimensional with the free stream: rho = 1, c = 1, T = gamma p / rho = 1,
// so R = 1/gamma, c_p = 1/(gamma - 1) and mu_inf = Mach / Re (unit reference length).
#include "physics/compressible/fluxes.hpp"

namespace tb::compressible {

struct Viscosity {
  double mu_inf = 0.0;  // 0: inviscid
  double prandtl = 0.72;
  double sutherland = 110.4 / 288.15;  // S / T_inf
  bool constant = false;               // mu = mu_inf at every temperature, in place of Sutherland's law
  double gamma = 1.4;

  TB_HOST_DEVICE bool enabled() const { return mu_inf > 0.0; }
  // Sutherland: mu / mu_inf = T^(3/2) (1 + S) / (T + S); mu_inf where constant.
  TB_HOST_DEVICE double mu(double t) const {
    return constant ? mu_inf : mu_inf * t * std::sqrt(t) * (1.0 + sutherland) / (t + sutherland);
  }
  TB_HOST_DEVICE double conductivity(double mu) const { return mu / ((gamma - 1.0) * prandtl); }
  TB_HOST_DEVICE double temperature(const Gas& gas, const State& s) const { return gas.gamma * gas.pressure(s) / s[0]; }
};

// Gradients of u, v and T at a face.
struct VelocityTemperatureGradients {
  double ux = 0, uy = 0, vx = 0, vy = 0, tx = 0, ty = 0;
};

// grad u, grad v, grad T from a point's density, pressure and the gradients of
// (rho, u, v, p) in the layout of gradients.hpp (d/dx, d/dy of each, 8 values):
// T = gamma p / rho, so grad T = gamma (grad p / rho - p grad rho / rho^2).
TB_HOST_DEVICE inline VelocityTemperatureGradients velocity_temperature_gradients(double rho, double p, const double* g,
                                                                                  double gamma) {
  return {g[2],
          g[3],
          g[4],
          g[5],
          gamma * (g[6] / rho - p * g[0] / (rho * rho)),
          gamma * (g[7] / rho - p * g[1] / (rho * rho))};
}

// The viscous flux F_v . n = (0, tau n, (tau n) . u + k grad T . n) with
// tau = mu (grad u + grad u^T - 2/3 div u I), mu and k at temperature t.
TB_HOST_DEVICE inline State viscous_flux(const Viscosity& visc, const VelocityTemperatureGradients& g, double u,
                                         double v, double t, double nx, double ny) {
  const double mu = visc.mu(t), k = visc.conductivity(mu);
  const double div = g.ux + g.vy;
  const double txx = mu * (2.0 * g.ux - 2.0 / 3.0 * div), tyy = mu * (2.0 * g.vy - 2.0 / 3.0 * div);
  const double txy = mu * (g.uy + g.vx);
  const double fx = txx * nx + txy * ny, fy = txy * nx + tyy * ny;
  return {0.0, fx, fy, fx * u + fy * v + k * (g.tx * nx + g.ty * ny)};
}

// u, v, T of a state and their derivatives with respect to the conserved variables.
struct VelocityTemperature {
  double u, v, t;
  State du, dv, dt;
};

TB_HOST_DEVICE inline VelocityTemperature velocity_temperature(const Viscosity& visc, const Gas& gas, const State& s) {
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

// The thin-layer first-order viscous flux between two states a distance `dist`
// apart along n: only normal derivatives, d q / dn = (q_R - q_L) / dist, so
//   tau n = mu (du/dn + 1/3 (du/dn . n) n),  energy: (tau n) . (u_L + u_R)/2 + k dT/dn,
// with mu and k given (frozen). The Jacobian of the seed (§2) linearises this.
TB_HOST_DEVICE inline State thin_layer_flux(const Viscosity& visc, const Gas& gas, const State& left,
                                            const State& right, double nx, double ny, double dist, double mu) {
  const VelocityTemperature l = velocity_temperature(visc, gas, left), r = velocity_temperature(visc, gas, right);
  const double ax = (r.u - l.u) / dist, ay = (r.v - l.v) / dist, an = ax * nx + ay * ny;
  const double fx = mu * (ax + an * nx / 3.0), fy = mu * (ay + an * ny / 3.0);
  return {0.0, fx, fy, 0.5 * (fx * (l.u + r.u) + fy * (l.v + r.v)) + visc.conductivity(mu) * (r.t - l.t) / dist};
}
// Its exact derivatives with respect to both states (mu, k frozen).
TB_HOST_DEVICE inline FluxJacobians thin_layer_jacobians(const Viscosity& visc, const Gas& gas, const State& left,
                                                         const State& right, double nx, double ny, double dist,
                                                         double mu) {
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
