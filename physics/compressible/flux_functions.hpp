#pragma once
// The inviscid fluxes, their Jacobians and the boundary fluxes as inline
// functions callable on the host and on a CUDA device (TB_HOST_DEVICE): the one
// arithmetic behind fluxes.hpp and boundary_conditions.hpp (their functions call
// these) and behind the face loops of kernels.hpp, so a device run evaluates
// the very flux the host does.
#include <algorithm>
#include <array>
#include <cmath>

#include "physics/compressible/dual.hpp"
#include "physics/compressible/fluxes.hpp"
#include "solvers/core/host_device.hpp"

namespace tb::compressible {

enum class BoundaryKind { FarField, SlipWall, NoSlipAdiabatic, NoSlipIsothermal };
// The inviscid flux of a slip wall: the scheme's flux against the mirror state,
// or the inner pressure alone (boundary_conditions.hpp).
enum class WallFlux { Mirror, Pressure };

TB_HOST_DEVICE inline bool is_wall(BoundaryKind k) { return k != BoundaryKind::FarField; }
TB_HOST_DEVICE inline bool is_no_slip(BoundaryKind k) {
  return k == BoundaryKind::NoSlipAdiabatic || k == BoundaryKind::NoSlipIsothermal;
}

namespace flux_bodies {

// d(|u . n| + c)/dU of one state.
TB_HOST_DEVICE inline State spectral_radius_gradient(const Gas& gas, const State& s, double nx, double ny) {
  const double rho = s[0], u = s[1] / rho, v = s[2] / rho, p = gas.pressure(s);
  const double un = u * nx + v * ny, c = gas.sound_speed(rho, p);
  const double sign = un > 0.0 ? 1.0 : (un < 0.0 ? -1.0 : 0.0);
  const State dp = pressure_gradient(gas, s);
  // c = sqrt(gamma p / rho): dc = gamma / (2 c rho) (dp - p / rho drho).
  const double k = gas.gamma / (2.0 * c * rho);
  return {sign * (-un / rho) + k * (dp[0] - p / rho), sign * nx / rho + k * dp[1], sign * ny / rho + k * dp[2],
          k * dp[3]};
}

// The fluxes once, on the scalar type T: double for the residual, Dual<8> for
// the Jacobians (dual.hpp). Every comparison looks at values only, so the
// derivative follows the branch the residual takes.
template <class T>
using StateT = std::array<T, num_vars>;

template <class T>
struct PrimitiveT {
  T rho, u, v, p;
};

template <class T>
TB_HOST_DEVICE inline PrimitiveT<T> primitive_t(double gamma, const StateT<T>& s) {
  const T u = s[1] / s[0], v = s[2] / s[0];
  return {s[0], u, v, (gamma - 1.0) * (s[3] - 0.5 * (s[1] * s[1] + s[2] * s[2]) / s[0])};
}

template <class T>
TB_HOST_DEVICE inline StateT<T> physical_flux_t(const StateT<T>& s, const PrimitiveT<T>& w, double nx, double ny) {
  const T un = w.u * nx + w.v * ny;
  return {s[0] * un, s[1] * un + w.p * nx, s[2] * un + w.p * ny, (s[3] + w.p) * un};
}

template <class T>
TB_HOST_DEVICE inline T harten_t(const T& lambda, const T& delta) {
  using std::abs;
  const T a = abs(lambda);
  return value(a) >= value(delta) ? a : (lambda * lambda + delta * delta) / (2.0 * delta);
}

// Rieper's scaling of the normal-velocity jump (RoeDissipation::low_mach_floor).
template <class T>
TB_HOST_DEVICE inline T low_mach_scale(const Gas& gas, const PrimitiveT<T>& l, const PrimitiveT<T>& r, double floor) {
  if (floor >= 1.0) return T(1.0);
  const T ml2 = (l.u * l.u + l.v * l.v) * l.rho / (gas.gamma * l.p);
  const T mr2 = (r.u * r.u + r.v * r.v) * r.rho / (gas.gamma * r.p);
  const T m2 = value(ml2) > value(mr2) ? ml2 : mr2;
  if (value(m2) >= 1.0) return T(1.0);
  // At or below the floor z is constant: no square root of zero in the Jacobian.
  if (value(m2) <= floor * floor) return T(floor);
  using std::sqrt;
  return sqrt(m2);
}

template <class T>
TB_HOST_DEVICE inline StateT<T> roe_flux_t(const Gas& gas, const StateT<T>& left, const StateT<T>& right, double nx,
                                           double ny, RoeDissipation fix) {
  using std::abs, std::sqrt;
  const PrimitiveT<T> l = primitive_t(gas.gamma, left), r = primitive_t(gas.gamma, right);
  const T hl = (left[3] + l.p) / l.rho, hr = (right[3] + r.p) / r.rho;
  // Roe averages.
  const T sl = sqrt(l.rho), sr = sqrt(r.rho), w = 1.0 / (sl + sr);
  const T rho = sl * sr, u = (sl * l.u + sr * r.u) * w, v = (sl * l.v + sr * r.v) * w;
  const T h = (sl * hl + sr * hr) * w, half_q2 = 0.5 * (u * u + v * v);
  const T c2 = (gas.gamma - 1.0) * (h - half_q2);
  const T c = value(c2) > 1e-300 ? sqrt(c2) : T(std::sqrt(1e-300));
  const T un = u * nx + v * ny, ut = -u * ny + v * nx;
  // Jumps and wave strengths: acoustic (un - c), entropy (un), shear (un), acoustic (un + c).
  const T dp = r.p - l.p, drho = r.rho - l.rho;
  const T dun = (r.u - l.u) * nx + (r.v - l.v) * ny, dut = -(r.u - l.u) * ny + (r.v - l.v) * nx;
  const T z = low_mach_scale(gas, l, r, fix.low_mach_floor);
  const T a1 = (dp - rho * c * z * dun) / (2.0 * c * c), a2 = drho - dp / (c * c), a3 = rho * dut;
  const T a4 = (dp + rho * c * z * dun) / (2.0 * c * c);
  const T delta = fix.fraction * (abs(un) + c);
  // Only the genuinely nonlinear (acoustic) fields can form expansion shocks;
  // by default the linear fields keep |u . n| so that a stationary contact stays
  // exact (RoeDissipation::all_waves gives them the fix too).
  const T l1 = harten_t(T(un - c), delta), l4 = harten_t(T(un + c), delta);
  const T l2 = fix.all_waves ? harten_t(un, delta) : abs(un);

  const StateT<T> fl = physical_flux_t(left, l, nx, ny), fr = physical_flux_t(right, r, nx, ny);
  const StateT<T> r1 = {T(1.0), u - c * nx, v - c * ny, h - c * un};
  const StateT<T> r2 = {T(1.0), u, v, half_q2};
  const StateT<T> r3 = {T(0.0), T(-ny), T(nx), ut};
  const StateT<T> r4 = {T(1.0), u + c * nx, v + c * ny, h + c * un};
  const T w1 = l1 * a1, w2 = l2 * a2, w3 = l2 * a3, w4 = l4 * a4;
  StateT<T> f;
  for (int k = 0; k < num_vars; ++k)
    f[k] = 0.5 * (fl[k] + fr[k]) - 0.5 * (w1 * r1[k] + w2 * r2[k] + w3 * r3[k] + w4 * r4[k]);
  return f;
}

template <class T>
TB_HOST_DEVICE inline StateT<T> hllc_flux_t(const Gas& gas, const StateT<T>& left, const StateT<T>& right, double nx,
                                            double ny) {
  using std::sqrt;
  const PrimitiveT<T> l = primitive_t(gas.gamma, left), r = primitive_t(gas.gamma, right);
  const T unl = l.u * nx + l.v * ny, unr = r.u * nx + r.v * ny;
  const T cl = sqrt(gas.gamma * l.p / l.rho), cr = sqrt(gas.gamma * r.p / r.rho);
  // Roe averages for Einfeldt's wave-speed estimates.
  const T sl_ = sqrt(l.rho), sr_ = sqrt(r.rho), w = 1.0 / (sl_ + sr_);
  const T u = (sl_ * l.u + sr_ * r.u) * w, v = (sl_ * l.v + sr_ * r.v) * w;
  const T h = (sl_ * (left[3] + l.p) / l.rho + sr_ * (right[3] + r.p) / r.rho) * w;
  const T c2 = (gas.gamma - 1.0) * (h - 0.5 * (u * u + v * v));
  const T c = value(c2) > 1e-300 ? sqrt(c2) : T(std::sqrt(1e-300));
  const T un = u * nx + v * ny;
  const T sa = unl - cl, sb = un - c, sc = unr + cr, sd = un + c;
  const T s_left = value(sa) <= value(sb) ? sa : sb, s_right = value(sc) >= value(sd) ? sc : sd;
  if (value(s_left) >= 0.0) return physical_flux_t(left, l, nx, ny);
  if (value(s_right) <= 0.0) return physical_flux_t(right, r, nx, ny);
  const T ml = l.rho * (s_left - unl), mr = r.rho * (s_right - unr);
  const T s_star = (r.p - l.p + ml * unl - mr * unr) / (ml - mr);
  // The star state on side K: the normal velocity becomes S*, the tangential one is kept.
  const auto star_flux = [&](const StateT<T>& s, const PrimitiveT<T>& p, const T& unk, const T& sk) {
    const T k = p.rho * (sk - unk) / (sk - s_star), dun = s_star - unk;
    const StateT<T> star = {k, k * (p.u + dun * nx), k * (p.v + dun * ny),
                            k * (s[3] / p.rho + dun * (s_star + p.p / (p.rho * (sk - unk))))};
    StateT<T> f = physical_flux_t(s, p, nx, ny);
    for (std::size_t i = 0; i < num_vars; ++i) f[i] = f[i] + sk * (star[i] - s[i]);
    return f;
  };
  return value(s_star) >= 0.0 ? star_flux(left, l, unl, s_left) : star_flux(right, r, unr, s_right);
}

using Dual8 = Dual<2 * num_vars>;

// The flux of `f` on dual states seeded on the left (directions 0-3) and the
// right (4-7) variables, unpacked into the two 4 x 4 blocks.
template <class F>
TB_HOST_DEVICE inline FluxJacobians dual_jacobians(const State& left, const State& right, F f) {
  StateT<Dual8> l, r;
  for (int k = 0; k < num_vars; ++k) {
    l[k] = Dual8::seed(left[k], k);
    r[k] = Dual8::seed(right[k], num_vars + k);
  }
  const StateT<Dual8> flux = f(l, r);
  FluxJacobians j;
  for (int k = 0; k < num_vars; ++k)
    for (int m = 0; m < num_vars; ++m) {
      j.left[k * num_vars + m] = flux[k].d[m];
      j.right[k * num_vars + m] = flux[k].d[num_vars + m];
    }
  return j;
}

TB_HOST_DEVICE inline double spectral_radius(const Gas& gas, const State& s, double nx, double ny) {
  const double un = (s[1] * nx + s[2] * ny) / s[0];
  return std::abs(un) + gas.sound_speed(s[0], gas.pressure(s));
}

TB_HOST_DEVICE inline Block physical_flux_jacobian(const Gas& gas, const State& s, double nx, double ny) {
  const double u = s[1] / s[0], v = s[2] / s[0], p = gas.pressure(s);
  const double g1 = gas.gamma - 1.0, un = u * nx + v * ny, half_q2 = 0.5 * (u * u + v * v);
  const double h = (s[3] + p) / s[0];
  return {0.0,
          nx,
          ny,
          0.0,
          g1 * half_q2 * nx - u * un,
          un + u * nx - g1 * u * nx,
          u * ny - g1 * v * nx,
          g1 * nx,
          g1 * half_q2 * ny - v * un,
          v * nx - g1 * u * ny,
          un + v * ny - g1 * v * ny,
          g1 * ny,
          un * (g1 * half_q2 - h),
          h * nx - g1 * u * un,
          h * ny - g1 * v * un,
          gas.gamma * un};
}

TB_HOST_DEVICE inline State rusanov_flux(const Gas& gas, const State& left, const State& right, double nx, double ny) {
  const double lambda =
      std::max(flux_bodies::spectral_radius(gas, left, nx, ny), flux_bodies::spectral_radius(gas, right, nx, ny));
  const State fl = physical_flux(gas, left, nx, ny), fr = physical_flux(gas, right, nx, ny);
  State f;
  for (int k = 0; k < num_vars; ++k) f[k] = 0.5 * (fl[k] + fr[k]) - 0.5 * lambda * (right[k] - left[k]);
  return f;
}

TB_HOST_DEVICE inline State numerical_flux(FluxScheme scheme, const Gas& gas, const State& left, const State& right,
                                           double nx, double ny, RoeDissipation fix) {
  switch (scheme) {
    case FluxScheme::Roe:
      return roe_flux_t<double>(gas, left, right, nx, ny, fix);
    case FluxScheme::Hllc:
      return hllc_flux_t<double>(gas, left, right, nx, ny);
    case FluxScheme::Rusanov:
      break;
  }
  return flux_bodies::rusanov_flux(gas, left, right, nx, ny);
}

TB_HOST_DEVICE inline FluxJacobians rusanov_flux_jacobians(const Gas& gas, const State& left, const State& right,
                                                           double nx, double ny) {
  const double sl = flux_bodies::spectral_radius(gas, left, nx, ny),
               sr = flux_bodies::spectral_radius(gas, right, nx, ny);
  const bool left_max = sl >= sr;
  const double lambda = left_max ? sl : sr;
  const State dlambda = flux_bodies::spectral_radius_gradient(gas, left_max ? left : right, nx, ny);
  FluxJacobians j{flux_bodies::physical_flux_jacobian(gas, left, nx, ny),
                  flux_bodies::physical_flux_jacobian(gas, right, nx, ny)};
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

TB_HOST_DEVICE inline FluxJacobians roe_flux_jacobians(const Gas& gas, const State& left, const State& right, double nx,
                                                       double ny, RoeDissipation fix) {
  return dual_jacobians(
      left, right, [&](const StateT<Dual8>& l, const StateT<Dual8>& r) { return roe_flux_t(gas, l, r, nx, ny, fix); });
}

TB_HOST_DEVICE inline FluxJacobians hllc_flux_jacobians(const Gas& gas, const State& left, const State& right,
                                                        double nx, double ny) {
  return dual_jacobians(left, right,
                        [&](const StateT<Dual8>& l, const StateT<Dual8>& r) { return hllc_flux_t(gas, l, r, nx, ny); });
}

TB_HOST_DEVICE inline FluxJacobians flux_jacobians(FluxScheme scheme, const Gas& gas, const State& left,
                                                   const State& right, double nx, double ny, RoeDissipation fix) {
  switch (scheme) {
    case FluxScheme::Roe:
      return flux_bodies::roe_flux_jacobians(gas, left, right, nx, ny, fix);
    case FluxScheme::Hllc:
      return flux_bodies::hllc_flux_jacobians(gas, left, right, nx, ny);
    case FluxScheme::Rusanov:
      break;
  }
  return flux_bodies::rusanov_flux_jacobians(gas, left, right, nx, ny);
}

TB_HOST_DEVICE inline State mirrored(const State& s, double nx, double ny) {
  const double mn = s[1] * nx + s[2] * ny;
  return {s[0], s[1] - 2.0 * mn * nx, s[2] - 2.0 * mn * ny, s[3]};
}

TB_HOST_DEVICE inline State boundary_flux(BoundaryKind kind, FluxScheme scheme, const Gas& gas, const State& inner,
                                          const State& free_stream, double nx, double ny, WallFlux wall,
                                          RoeDissipation fix) {
  if (!is_wall(kind)) return flux_bodies::numerical_flux(scheme, gas, inner, free_stream, nx, ny, fix);
  if (wall == WallFlux::Mirror) {
    State f = flux_bodies::numerical_flux(scheme, gas, inner, flux_bodies::mirrored(inner, nx, ny), nx, ny, fix);
    // Zero in exact arithmetic for every scheme (the mirror has the same density
    // and energy and the opposite normal velocity); made exact so that the walls
    // conserve mass and energy to the bit.
    f[0] = 0.0, f[3] = 0.0;
    return f;
  }
  const double p = gas.pressure(inner);
  return {0.0, p * nx, p * ny, 0.0};
}

TB_HOST_DEVICE inline Block boundary_flux_jacobian(BoundaryKind kind, FluxScheme scheme, const Gas& gas,
                                                   const State& inner, const State& free_stream, double nx, double ny,
                                                   WallFlux wall, RoeDissipation fix) {
  if (!is_wall(kind)) return flux_bodies::flux_jacobians(scheme, gas, inner, free_stream, nx, ny, fix).left;
  if (wall == WallFlux::Mirror) {
    const FluxJacobians j =
        flux_bodies::flux_jacobians(scheme, gas, inner, flux_bodies::mirrored(inner, nx, ny), nx, ny, fix);
    // M = I except the momentum block I - 2 n n^T.
    const double m[2][2] = {{1.0 - 2.0 * nx * nx, -2.0 * nx * ny}, {-2.0 * nx * ny, 1.0 - 2.0 * ny * ny}};
    Block d = j.left;
    for (int k = 1; k < 3; ++k) {  // mass and energy rows are zero (boundary_flux)
      d[k * num_vars + 0] += j.right[k * num_vars + 0];
      d[k * num_vars + 3] += j.right[k * num_vars + 3];
      for (int a = 0; a < 2; ++a)
        for (int b = 0; b < 2; ++b) d[k * num_vars + 1 + b] += j.right[k * num_vars + 1 + a] * m[a][b];
    }
    for (int k = 0; k < num_vars; k += num_vars - 1)  // rows 0 and 3
      for (int c = 0; c < num_vars; ++c) d[k * num_vars + c] = 0.0;
    return d;
  }
  const State dp = pressure_gradient(gas, inner);
  Block j{};
  for (int m = 0; m < num_vars; ++m) {
    j[num_vars + m] = dp[m] * nx;
    j[2 * num_vars + m] = dp[m] * ny;
  }
  return j;
}

}  // namespace flux_bodies
}  // namespace tb::compressible
