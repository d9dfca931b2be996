#pragma once
// Second-order reconstruction (seed 001 §2): cell gradients of the primitive
// variables (rho, u, v, p) by weighted least squares over the face neighbours
// and the boundary ghosts, weights 1 / distance, and the optional
// Venkatakrishnan limiter. The normal matrices depend on the mesh (and the
// ghosts' places) only and are inverted once.
#include <array>
#include <vector>

#include "mesh/geometry.hpp"
#include "physics/compressible/gas.hpp"

namespace tb::compressible {

// d/dx and d/dy of the four variables: {d0/dx, d0/dy, d1/dx, d1/dy, ...}.
using Gradient = std::array<double, 2 * num_vars>;

class LeastSquaresGradients {
 public:
  // `ghost_offsets`: per boundary face (face f at f - num_interior_faces), where
  // its ghost value sits relative to the cell's centroid; empty: the boundary
  // faces take no part. A boundary cell's stencil without its ghosts is one-sided
  // and, on a stretched outer layer or in a corner, badly conditioned or
  // degenerate: the second-order residual's mode there is what the first-order
  // Jacobian fails to damp at high CFL (docs/compressible.md, issue 24).
  LeastSquaresGradients(const Mesh2D& mesh, const MeshGeometry& geometry, std::vector<Vec2> ghost_offsets = {});

  // Minimises sum_j w_ij^2 (grad_i . d_ij - (q_j - q_i))^2, w_ij = 1 / |d_ij|, over
  // the face neighbours j of each cell and its ghosts (value ghost[b] for boundary
  // face b, when there are ghost offsets). A cell whose neighbours do not span
  // the plane (a corner triangle with one neighbour and no ghosts) gets a zero
  // gradient.
  void compute(const std::vector<State>& q, const std::vector<State>& ghost, std::vector<Gradient>& grad) const;
  void compute(const std::vector<State>& q, std::vector<Gradient>& grad) const;
  bool has_ghosts() const { return !ghost_offsets_.empty(); }

 private:
  const Mesh2D& mesh_;
  const MeshGeometry& geometry_;
  std::vector<Vec2> ghost_offsets_;
  std::vector<std::array<double, 3>> inverse_;  // symmetric 2 x 2 inverse: xx, xy, yy
};

// Venkatakrishnan's limiter per cell and variable, in [0, 1]: smooth, and 1 where
// the reconstructed face values stay within the neighbours' range by a margin
// eps^2 = (K h)^3, h = sqrt(cell area).
class VenkatakrishnanLimiter {
 public:
  VenkatakrishnanLimiter(const Mesh2D& mesh, const MeshGeometry& geometry, double k);
  void compute(const std::vector<State>& q, const std::vector<Gradient>& grad, std::vector<State>& phi);

 private:
  const Mesh2D& mesh_;
  const MeshGeometry& geometry_;
  std::vector<double> eps2_;        // per cell, from the mesh only
  std::vector<State> qmin_, qmax_;  // the neighbours' range, work arrays sized once
};

}  // namespace tb::compressible
