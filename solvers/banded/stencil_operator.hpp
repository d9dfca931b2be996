#pragma once
// Seed 004 §III-D: the operator of GSCG, a constant-coefficient 7-point stencil
// on an nx x ny x nz grid in natural order (x fastest, then y, z). Nothing is
// stored per row: row i finds its cell from i, and its stencil from the cell's
// position (interior or which walls it touches), so the SpMV reads only x.
//
//   A(i, i +- 1)       = -ax,  A(i, i +- nx) = -ay,  A(i, i +- nx*ny) = -az
//   A(i, i)            = shift + sum_d a_d * (neighbours in d + wall * walls in d)
//
// wall = 1 is the paper's Dirichlet ghost cell ([-1,-1,-1,6,-1,-1,-1] with
// ax=ay=az=1 and shift=0 everywhere); wall = 2 a Dirichlet wall half a cell
// away (the finite-volume generator stencil7); wall = 0 Neumann.
#include "solvers/core/host_device.hpp"
#include "solvers/matrix/bsr.hpp"

namespace tb::banded {

struct StencilCoefficients {
  index_t nx = 1, ny = 1, nz = 1;
  double ax = 1.0, ay = 1.0, az = 1.0;
  double shift = 0.0;
  double wall = 1.0;

  index_t cells() const { return nx * ny * nz; }
  index_t band() const { return nz > 1 ? nx * ny : ny > 1 ? nx : nx > 1 ? 1 : 0; }
};

// The diagonal of global row i (the one place the boundary rule is written).
TB_HOST_DEVICE inline double stencil_diagonal(const StencilCoefficients& c, index_t i) {
  const index_t x = i % c.nx, y = (i / c.nx) % c.ny, z = i / (c.nx * c.ny);
  auto faces = [&](index_t p, index_t n, double a) {
    const int inside = (p > 0) + (p + 1 < n);
    return a * (inside + c.wall * (2 - inside));
  };
  return c.shift + faces(x, c.nx, c.ax) + faces(y, c.ny, c.ay) + faces(z, c.nz, c.az);
}

// The coefficients of a scalar BSR matrix that is such an operator on the
// given grid. tb::Error when it is not: wrong block size or size, or the first
// row whose stored entries differ from the stencil (relative 1e-12), with the
// entry expected.
StencilCoefficients stencil_from_bsr(const BsrMatrix& a, index_t nx, index_t ny, index_t nz);

// The same operator as an explicit BSR matrix (natural order, in-grid entries only).
BsrMatrix stencil_to_bsr(const StencilCoefficients& c);

}  // namespace tb::banded
