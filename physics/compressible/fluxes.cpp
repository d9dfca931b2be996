#include "physics/compressible/fluxes.hpp"

#include <algorithm>
#include <cmath>

#include "solvers/core/error.hpp"

namespace tb::compressible {

FluxScheme parse_flux_scheme(const std::string& name) {
  if (name == "roe") return FluxScheme::Roe;
  if (name == "hllc") return FluxScheme::Hllc;
  if (name == "rusanov") return FluxScheme::Rusanov;
  throw Error("unknown flux '" + name + "': expected roe, hllc or rusanov");
}

std::string flux_scheme_name(FluxScheme scheme) {
  return scheme == FluxScheme::Roe ? "roe" : (scheme == FluxScheme::Hllc ? "hllc" : "rusanov");
}

namespace {

double harten(double lambda, double delta) {
  const double a = std::abs(lambda);
  return a >= delta ? a : (lambda * lambda + delta * delta) / (2.0 * delta);
}

// d(|u . n| + c)/dU of one state.
State spectral_radius_gradient(const Gas& gas, const State& s, double nx, double ny) {
  const double rho = s[0], u = s[1] / rho, v = s[2] / rho, p = gas.pressure(s);
  const double un = u * nx + v * ny, c = gas.sound_speed(rho, p);
  const double sign = un > 0.0 ? 1.0 : (un < 0.0 ? -1.0 : 0.0);
  const State dp = pressure_gradient(gas, s);
  // c = sqrt(gamma p / rho): dc = gamma / (2 c rho) (dp - p / rho drho).
  const double k = gas.gamma / (2.0 * c * rho);
  return {sign * (-un / rho) + k * (dp[0] - p / rho), sign * nx / rho + k * dp[1], sign * ny / rho + k * dp[2],
          k * dp[3]};
}

}  // namespace

double spectral_radius(const Gas& gas, const State& s, double nx, double ny) {
  const double un = (s[1] * nx + s[2] * ny) / s[0];
  return std::abs(un) + gas.sound_speed(s[0], gas.pressure(s));
}

State roe_flux(const Gas& gas, const State& left, const State& right, double nx, double ny, double entropy_fix) {
  const Primitive l = gas.primitive(left), r = gas.primitive(right);
  const double hl = (left[3] + l.p) / l.rho, hr = (right[3] + r.p) / r.rho;
  // Roe averages.
  const double sl = std::sqrt(l.rho), sr = std::sqrt(r.rho), w = 1.0 / (sl + sr);
  const double rho = sl * sr, u = (sl * l.u + sr * r.u) * w, v = (sl * l.v + sr * r.v) * w;
  const double h = (sl * hl + sr * hr) * w, half_q2 = 0.5 * (u * u + v * v);
  const double c = std::sqrt(std::max((gas.gamma - 1.0) * (h - half_q2), 1e-300));
  const double un = u * nx + v * ny, ut = -u * ny + v * nx;
  // Jumps and wave strengths: acoustic (un - c), entropy (un), shear (un), acoustic (un + c).
  const double dp = r.p - l.p, drho = r.rho - l.rho;
  const double dun = (r.u - l.u) * nx + (r.v - l.v) * ny, dut = -(r.u - l.u) * ny + (r.v - l.v) * nx;
  const double a1 = (dp - rho * c * dun) / (2.0 * c * c), a2 = drho - dp / (c * c), a3 = rho * dut;
  const double a4 = (dp + rho * c * dun) / (2.0 * c * c);
  const double delta = entropy_fix * (std::abs(un) + c);
  // Only the genuinely nonlinear (acoustic) fields can form expansion shocks;
  // the linear fields keep |u . n| so that a stationary contact stays exact.
  const double l1 = harten(un - c, delta), l2 = std::abs(un), l4 = harten(un + c, delta);

  const State fl = physical_flux(gas, left, nx, ny), fr = physical_flux(gas, right, nx, ny);
  const State r1 = {1.0, u - c * nx, v - c * ny, h - c * un};
  const State r2 = {1.0, u, v, half_q2};
  const State r3 = {0.0, -ny, nx, ut};
  const State r4 = {1.0, u + c * nx, v + c * ny, h + c * un};
  State f;
  for (int k = 0; k < num_vars; ++k)
    f[k] = 0.5 * (fl[k] + fr[k]) - 0.5 * (l1 * a1 * r1[k] + l2 * (a2 * r2[k] + a3 * r3[k]) + l4 * a4 * r4[k]);
  return f;
}

State hllc_flux(const Gas& gas, const State& left, const State& right, double nx, double ny) {
  const Primitive l = gas.primitive(left), r = gas.primitive(right);
  const double unl = l.u * nx + l.v * ny, unr = r.u * nx + r.v * ny;
  const double cl = gas.sound_speed(l.rho, l.p), cr = gas.sound_speed(r.rho, r.p);
  // Roe averages for Einfeldt's wave-speed estimates.
  const double sl_ = std::sqrt(l.rho), sr_ = std::sqrt(r.rho), w = 1.0 / (sl_ + sr_);
  const double u = (sl_ * l.u + sr_ * r.u) * w, v = (sl_ * l.v + sr_ * r.v) * w;
  const double h = (sl_ * (left[3] + l.p) / l.rho + sr_ * (right[3] + r.p) / r.rho) * w;
  const double c = std::sqrt(std::max((gas.gamma - 1.0) * (h - 0.5 * (u * u + v * v)), 1e-300));
  const double un = u * nx + v * ny;
  const double s_left = std::min(unl - cl, un - c), s_right = std::max(unr + cr, un + c);
  if (s_left >= 0.0) return physical_flux(gas, left, nx, ny);
  if (s_right <= 0.0) return physical_flux(gas, right, nx, ny);
  const double ml = l.rho * (s_left - unl), mr = r.rho * (s_right - unr);
  const double s_star = (r.p - l.p + ml * unl - mr * unr) / (ml - mr);
  // The star state on side K: the normal velocity becomes S*, the tangential one is kept.
  const auto star_flux = [&](const State& s, const Primitive& p, double unk, double sk) {
    const double k = p.rho * (sk - unk) / (sk - s_star), dun = s_star - unk;
    const State star = {k, k * (p.u + dun * nx), k * (p.v + dun * ny),
                        k * (s[3] / p.rho + dun * (s_star + p.p / (p.rho * (sk - unk))))};
    State f = physical_flux(gas, s, nx, ny);
    for (std::size_t i = 0; i < num_vars; ++i) f[i] += sk * (star[i] - s[i]);
    return f;
  };
  return s_star >= 0.0 ? star_flux(left, l, unl, s_left) : star_flux(right, r, unr, s_right);
}

State rusanov_flux(const Gas& gas, const State& left, const State& right, double nx, double ny) {
  const double lambda = std::max(spectral_radius(gas, left, nx, ny), spectral_radius(gas, right, nx, ny));
  const State fl = physical_flux(gas, left, nx, ny), fr = physical_flux(gas, right, nx, ny);
  State f;
  for (int k = 0; k < num_vars; ++k) f[k] = 0.5 * (fl[k] + fr[k]) - 0.5 * lambda * (right[k] - left[k]);
  return f;
}

State numerical_flux(FluxScheme scheme, const Gas& gas, const State& left, const State& right, double nx, double ny) {
  switch (scheme) {
    case FluxScheme::Roe:
      return roe_flux(gas, left, right, nx, ny);
    case FluxScheme::Hllc:
      return hllc_flux(gas, left, right, nx, ny);
    case FluxScheme::Rusanov:
      break;
  }
  return rusanov_flux(gas, left, right, nx, ny);
}

FluxJacobians rusanov_flux_jacobians(const Gas& gas, const State& left, const State& right, double nx, double ny) {
  const double sl = spectral_radius(gas, left, nx, ny), sr = spectral_radius(gas, right, nx, ny);
  const bool left_max = sl >= sr;
  const double lambda = left_max ? sl : sr;
  const State dlambda = spectral_radius_gradient(gas, left_max ? left : right, nx, ny);
  FluxJacobians j{physical_flux_jacobian(gas, left, nx, ny), physical_flux_jacobian(gas, right, nx, ny)};
  for (int k = 0; k < num_vars * num_vars; ++k) j.left[k] *= 0.5, j.right[k] *= 0.5;
  for (int k = 0; k < num_vars; ++k) {
    j.left[k * num_vars + k] += 0.5 * lambda;
    j.right[k * num_vars + k] -= 0.5 * lambda;
  }
  Block& with_max = left_max ? j.left : j.right;
  for (int k = 0; k < num_vars; ++k)
    for (int m = 0; m < num_vars; ++m) with_max[k * num_vars + m] -= 0.5 * (right[k] - left[k]) * dlambda[m];
  return j;
}

}  // namespace tb::compressible
