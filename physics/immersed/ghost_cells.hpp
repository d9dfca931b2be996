#pragma once
// Sharp-interface ghost-cell immersed boundary (seed 004's ref [1], Mittal et
// al. 2008 §2.2), with second-order ghost values. Cells whose centre lies
// inside the body are solid; a solid cell with a fluid face neighbour is a
// ghost cell. For each ghost cell G:
//   B  = the closest surface point (boundary intercept), n the normal there
//        (the direction G -> B for a smooth body);
//   phi_G = the wall-constrained quadratic of wall_fit.hpp at G: fitted to the
//        fluid cells within a few widths of B with the wall condition held at
//        B, the value phi_B (Dirichlet: velocity) or the normal derivative
//        (Neumann: pressure), so that phi_G = sum_k w_k phi_k + w_B (phi_B or g).
// Mittal's image point IP = 2 B - G with the trilinear interpolant through the
// 8 centres around it is exact for linear fields only: its Dirichlet rows
// converge at second order, its Neumann rows (whose interpolation error is
// divided by |IP - G|) at first. The quadratic is exact for quadratic fields,
// and both rows converge at second order (docs/immersed.md, "The ghost-cell
// method"). Every stencil reads fluid cells only, so no ghost row reads another
// ghost or a solid cell. The weights depend on the body position only: they
// are computed once per position (symbolic), the boundary values each step.
#include <cstdint>
#include <vector>

#include "physics/domain_share.hpp"
#include "physics/immersed/body.hpp"
#include "physics/immersed/wall_fit.hpp"

namespace tb::immersed {

// fluid / solid by the centre's inside test, ghost = solid next to fluid.
std::vector<CellType> classify_cells(const CartesianGrid& grid, const Body& body);

struct GhostCell {
  index_t cell = 0;
  Vec3 boundary_point{}, normal{};
  // phi_G = sum_k w_k phi(cells_k) + w_B (phi_B, or dphi/dn at B).
  WallStencil dirichlet, neumann;
};

struct GhostCells {
  std::vector<CellType> types;  // per cell
  std::vector<GhostCell> ghosts;
  std::vector<index_t> ghost_of;  // per cell: index into ghosts, -1 for fluid and solid cells
};

// Throws tb::Error naming the ghost cell (i, j, k) when the fluid cells around
// its boundary intercept do not determine the quadratic (a surface the grid does
// not resolve). On a rank's piece of the grid only the ghost cells of the owned
// planes get stencils (their rows are the rank's); the others keep empty ones.
GhostCells build_ghost_cells(const CartesianGrid& grid, const Body& body);

// How many z planes a ghost row's stencil reaches from its cell: |G - B| is at
// most one width and the fit reads cells up to WallFit's widest reach from B.
inline constexpr index_t stencil_reach = 5;

// On a rank's piece of the grid: the cell types it classified on its ghost
// planes must be their owners' within stencil_reach of its owned planes, or a
// stencil would read a cell this rank sees differently. tb::Error (on every
// rank) naming the plane otherwise. Collective.
void check_ghost_planes(const CartesianGrid& grid, const GhostCells& ib, const DomainShare& share);

// The ghost rows, each as  phi_G - sum_k w_k phi_k = rhs:
//   Dirichlet phi = phi_B:  rhs = w_B phi_B
//   Neumann  dphi/dn = g:   rhs = w_B g
double dirichlet_ghost_rhs(const GhostCell& g, double value);
double neumann_ghost_rhs(const GhostCell& g, double normal_derivative);

}  // namespace tb::immersed
