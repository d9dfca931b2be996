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

// The dissipation of the Roe flux, beyond Roe's own |A~|.
//
// Harten's entropy fix: an eigenvalue with |lambda| < delta becomes
// (lambda^2 + delta^2) / (2 delta), delta = fraction * (|u~ . n| + c~). It applies to
// the acoustic waves, so expansion shocks at sonic points are not admitted, and
// with all_waves also to the entropy and shear waves, which otherwise carry no
// dissipation where u~ . n vanishes (stagnation points, the wake behind a trailing
// edge), and the second-order iteration stalls there (docs/compressible.md). It
// costs the exactness of stationary contacts.
//
// The low-Mach fix after Rieper (J. Comput. Phys. 230, 2011): the jump of the
// normal velocity in the acoustic wave strengths is multiplied by
// z = min(1, max(M_L, M_R, low_mach_floor)), M = |u| / c of each side. Roe's
// dissipation of that jump grows like 1/M as the Mach number falls (in a boundary
// layer, at a stagnation point); z brings it back to the order of the other
// terms. The floor keeps a share of it where the flow stops (at a no-slip wall
// M = 0), so that pressure and velocity stay coupled. 1 (the default): off, Roe's
// flux as published.
struct RoeDissipation {
  double fraction = 0.1;
  bool all_waves = false;
  double low_mach_floor = 1.0;
};

// Roe's approximate Riemann solver with Harten's entropy fix and, if asked, the
// low-Mach fix (RoeDissipation).
State roe_flux(const Gas& gas, const State& left, const State& right, double nx, double ny, RoeDissipation fix = {});

// HLLC (Toro, Spruce & Speares 1994): two acoustic waves with Einfeldt's speed
// estimates S_L = min(u_L.n - c_L, u~.n - c~), S_R = max(u_R.n + c_R, u~.n + c~)
// and the contact wave S* between them; exact for isolated contacts and shear.
State hllc_flux(const Gas& gas, const State& left, const State& right, double nx, double ny);

// Rusanov (local Lax-Friedrichs): central flux plus lambda_max / 2 (U_L - U_R),
// lambda_max = max over both sides of |u . n| + c.
State rusanov_flux(const Gas& gas, const State& left, const State& right, double nx, double ny);

// `fix` applies to the Roe flux only.
State numerical_flux(FluxScheme scheme, const Gas& gas, const State& left, const State& right, double nx, double ny,
                     RoeDissipation fix = {});

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
// same RoeDissipation) and of hllc_flux with respect to both states: forward-mode
// differentiation (dual.hpp) of the very functions the residual evaluates, so
// every branch (entropy fix, wave-speed minima, the HLLC star side) is the one
// the residual takes at these states.
FluxJacobians roe_flux_jacobians(const Gas& gas, const State& left, const State& right, double nx, double ny,
                                 RoeDissipation fix = {});
FluxJacobians hllc_flux_jacobians(const Gas& gas, const State& left, const State& right, double nx, double ny);
// The Jacobians of numerical_flux(scheme, ...).
FluxJacobians flux_jacobians(FluxScheme scheme, const Gas& gas, const State& left, const State& right, double nx,
                             double ny, RoeDissipation fix = {});

}  // namespace tb::compressible
