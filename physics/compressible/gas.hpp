#pragma once
// The ideal gas of the compressible solver (seed 001 §2): conserved variables
// U = (rho, rho u, rho v, rho E) per cell, p = (gamma - 1)(rho E - rho |u|^2 / 2).
// Non-dimensional free stream: rho = 1, c = 1 (p = 1 / gamma), |u| = Mach.
#include <array>
#include <cmath>
#include <span>
#include <vector>

#include "solvers/core/host_device.hpp"

namespace tb::compressible {

inline constexpr int num_vars = 4;
using State = std::array<double, num_vars>;
using Block = std::array<double, num_vars * num_vars>;  // row-major 4 x 4, as a BSR block

// The states as num_vars doubles per cell (a ghost exchange's view); empty for no cell.
inline std::span<double> doubles_of(std::vector<State>& v) {
  return v.empty() ? std::span<double>() : std::span<double>(v.front().data(), v.size() * num_vars);
}

struct Primitive {
  double rho = 0.0, u = 0.0, v = 0.0, p = 0.0;
};

struct Gas {
  double gamma = 1.4;

  TB_HOST_DEVICE double pressure(const State& s) const {
    return (gamma - 1.0) * (s[3] - 0.5 * (s[1] * s[1] + s[2] * s[2]) / s[0]);
  }
  TB_HOST_DEVICE Primitive primitive(const State& s) const { return {s[0], s[1] / s[0], s[2] / s[0], pressure(s)}; }
  TB_HOST_DEVICE State conserved(const Primitive& w) const {
    return {w.rho, w.rho * w.u, w.rho * w.v, w.p / (gamma - 1.0) + 0.5 * w.rho * (w.u * w.u + w.v * w.v)};
  }
  TB_HOST_DEVICE double sound_speed(double rho, double p) const { return std::sqrt(gamma * p / rho); }
  // Physically admissible: finite, positive density and pressure.
  TB_HOST_DEVICE bool admissible(const State& s) const {
    const double p = pressure(s);
    return std::isfinite(s[0]) && std::isfinite(s[1]) && std::isfinite(s[2]) && std::isfinite(p) && s[0] > 0.0 &&
           p > 0.0;
  }
  // The free stream at Mach number `mach` and angle of attack `alpha` (radians).
  State free_stream(double mach, double alpha) const {
    return conserved({1.0, mach * std::cos(alpha), mach * std::sin(alpha), 1.0 / gamma});
  }
};

// The physical flux F(U) . n (Blazek eq. 2.21 in 2D) for a unit normal n.
TB_HOST_DEVICE inline State physical_flux(const Gas& gas, const State& s, double nx, double ny) {
  const double u = s[1] / s[0], v = s[2] / s[0], p = gas.pressure(s);
  const double un = u * nx + v * ny;
  return {s[0] * un, s[1] * un + p * nx, s[2] * un + p * ny, (s[3] + p) * un};
}

// Its exact derivative dF/dU (row-major).
Block physical_flux_jacobian(const Gas& gas, const State& s, double nx, double ny);

// d p / d U.
TB_HOST_DEVICE inline State pressure_gradient(const Gas& gas, const State& s) {
  const double u = s[1] / s[0], v = s[2] / s[0], g1 = gas.gamma - 1.0;
  return {0.5 * g1 * (u * u + v * v), -g1 * u, -g1 * v, g1};
}

}  // namespace tb::compressible
