#include "physics/compressible/fluxes.hpp"

#include <algorithm>
#include <cmath>

#include "physics/compressible/flux_functions.hpp"
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

double spectral_radius(const Gas& gas, const State& s, double nx, double ny) {
  return flux_bodies::spectral_radius(gas, s, nx, ny);
}

State roe_flux(const Gas& gas, const State& left, const State& right, double nx, double ny, RoeDissipation fix) {
  return flux_bodies::roe_flux_t<double>(gas, left, right, nx, ny, fix);
}

State hllc_flux(const Gas& gas, const State& left, const State& right, double nx, double ny) {
  return flux_bodies::hllc_flux_t<double>(gas, left, right, nx, ny);
}

State rusanov_flux(const Gas& gas, const State& left, const State& right, double nx, double ny) {
  return flux_bodies::rusanov_flux(gas, left, right, nx, ny);
}

State numerical_flux(FluxScheme scheme, const Gas& gas, const State& left, const State& right, double nx, double ny,
                     RoeDissipation fix) {
  return flux_bodies::numerical_flux(scheme, gas, left, right, nx, ny, fix);
}

FluxJacobians roe_flux_jacobians(const Gas& gas, const State& left, const State& right, double nx, double ny,
                                 RoeDissipation fix) {
  return flux_bodies::roe_flux_jacobians(gas, left, right, nx, ny, fix);
}

FluxJacobians hllc_flux_jacobians(const Gas& gas, const State& left, const State& right, double nx, double ny) {
  return flux_bodies::hllc_flux_jacobians(gas, left, right, nx, ny);
}

FluxJacobians rusanov_flux_jacobians(const Gas& gas, const State& left, const State& right, double nx, double ny) {
  return flux_bodies::rusanov_flux_jacobians(gas, left, right, nx, ny);
}

FluxJacobians flux_jacobians(FluxScheme scheme, const Gas& gas, const State& left, const State& right, double nx,
                             double ny, RoeDissipation fix) {
  return flux_bodies::flux_jacobians(scheme, gas, left, right, nx, ny, fix);
}

}  // namespace tb::compressible
