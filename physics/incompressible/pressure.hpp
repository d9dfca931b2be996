#pragma once
// The pressure-correction Poisson problem (docs/incompressible.md, eq. P):
//   sum_f A_f (phi_P - phi_N) / d_PN = -(1/dt) sum_f A_f U*_f,
// the compact (5/7-point) negative Laplacian, symmetric positive semi-definite
// with Neumann conditions on every side because every boundary face carries a
// fixed normal velocity. Its null space (constants) is removed by fixing
// phi = 0 in cell 0 symmetrically: row 0 becomes the identity and the couplings
// of its neighbours to cell 0 are zeroed, keeping the pattern and the symmetry
// (CG applies). The right-hand side sums to zero (mass-corrected outflow), so
// the other equations are unchanged and row 0's own equation holds implicitly.
#include <span>

#include "physics/incompressible/operators.hpp"
#include "physics/incompressible/stencil_pattern.hpp"

namespace tb::incompressible {

// Values of the Poisson matrix into a (pattern with block size 1), and on a
// piece its blocks in ghost columns into off_rank (as assemble_momentum); constant in time.
void assemble_poisson(const FvGrid& g, const StencilPattern& pattern, BsrMatrix& a, BsrMatrix* off_rank = nullptr);

// rhs_P = -(1/dt) sum_f A_f U*_f, and 0 in the fixed cell.
void poisson_rhs(const FvGrid& g, const FaceVelocities& faces, double dt, std::span<double> rhs);

// out += A p over the owned cells (out[i] is owned cell owned_cell_begin() + i;
// p holds every local cell, its ghosts current): the right-hand side of the
// system whose unknown is the new pressure (PressureUnknown::pressure).
void add_poisson_product(const FvGrid& g, const StencilPattern& pattern, const BsrMatrix& a, const BsrMatrix* off_rank,
                         std::span<const double> p, std::span<double> out);

}  // namespace tb::incompressible
