#pragma once
// Sharp-interface ghost-cell immersed boundary (seed 004's ref [1], Mittal et
// al. 2008 §2.2). Cells whose centre lies inside the body are solid; a solid
// cell with a fluid face neighbour is a ghost cell. For each ghost cell G:
//   B  = the closest surface point (boundary intercept), n the normal there,
//   IP = 2 B - G, the image point mirrored across the surface into the fluid,
//   phi(IP) by the trilinear interpolant phi = c . (1, x, y, z, xy, yz, zx, xyz)
//   through the 8 cell centres around IP.
// When G itself is one of those 8 cells it is replaced by B, where the
// interpolant meets the boundary condition instead of a cell value (Mittal's
// Eq. 10-11): the value phi_B (Dirichlet) or the normal derivative (Neumann).
// Another ghost cell in the stencil stays an unknown (the rows are solved
// together); a plain solid cell in it becomes a ghost cell with a row of its
// own, so every stencil reads only fluid and ghost cells. The weights depend on
// the body position only: they are computed once per position (symbolic), the
// boundary values each step.
#include <cstdint>
#include <vector>

#include "physics/domain_share.hpp"
#include "physics/immersed/body.hpp"

namespace tb::immersed {

enum class CellType : std::uint8_t { fluid = 0, ghost = 1, solid = 2 };

// fluid / solid by the centre's inside test, ghost = solid next to fluid.
std::vector<CellType> classify_cells(const CartesianGrid& grid, const Body& body);

// phi(IP) = sum_k weights[k] phi(nodes[k]) + boundary_weight * (phi_B or dphi/dn at B).
struct ImageInterpolation {
  std::array<index_t, 8> nodes{};  // cells; -1 where G was replaced by B
  std::array<double, 8> weights{};
  double boundary_weight = 0.0;
};

struct GhostCell {
  index_t cell = 0;
  Vec3 boundary_point{}, normal{}, image_point{};
  double image_distance = 0.0;  // |IP - G|
  ImageInterpolation dirichlet, neumann;
};

struct GhostCells {
  std::vector<CellType> types;  // per cell
  std::vector<GhostCell> ghosts;
  std::vector<index_t> ghost_of;  // per cell: index into ghosts, -1 for fluid and solid cells
};

// Throws tb::Error naming the ghost cell (i, j, k) when its interpolation is
// singular (an image point stencil that degenerates on a badly resolved surface).
GhostCells build_ghost_cells(const CartesianGrid& grid, const Body& body);

// On a rank's piece of the grid: the cell types it classified on its ghost
// planes must be their owners' within reach of its image boxes, or a ghost
// cell this rank cannot see (beyond its ghost planes) would change its rows
// unnoticed. tb::Error (on every rank) naming the plane otherwise. Collective.
void check_ghost_planes(const CartesianGrid& grid, const GhostCells& ib, const DomainShare& share);

// The ghost rows (Mittal 2008 Eq. 12), each as  phi_G + sum_k c_k phi_k = rhs:
//   Dirichlet phi = phi_B:      phi_G + phi(IP) = 2 phi_B   -> c_k = +w_k, rhs = (2 - w_B) phi_B
//   Neumann  dphi/dn = g:  phi(IP) - phi_G = |IP - G| g     -> c_k = -w_k, rhs = (w_B - |IP - G|) g
double dirichlet_ghost_rhs(const GhostCell& g, double value);
double neumann_ghost_rhs(const GhostCell& g, double normal_derivative);

}  // namespace tb::immersed
