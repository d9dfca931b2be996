#pragma once
// The per-row arithmetic of the banded kernels, shared by the sequential
// reference, the OpenMP loops and the CUDA threads, so the host tests cover
// the arithmetic the GPU runs. Extended vectors (§III-A): x_ext[band + i] is
// local row i, the band entries on each side are the ghost zones.
#include <cmath>

#include "dia_matrix.hpp"
#include "solvers/core/host_device.hpp"
#include "stencil_operator.hpp"

namespace tb::banded {

// Row i of y = A x in the row-contiguous DIA layout of §III-B, then the row's
// sparse remainder if it has one. N > 0 fixes the number of diagonals at
// compile time (7 for the 7-point systems of the paper: the loop unrolls);
// N = 0 reads it at run time. Same sums in the same order either way.
template <int N = 0>
TB_HOST_DEVICE inline double dia_row(const DiaView& a, index_t i, const double* x_ext) {
  const index_t nd = N > 0 ? N : a.ndiag;
  const double* v = a.values + std::size_t(i) * nd;
  const double* x = x_ext + a.band + i;
  double s = 0.0;
  for (index_t d = 0; d < nd; ++d) s += v[d] * x[a.offsets[d]];
  if (a.rest_ptr)
    for (index_t k = a.rest_ptr[i]; k < a.rest_ptr[i + 1]; ++k) s += a.rest_values[k] * x[a.rest_offsets[k]];
  return s;
}

// A slab of a stencil operator: the coefficients and the global index of local row 0.
struct StencilSlab {
  StencilCoefficients c;
  index_t first_row = 0;
  index_t band = 0;  // of the extended vectors: c.band()
};

// Row i of y = A x for the matrix-free operator of §III-D, given which of its
// neighbours are on the grid: the row's stencil comes from its position, not
// from stored entries.
TB_HOST_DEVICE inline double stencil_row_at(const StencilSlab& s, const StencilFaces& f, index_t i,
                                            const double* x_ext) {
  const StencilCoefficients& c = s.c;
  const double* xi = x_ext + s.band + i;
  const index_t sy = c.nx, sz = c.nx * c.ny;
  double off = 0.0;
  if (f.x_lo) off += c.ax * xi[-1];
  if (f.x_hi) off += c.ax * xi[1];
  if (f.y_lo) off += c.ay * xi[-sy];
  if (f.y_hi) off += c.ay * xi[sy];
  if (f.z_lo) off += c.az * xi[-sz];
  if (f.z_hi) off += c.az * xi[sz];
  return stencil_diagonal(c, f) * xi[0] - off;
}

TB_HOST_DEVICE inline double stencil_row(const StencilSlab& s, index_t i, const double* x_ext) {
  return stencil_row_at(s, stencil_faces(s.c, s.first_row + i), i, x_ext);
}

// Local rows [begin, end) lying in one x-line of the grid: they share their
// y and z neighbours, so the integer remainders are taken once per line and
// each row gives the same arithmetic as stencil_row.
TB_HOST_DEVICE inline void stencil_line(const StencilSlab& s, index_t begin, index_t end, const double* x_ext,
                                        double* y) {
  const StencilCoefficients& c = s.c;
  const index_t g = s.first_row + begin;
  StencilFaces f = stencil_faces(c, g);
  const index_t x0 = g % c.nx;
  index_t i = begin;
  if (f.y_lo && f.y_hi && f.z_lo && f.z_hi) {
    // An interior line: its inner rows have all six neighbours, a branch-free
    // loop that vectorises (terms in stencil_row_at's order, so same bits).
    const StencilFaces all{true, true, true, true, true, true};
    const double diag = stencil_diagonal(c, all);
    const index_t sy = c.nx, sz = c.nx * c.ny;
    // Rows with 0 < x < nx - 1 (std::min / max are host-only).
    const index_t first_inner = begin + (x0 == 0 ? 1 : 0), last_inner = begin + (c.nx - 1 - x0);
    const index_t inner_begin = first_inner < end ? first_inner : end;
    const index_t inner_end = last_inner < end ? last_inner : end;
    for (; i < inner_begin; ++i) {
      f.x_lo = x0 + (i - begin) > 0, f.x_hi = x0 + (i - begin) + 1 < c.nx;
      y[i] = stencil_row_at(s, f, i, x_ext);
    }
    for (; i < inner_end; ++i) {
      const double* xi = x_ext + s.band + i;
      const double off = c.ax * xi[-1] + c.ax * xi[1] + c.ay * xi[-sy] + c.ay * xi[sy] + c.az * xi[-sz] + c.az * xi[sz];
      y[i] = diag * xi[0] - off;
    }
  }
  for (; i < end; ++i) {
    const index_t x = x0 + (i - begin);
    f.x_lo = x > 0;
    f.x_hi = x + 1 < c.nx;
    y[i] = stencil_row_at(s, f, i, x_ext);
  }
}

// Row i's terms of BicgMergedDots (kernels.hpp), added to s[0..7).
template <class Vectors>
TB_HOST_DEVICE inline void bicg_merged_row(index_t i, const Vectors& w, double* s) {
  const double kt = w.dinv[i] * w.t[i];
  s[0] += kt * w.z[i];
  s[1] += kt * kt;
  s[2] += w.r0hat[i] * w.s[i];
  s[3] += w.r0hat[i] * w.t[i];
  s[4] += w.f[i] * w.s[i];
  s[5] += w.f[i] * w.t[i];
  s[6] += w.f[i] * w.v[i];
}

// The vectors of the one-reduction CG (Chronopoulos & Gear 1989, in gscg.cpp)
// in its names: u = K^{-1} r and w = A u are this iteration's, p and q = A p
// are carried by recurrence; dinv is K^{-1} for the Jacobi K = diag(A).
struct CgRecurrenceVectors {
  const double* dinv = nullptr;
  const double* w = nullptr;
  double* u = nullptr;  // the owned part of an extended vector: the next SpMV's input
  double* p = nullptr;
  double* q = nullptr;
  double* x = nullptr;
  double* r = nullptr;
};

// Row i of p = u + beta p;  q = w + beta q;  x += alpha p;  r -= alpha q;
// u = K^{-1} r; adds the new r's terms of <r, u> to ru, of <r, r> to rr and
// keeps max |r| in rmax (the next check's norms, read while in registers).
TB_HOST_DEVICE inline void cg_recurrence_row(index_t i, double alpha, double beta, const CgRecurrenceVectors& v,
                                             double& ru, double& rr, double& rmax) {
  const double p = v.u[i] + beta * v.p[i];
  const double q = v.w[i] + beta * v.q[i];
  v.p[i] = p;
  v.q[i] = q;
  v.x[i] += alpha * p;
  const double r = v.r[i] - alpha * q;
  const double u = v.dinv[i] * r;
  v.r[i] = r;
  v.u[i] = u;
  ru += r * u;
  rr += r * r;
  const double a = fabs(r);
  rmax = rmax < a ? a : rmax;  // std::max's choice; fmax would be a libm call per row on the host
}

}  // namespace tb::banded
