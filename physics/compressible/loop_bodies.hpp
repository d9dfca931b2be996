#pragma once
// The per-face and per-cell bodies of kernels.hpp's loops, compiled for the host
// and, under nvcc, for the device: the ref, omp and cuda versions run these and
// differ only in how they walk the faces or cells. The arithmetic is
// EulerDiscretisation's (euler_discretisation.cpp), operation for operation.
#include "physics/compressible/kernels.hpp"

namespace tb::compressible::bodies {

TB_HOST_DEVICE inline State load_state(const double* a, index_t i) {
  const double* p = a + 4 * i;
  return {p[0], p[1], p[2], p[3]};
}

TB_HOST_DEVICE inline State outside_state(const SchemeView& s, const FlowView& q, index_t f) {
  return q.outside ? load_state(q.outside, f) : s.free_stream;
}

// The state of `cell` at `(x, y)`: its primitives extrapolated by the limited
// gradient, or the cell value where that is not admissible (seed 001 §2).
TB_HOST_DEVICE inline State reconstructed(const MeshView& m, const SchemeView& s, const FlowView& q, index_t cell,
                                          double x, double y) {
  const double* g = q.grad + 8 * cell;
  const double* pr = q.primitive + 4 * cell;
  const double* phi = q.phi + 4 * cell;
  const double cx = m.centroid[2 * cell], cy = m.centroid[2 * cell + 1];
  State v;
  for (int k = 0; k < num_vars; ++k) v[k] = pr[k] + phi[k] * (g[2 * k] * (x - cx) + g[2 * k + 1] * (y - cy));
  const State c = s.gas.conserved({v[0], v[1], v[2], v[3]});
  return s.gas.admissible(c) ? c : load_state(q.w, cell);
}

TB_HOST_DEVICE inline State face_side(const MeshView& m, const SchemeView& s, const FlowView& q, int order,
                                      index_t cell, index_t f) {
  return order == 2 ? reconstructed(m, s, q, cell, m.midpoint[2 * f], m.midpoint[2 * f + 1]) : load_state(q.w, cell);
}

// F |f| of face f into out[0..3].
TB_HOST_DEVICE inline void inviscid_face_flux(const MeshView& m, const SchemeView& s, const FlowView& q, int order,
                                              index_t f, double* out) {
  const double nx = m.normal[2 * f], ny = m.normal[2 * f + 1], len = m.length[f];
  const index_t right = m.face_right[f];
  const State left = face_side(m, s, q, order, m.face_left[f], f);
  State flux;
  if (right < 0) {
    flux =
        flux_bodies::boundary_flux(m.kind[f], s.flux, s.gas, left, outside_state(s, q, f), nx, ny, s.wall_flux, s.roe);
  } else {
    flux = flux_bodies::numerical_flux(s.flux, s.gas, left, face_side(m, s, q, order, right, f), nx, ny, s.roe);
  }
  for (int k = 0; k < num_vars; ++k) out[k] = flux[k] * len;
}

// max(4/3, gamma/Pr) mu / (rho dist) of one side.
TB_HOST_DEVICE inline double viscous_spectral_radius(const SchemeView& s, const State& w, double distance) {
  const double mu = s.viscous.mu(s.viscous.temperature(s.gas, w));
  const double k = 4.0 / 3.0 > s.gas.gamma / s.viscous.prandtl ? 4.0 / 3.0 : s.gas.gamma / s.viscous.prandtl;
  return k * mu / (w[0] * distance);
}

TB_HOST_DEVICE inline double spectral_radius_face(const MeshView& m, const SchemeView& s, const double* w, index_t f) {
  const double nx = m.normal[2 * f], ny = m.normal[2 * f + 1];
  const index_t right = m.face_right[f];
  const State l = load_state(w, m.face_left[f]);
  double r = flux_bodies::spectral_radius(s.gas, l, nx, ny);
  State rs{};
  if (right >= 0) {
    rs = load_state(w, right);
    const double b = flux_bodies::spectral_radius(s.gas, rs, nx, ny);
    r = r < b ? b : r;  // std::max
  }
  if (s.viscous.enabled()) {
    double v = viscous_spectral_radius(s, l, m.distance[f]);
    if (right >= 0) {
      const double b = viscous_spectral_radius(s, rs, m.distance[f]);
      v = v < b ? b : v;
    }
    r += v;
  }
  return r * m.length[f];
}

// The sum of cell c's face slots, faces ascending: + where c is left, - or +
// (FaceSign) where right.
TB_HOST_DEVICE inline void gather_cell(const MeshView& m, FaceSign sign, int width, const double* face_value, index_t c,
                                       double* out) {
  for (int k = 0; k < width; ++k) out[k] = 0.0;
  for (index_t e = m.cell_face_ptr[c]; e < m.cell_face_ptr[c + 1]; ++e) {
    const index_t f = m.cell_faces[e];
    const double* v = face_value + std::size_t(width) * std::size_t(f);
    if (m.face_left[f] == c || sign == FaceSign::both)
      for (int k = 0; k < width; ++k) out[k] += v[k];
    else
      for (int k = 0; k < width; ++k) out[k] -= v[k];
  }
}

// dF/dw_L (first 16) and dF/dw_R (next 16) of face f's first-order flux; on a
// boundary face dF_b/dw_i and zeros.
TB_HOST_DEVICE inline void jacobian_face(const MeshView& m, const SchemeView& s, const FlowView& q, index_t f,
                                         double* out) {
  const double* w = q.w;
  const double nx = m.normal[2 * f], ny = m.normal[2 * f + 1];
  const index_t right = m.face_right[f];
  const State left = load_state(w, m.face_left[f]);
  if (right < 0) {
    const State outside = outside_state(s, q, f);
    const Block b = flux_bodies::boundary_flux_jacobian(m.kind[f], s.jacobian_flux, s.gas, left, outside, nx, ny,
                                                        s.wall_flux, s.roe);
    for (int k = 0; k < 16; ++k) out[k] = b[k], out[16 + k] = 0.0;
    return;
  }
  const FluxJacobians j =
      flux_bodies::flux_jacobians(s.jacobian_flux, s.gas, left, load_state(w, right), nx, ny, s.roe);
  for (int k = 0; k < 16; ++k) out[k] = j.left[k], out[16 + k] = j.right[k];
}

TB_HOST_DEVICE inline double* block_of(const JacobianView& a, index_t position) {
  return position >= 0 ? a.values + 16 * std::size_t(position) : a.off_rank_values + 16 * std::size_t(-2 - position);
}

TB_HOST_DEVICE inline void add_block(const JacobianView& a, index_t position, const double* b, double scale) {
  if (position == -1) return;
  double* dst = block_of(a, position);
  for (int k = 0; k < 16; ++k) dst[k] += scale * b[k];
}

// Row c's blocks: as left cell (ll, lr) or right cell (rl, rr) of each of its
// faces, ascending, as EulerDiscretisation::assemble_jacobian adds them.
TB_HOST_DEVICE inline void gather_jacobian_row(const MeshView& m, const double* face_jac, const JacobianView& a,
                                               index_t c) {
  for (index_t e = m.cell_face_ptr[c]; e < m.cell_face_ptr[c + 1]; ++e) {
    const index_t f = m.cell_faces[e];
    const index_t* pos = a.face_blocks + 4 * f;
    const double* jl = face_jac + 32 * std::size_t(f);
    const double len = m.length[f];
    if (!(pos[0] >= 0 || pos[3] >= 0)) continue;  // FaceBlocks::held(): a face between a piece's ghosts
    if (m.face_left[f] == c) {
      add_block(a, pos[0], jl, len);
      if (m.face_right[f] >= 0) add_block(a, pos[1], jl + 16, len);
    } else {
      add_block(a, pos[2], jl, -len);
      add_block(a, pos[3], jl + 16, -len);
    }
  }
}

TB_HOST_DEVICE inline void diagonal_shift(const index_t* diagonal, const double* shift, double* values, index_t c) {
  if (diagonal[c] < 0) return;  // a piece's ghost
  double* d = values + 16 * std::size_t(diagonal[c]);
  for (int k = 0; k < num_vars; ++k) d[k * num_vars + k] += shift[c];
}

TB_HOST_DEVICE inline double relative_change(const Gas& gas, const double* w, const double* dw, index_t c) {
  const State s = load_state(w, c);
  State next;
  for (int k = 0; k < num_vars; ++k) next[k] = s[k] + dw[4 * c + k];
  const double p = gas.pressure(s);
  // fmax, as std::max({worst, a, b}) in cell order, passes over a NaN.
  return std::fmax(std::abs(dw[4 * c]) / s[0], std::abs(gas.pressure(next) - p) / p);
}

TB_HOST_DEVICE inline bool relaxed_cell(const Gas& gas, const double* w, const double* dw, double omega, index_t c,
                                        double* trial) {
  State t;
  for (int k = 0; k < num_vars; ++k) t[k] = trial[4 * c + k] = w[4 * c + k] + omega * dw[4 * c + k];
  return gas.admissible(t);
}

}  // namespace tb::compressible::bodies
