#pragma once
// Numerical fluxes of the inviscid terms through a face with unit normal n
// pointing from the left state to the right one. Both are consistent:
// F(U, U, n) equals the physical flux F(U) . n.
#include <string>

#include "physics/compressible/gas.hpp"

namespace tb::compressible {

enum class FluxScheme { Roe, Hllc, Rusanov };

// "roe", "hllc" or "rusanov"; anything else is a tb::Error naming them.
FluxScheme parse_flux_scheme(const std::string& name);
std::string flux_scheme_name(FluxScheme scheme);

// Roe's approximate Riemann solver with Harten's entropy fix: an acoustic eigenvalue
// with |lambda| < delta becomes (lambda^2 + delta^2) / (2 delta), delta = entropy_fix
// * (|u~ . n| + c~), so expansion shocks at sonic points are not admitted.
State roe_flux(const Gas& gas, const State& left, const State& right, double nx, double ny, double entropy_fix = 0.1);

// HLLC (Toro, Spruce & Speares 1994): two acoustic waves with Einfeldt's speed
// estimates S_L = min(u_L.n - c_L, u~.n - c~), S_R = max(u_R.n + c_R, u~.n + c~)
// and the contact wave S* between them; exact for isolated contacts and shear.
State hllc_flux(const Gas& gas, const State& left, const State& right, double nx, double ny);

// Rusanov (local Lax-Friedrichs): central flux plus lambda_max / 2 (U_L - U_R),
// lambda_max = max over both sides of |u . n| + c.
State rusanov_flux(const Gas& gas, const State& left, const State& right, double nx, double ny);

State numerical_flux(FluxScheme scheme, const Gas& gas, const State& left, const State& right, double nx, double ny);

// |u . n| + c of one state: the spectral radius of its normal flux Jacobian (seed Eq. 4).
double spectral_radius(const Gas& gas, const State& s, double nx, double ny);

// The exact derivatives of rusanov_flux with respect to both states, including
// the derivative of lambda_max (taken from the side that attains the maximum).
struct FluxJacobians {
  Block left{};
  Block right{};
};
FluxJacobians rusanov_flux_jacobians(const Gas& gas, const State& left, const State& right, double nx, double ny);

// The exact derivatives of roe_flux (Harten's entropy fix included, with the
// same entropy_fix) and of hllc_flux with respect to both states: forward-mode
// differentiation (dual.hpp) of the very functions the residual evaluates, so
// every branch (entropy fix, wave-speed minima, the HLLC star side) is the one
// the residual takes at these states.
FluxJacobians roe_flux_jacobians(const Gas& gas, const State& left, const State& right, double nx, double ny,
                                 double entropy_fix = 0.1);
FluxJacobians hllc_flux_jacobians(const Gas& gas, const State& left, const State& right, double nx, double ny);
// The Jacobians of numerical_flux(scheme, ...).
FluxJacobians flux_jacobians(FluxScheme scheme, const Gas& gas, const State& left, const State& right, double nx,
                             double ny);

}  // namespace tb::compressible
