#pragma once
// Second-order reconstruction (seed 001 §2): cell gradients of the primitive
// variables (rho, u, v, p) by weighted least squares over a stencil of
// neighbours and the boundary ghosts, weights 1 / distance, and the optional
// Venkatakrishnan limiter. The stencils and normal matrices depend on the mesh
// (and the ghosts' places) only and are built once.
#include <array>
#include <string>
#include <vector>

#include "mesh/geometry.hpp"
#include "mesh/graph/graph.hpp"
#include "physics/compressible/gas.hpp"

namespace tb::compressible {

// The cells a cell's gradient reads. Faces: the face neighbours (seed 001 §2).
// Nodes: every cell that shares a node. TriangleNodes (tb-comp2d's default):
// nodes on triangles, faces on quadrilaterals. With three face neighbours for
// two unknowns a triangle's gradient is nearly interpolated, and on triangular
// meshes the unlimited second-order residual then has growing modes that the
// pseudo-time iteration cannot damp at any CFL (docs/compressible.md).
enum class GradientStencil { Faces, Nodes, TriangleNodes };

// "faces", "nodes" or "triangle_nodes"; tb::Error otherwise.
GradientStencil parse_gradient_stencil(const std::string& name);

// Cells i and j joined when the gradient of one reads the other: the reach of
// the second-order reconstruction, for a decomposed mesh's ghost layers and
// the exact Jacobian's pattern. cell_graph(mesh) for Faces.
Graph reconstruction_graph(const Mesh2D& mesh, GradientStencil stencil);

// d/dx and d/dy of the four variables: {d0/dx, d0/dy, d1/dx, d1/dy, ...}.
using Gradient = std::array<double, 2 * num_vars>;

class LeastSquaresGradients {
 public:
  // `ghost_offsets`: per boundary face (face f at f - num_interior_faces), where
  // its ghost value sits relative to the cell's centroid; empty: the boundary
  // faces take no part. A boundary cell's stencil without its ghosts is one-sided
  // and, on a stretched outer layer or in a corner, badly conditioned or
  // degenerate: the second-order residual's mode there is what the first-order
  // Jacobian fails to damp at high CFL (docs/compressible.md).
  LeastSquaresGradients(const Mesh2D& mesh, const MeshGeometry& geometry, std::vector<Vec2> ghost_offsets = {},
                        GradientStencil stencil = GradientStencil::Faces);

  // Minimises sum_j w_ij^2 (grad_i . d_ij - (q_j - q_i))^2, w_ij = 1 / |d_ij|, over
  // the stencil's cells j of each cell and its ghosts (value ghost[b] for boundary
  // face b, when there are ghost offsets). A cell whose neighbours do not span
  // the plane (a corner triangle with one neighbour and no ghosts) gets a zero
  // gradient.
  void compute(const std::vector<State>& q, const std::vector<State>& ghost, std::vector<Gradient>& grad) const;
  void compute(const std::vector<State>& q, std::vector<Gradient>& grad) const;
  bool has_ghosts() const { return !ghost_offsets_.empty(); }

 private:
  void add_face_neighbours(const std::vector<State>& q, std::vector<Gradient>& grad) const;
  void add_stencil(const std::vector<State>& q, std::vector<Gradient>& grad) const;

  const Mesh2D& mesh_;
  const MeshGeometry& geometry_;
  std::vector<Vec2> ghost_offsets_;
  // Other than Faces: per cell the cells its gradient reads, CSR (face
  // neighbours are summed face by face, with no list).
  std::vector<index_t> stencil_ptr_, stencil_cells_;
  std::vector<Vec2> stencil_weighted_;          // per entry w_ij^2 d_ij, from the mesh only
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
