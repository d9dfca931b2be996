#pragma once
// Discrete operators of the collocated scheme (docs/incompressible.md):
// Gauss gradients at cell centres, Rhie-Chow face velocities, the face-flux
// divergence, the projection and the vorticity. Cell vectors hold dim()
// components per cell, interleaved (the block-vector layout of the solvers).
#include <array>
#include <span>
#include <vector>

#include "physics/incompressible/boundaries.hpp"

namespace tb::incompressible {

// Normal velocity on every face, one array per direction; faces of direction d
// form a (n_d + 1) grid along d. In a periodic direction face n_d is face 0.
class FaceVelocities {
 public:
  explicit FaceVelocities(const FvGrid& grid);
  // The face of cell c on side s (-1, +1) in direction d.
  index_t face(int d, const std::array<index_t, 3>& c, int s) const {
    std::array<index_t, 3> f = c;
    f[d] += s > 0 ? 1 : 0;
    if (f[d] == wrap_[d]) f[d] = 0;
    return f[0] + ext_[d][0] * (f[1] + ext_[d][1] * f[2]);
  }
  std::array<std::vector<double>, 3> normal;

  // The faces over pointers into `normal`, for the per-cell kernels (kernels.hpp).
  FaceView view();
  ConstFaceView view() const;
  // The same indexing over other arrays of the same sizes (a device copy).
  FaceView view_of(const std::array<double*, 3>& arrays) const;

 private:
  std::array<std::array<index_t, 3>, 3> ext_;
  std::array<index_t, 3> wrap_;  // n_d in a periodic direction, else -1
};

// grad p by the Gauss rule; boundary values extrapolated linearly from the two
// nearest cells, so a linear field has its exact gradient in every cell.
void pressure_gradient(const FvGrid& g, std::span<const double> p, std::span<double> grad);

// Rhie & Chow (1983) momentum interpolation in the fractional-step form of
// Zang, Street & Koseff (1994): U_f = <u*>_f + dt (<grad p>_f - (p_N - p_P)/d_PN),
// boundary faces take the boundary velocity.
void rhie_chow_velocities(const FvGrid& g, const Boundaries& b, std::span<const double> u, std::span<const double> p,
                          std::span<const double> grad_p, double dt, FaceVelocities& out);

// Net outward flux per unit volume of each cell.
void divergence(const FvGrid& g, const FaceVelocities& f, std::span<double> div);

// U_f -= dt (phi_N - phi_P)/d_PN on interior faces, u -= dt grad phi, p += phi.
void project(const FvGrid& g, std::span<const double> phi, double dt, std::span<double> grad_work,
             FaceVelocities& faces, std::span<double> u, std::span<double> p);

// curl u (3 components per cell; in 2D only z is non-zero), with the boundary
// velocities on boundary faces.
void vorticity(const FvGrid& g, const Boundaries& b, std::span<const double> u, std::span<double> omega);

}  // namespace tb::incompressible
