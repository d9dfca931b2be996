#pragma once
// Second-order reconstruction (seed 001 §2): cell gradients of the primitive
// variables (rho, u, v, p) by weighted least squares over a stencil of
// neighbours and the boundary ghosts, weights 1 / distance. The stencils and
// normal matrices depend on the mesh (and the ghosts' places) only and are
// built here, once; the gradients themselves and Venkatakrishnan's limiter are
// the loops least_squares_gradients and limiter_phi of kernels.hpp.
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

  // The weighted least squares: grad_i minimises sum_j w_ij^2 (grad_i . d_ij -
  // (q_j - q_i))^2, w_ij = 1 / |d_ij|, over the stencil's cells j of each cell
  // and its ghosts (boundary face b's ghost at ghost_offsets()[b] from the
  // cell's centroid). A cell whose neighbours do not span the plane (a corner
  // triangle with one neighbour and no ghosts) gets a zero gradient. What is
  // built here, once, the loop least_squares_gradients (kernels.hpp) reads.
  bool has_ghosts() const { return !ghost_offsets_.empty(); }
  const std::vector<Vec2>& ghost_offsets() const { return ghost_offsets_; }
  // Other than Faces: per cell the cells its gradient reads, CSR, and w_ij^2
  // d_ij per entry; empty for face neighbours (summed face by face).
  const std::vector<index_t>& stencil_ptr() const { return stencil_ptr_; }
  const std::vector<index_t>& stencil_cells() const { return stencil_cells_; }
  const std::vector<Vec2>& stencil_weighted() const { return stencil_weighted_; }
  // Per cell the symmetric 2 x 2 inverse of the normal matrix: xx, xy, yy.
  const std::vector<std::array<double, 3>>& inverse() const { return inverse_; }

 private:
  std::vector<Vec2> ghost_offsets_;
  std::vector<index_t> stencil_ptr_, stencil_cells_;
  std::vector<Vec2> stencil_weighted_;
  std::vector<std::array<double, 3>> inverse_;
};

}  // namespace tb::compressible
