#pragma once
// The per-row arithmetic of the banded kernels, shared by the sequential
// reference, the OpenMP loops and the CUDA threads, so the host tests cover
// the arithmetic the GPU runs. Extended vectors (§III-A): x_ext[band + i] is
// local row i, the band entries on each side are the ghost zones.
#include "dia_matrix.hpp"
#include "solvers/core/host_device.hpp"
#include "stencil_operator.hpp"

namespace tb::banded {

// Row i of y = A x in the row-contiguous DIA layout of §III-B.
TB_HOST_DEVICE inline double dia_row(const DiaView& a, index_t i, const double* x_ext) {
  const double* v = a.values + std::size_t(i) * a.ndiag;
  const double* x = x_ext + a.band + i;
  double s = 0.0;
  for (index_t d = 0; d < a.ndiag; ++d) s += v[d] * x[a.offsets[d]];
  return s;
}

// A slab of a stencil operator: the coefficients and the global index of local row 0.
struct StencilSlab {
  StencilCoefficients c;
  index_t first_row = 0;
  index_t band = 0;  // of the extended vectors: c.band()
};

// Row i of y = A x for the matrix-free operator of §III-D: the neighbours
// present are decided from the cell's position, not from stored entries.
TB_HOST_DEVICE inline double stencil_row(const StencilSlab& s, index_t i, const double* x_ext) {
  const StencilCoefficients& c = s.c;
  const index_t g = s.first_row + i;
  const index_t x = g % c.nx, y = (g / c.nx) % c.ny, z = g / (c.nx * c.ny);
  const double* xi = x_ext + s.band + i;
  const index_t sy = c.nx, sz = c.nx * c.ny;
  double off = 0.0;
  if (x > 0) off += c.ax * xi[-1];
  if (x + 1 < c.nx) off += c.ax * xi[1];
  if (y > 0) off += c.ay * xi[-sy];
  if (y + 1 < c.ny) off += c.ay * xi[sy];
  if (z > 0) off += c.az * xi[-sz];
  if (z + 1 < c.nz) off += c.az * xi[sz];
  return stencil_diagonal(c, g) * xi[0] - off;
}

}  // namespace tb::banded
