#pragma once
// The force of the fluid on a sphere from the immersed-boundary fields, by
// quadrature over the analytic surface (equal-area bands in cos(theta), uniform
// in phi). At each surface point the fields are probed along the normal at
// delta and 2 delta (delta = the finest cell width near the body) by trilinear
// interpolation, which reads fluid and ghost cells:
//   pressure  p_s = (4 p_1 - p_2) / 3          (quadratic with dp/dn = 0 at the wall)
//   shear     du/dn = (4 (u_1 - u_b) - (u_2 - u_b)) / (2 delta)   (one-sided, second order)
// and the traction is -p_s n + mu du/dn: on a rigid no-slip wall the
// transposed gradient term of the viscous stress vanishes (continuity).
// Decomposed (docs/distributed.md): each rank takes the surface points in its owned z
// planes (its probes stay within its ghost planes) and the sums are reduced.
#include "physics/immersed/fractional_step.hpp"

namespace tb::immersed {

struct SurfaceForce {
  Vec3 pressure{};
  Vec3 viscous{};
  Vec3 total() const { return pressure + viscous; }
};

SurfaceForce sphere_force(const ImmersedFlow& flow, const Sphere& sphere, int bands = 48, int sectors = 96);

// Cd = F_x / (0.5 rho U^2 pi R^2) with U = |free stream|.
double drag_coefficient(const ImmersedFlow& flow, const Sphere& sphere, const SurfaceForce& f);

}  // namespace tb::immersed
