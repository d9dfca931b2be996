#pragma once
// The force of the fluid on a sphere from the immersed-boundary fields, by
// quadrature over the analytic surface (equal-area bands in cos(theta), uniform
// in phi). At each surface point the wall-constrained quadratic fits of
// wall_fit.hpp give the pressure on the wall (fitted with dp/dn = 0) and the
// normal derivative of each velocity component (fitted with u = u_body), both
// from the fluid cells around the point; the traction is -p n + mu du/dn (on a
// rigid no-slip wall the transposed gradient term of the viscous stress
// vanishes by continuity). The stencils depend on the body position only and
// are built once (SphereDrag); the sum over the points is the surface_force
// kernel's (kernels.hpp), in a fixed order.
// Decomposed (docs/distributed.md): each rank takes the surface points in its owned z
// planes (their fits stay within its ghost planes) and the sums are reduced.
#include <memory>

#include "physics/immersed/fractional_step.hpp"
#include "solvers/core/array.hpp"

namespace tb::immersed {

struct SurfaceForce {
  Vec3 pressure{};
  Vec3 viscous{};
  Vec3 total() const { return pressure + viscous; }
};

class SphereDrag {
 public:
  SphereDrag(const ImmersedFlow& flow, const Sphere& sphere, int bands = 48, int sectors = 96);
  // The force of `flow`'s current fields (the flow whose grid and body position built this).
  SurfaceForce force(const ImmersedFlow& flow) const;
  // The force of fields that live on `backend` (a ResidentStep's, whole grid),
  // summed there; the stencils are copied to the backend on the first call.
  SurfaceForce force(Backend backend, double mu, const double* p, const cell::ConstVelocityView& u);

 private:
  // Per point: p at the wall, du/dn there per unit u (boundary value u_body),
  // the normal and the wall velocity (3 each), as the surface_force kernel
  // reads them (kernels.hpp).
  FlatStencils pressure_, shear_;
  std::vector<double> normals_, wall_velocities_;
  double area_ = 0.0;  // of each point
  // The arrays above on another backend, and the view of them.
  struct Copy {
    Backend backend = Backend::host;
    std::vector<Array<index_t>> indices;
    std::vector<Vector> values;
    cell::SurfaceView view;
  };
  std::unique_ptr<Copy> copy_;
  cell::SurfaceView view(double mu) const;
};

// SphereDrag(flow, sphere).force(flow), with the stencils built for this call.
SurfaceForce sphere_force(const ImmersedFlow& flow, const Sphere& sphere, int bands = 48, int sectors = 96);

// Cd = F_x / (0.5 rho U^2 pi R^2) with U = |free stream|.
double drag_coefficient(const ImmersedFlow& flow, const Sphere& sphere, const SurfaceForce& f);

}  // namespace tb::immersed
