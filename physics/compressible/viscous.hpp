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
// (rho, u, v, p) in the layout of gradients.hpp (d/dx, d/dy of each):
// T = gamma p / rho, so grad T = gamma (grad p / rho - p grad rho / rho^2).
VelocityTemperatureGradients velocity_temperature_gradients(double rho, double p,
                                                            const std::array<double, 2 * num_vars>& g, double gamma);

// The viscous flux F_v . n = (0, tau n, (tau n) . u + k grad T . n) with
// tau = mu (grad u + grad u^T - 2/3 div u I), mu and k at temperature t.
State viscous_flux(const Viscosity& visc, const VelocityTemperatureGradients& g, double u, double v, double t,
                   double nx, double ny);

// The thin-layer first-order viscous flux between two states a distance `dist`
// apart along n: only normal derivatives, d q / dn = (q_R - q_L) / dist, so
//   tau n = mu (du/dn + 1/3 (du/dn . n) n),  energy: (tau n) . (u_L + u_R)/2 + k dT/dn,
// with mu and k given (frozen). The Jacobian of the seed (§2) linearises this.
State thin_layer_flux(const Viscosity& visc, const Gas& gas, const State& left, const State& right, double nx,
                      double ny, double dist, double mu);
// Its exact derivatives with respect to both states (mu, k frozen).
FluxJacobians thin_layer_jacobians(const Viscosity& visc, const Gas& gas, const State& left, const State& right,
                                   double nx, double ny, double dist, double mu);

}  // namespace tb::compressible
