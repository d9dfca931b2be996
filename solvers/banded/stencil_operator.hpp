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

  TB_HOST_DEVICE index_t cells() const { return nx * ny * nz; }
  TB_HOST_DEVICE index_t band() const { return nz > 1 ? nx * ny : ny > 1 ? nx : nx > 1 ? 1 : 0; }
};

// Which of the six neighbours of global row i lie on the grid: two integer
// remainders per row (x = i mod nx, the row within its z-plane), the costly
// part of a matrix-free row, so they are taken once and shared with the diagonal.
struct StencilFaces {
  bool x_lo, x_hi, y_lo, y_hi, z_lo, z_hi;
};

TB_HOST_DEVICE inline StencilFaces stencil_faces(const StencilCoefficients& c, index_t i) {
  const index_t plane = c.nx * c.ny;
  const index_t x = i % c.nx, in_plane = i % plane;
  return {x > 0, x + 1 < c.nx, in_plane >= c.nx, in_plane < plane - c.nx, i >= plane, i < c.cells() - plane};
}

// The diagonal of a row with these neighbours (the one place the boundary rule is written).
TB_HOST_DEVICE inline double stencil_diagonal(const StencilCoefficients& c, const StencilFaces& f) {
  auto faces = [&](bool lo, bool hi, double a) {
    const int inside = int(lo) + int(hi);
    return a * (inside + c.wall * (2 - inside));
  };
  return c.shift + faces(f.x_lo, f.x_hi, c.ax) + faces(f.y_lo, f.y_hi, c.ay) + faces(f.z_lo, f.z_hi, c.az);
}

TB_HOST_DEVICE inline double stencil_diagonal(const StencilCoefficients& c, index_t i) {
  return stencil_diagonal(c, stencil_faces(c, i));
}

// The coefficients of a scalar BSR matrix that is such an operator on the
// given grid. tb::Error when it is not: wrong block size or size, or the first
// row whose stored entries differ from the stencil (relative 1e-12), with the
// entry expected.
StencilCoefficients stencil_from_bsr(const BsrMatrix& a, index_t nx, index_t ny, index_t nz);

// The same operator as an explicit BSR matrix (natural order, in-grid entries only).
BsrMatrix stencil_to_bsr(const StencilCoefficients& c);

}  // namespace tb::banded
