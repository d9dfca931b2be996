#pragma once
// The per-face and per-cell bodies of kernels.hpp's loops, compiled for the host
// and, under nvcc, for the device: the ref, omp and cuda versions run these and
// differ only in how they walk the faces or cells. The arithmetic is
// EulerDiscretisation's (euler_discretisation.cpp), operation for operation.
#include <algorithm>
#include <cmath>

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

// (rho, u, v, p) of cell c.
TB_HOST_DEVICE inline void cell_primitive(const Gas& gas, const double* w, index_t c, double* out) {
  const Primitive p = gas.primitive(load_state(w, c));
  out[0] = p.rho, out[1] = p.u, out[2] = p.v, out[3] = p.p;
}

// The mirrored ghost of a no-slip wall: velocity reversed; temperature equal
// (adiabatic: no heat flux) or T_ghost = 2 T_wall - T_inner (isothermal).
TB_HOST_DEVICE inline State wall_ghost(const SchemeView& s, BoundaryKind kind, const State& inner) {
  const Gas& gas = s.gas;
  const double rho = inner[0], t_inner = s.viscous.temperature(gas, inner);
  const double t = kind == BoundaryKind::NoSlipIsothermal ? 2.0 * s.wall_temperature - t_inner : t_inner;
  return gas.conserved({rho, -inner[1] / rho, -inner[2] / rho, rho * t / gas.gamma});
}

// The primitive value of boundary face f's gradient ghost: the outside state on
// the far field, the mirror image on a slip wall, the wall ghost on a no-slip one.
TB_HOST_DEVICE inline void ghost_primitive(const MeshView& m, const SchemeView& s, const FlowView& q, index_t f,
                                           double* out) {
  const State inner = load_state(q.w, m.face_left[f]);
  const BoundaryKind kind = m.kind[f];
  Primitive p;
  if (kind == BoundaryKind::FarField) {
    p = s.gas.primitive(outside_state(s, q, f));
  } else if (kind == BoundaryKind::SlipWall) {
    p = s.gas.primitive(inner);
    const double nx = m.normal[2 * f], ny = m.normal[2 * f + 1];
    const double un = p.u * nx + p.v * ny;
    p.u -= 2.0 * un * nx, p.v -= 2.0 * un * ny;
  } else {
    p = s.gas.primitive(wall_ghost(s, kind, inner));
  }
  out[0] = p.rho, out[1] = p.u, out[2] = p.v, out[3] = p.p;
}

// Cell c's weighted least-squares gradient of the primitives q (gradients.hpp):
// the right-hand side summed as the face loop of the sequential version adds it
// (face neighbours face by face, ascending, or the stencil list in order, then
// the ghosts of the cell's boundary faces, ascending), times the inverse normal matrix.
TB_HOST_DEVICE inline void least_squares_gradient(const MeshView& m, const double* q, const double* ghost, index_t c,
                                                  double* g) {
  for (int k = 0; k < 2 * num_vars; ++k) g[k] = 0.0;
  const double* qc = q + 4 * c;
  if (m.stencil_ptr) {
    for (index_t e = m.stencil_ptr[c]; e < m.stencil_ptr[c + 1]; ++e) {
      const double* qj = q + 4 * m.stencil_cells[e];
      const double wx = m.stencil_weighted[2 * e], wy = m.stencil_weighted[2 * e + 1];
      for (int v = 0; v < num_vars; ++v) {
        const double dq = qj[v] - qc[v];
        g[2 * v] += wx * dq, g[2 * v + 1] += wy * dq;
      }
    }
  }
  for (index_t e = m.cell_face_ptr[c]; e < m.cell_face_ptr[c + 1]; ++e) {
    const index_t f = m.cell_faces[e];
    const index_t l = m.face_left[f], r = m.face_right[f];
    if (r >= 0) {
      if (m.stencil_ptr) continue;
      const double dx = m.centroid[2 * r] - m.centroid[2 * l], dy = m.centroid[2 * r + 1] - m.centroid[2 * l + 1];
      const double w2 = m.ls_face_weight[f];
      for (int k = 0; k < num_vars; ++k) {
        // The same term for both cells: (-d)(-dq) = d dq.
        const double dq = w2 * (q[4 * r + k] - q[4 * l + k]);
        g[2 * k] += dx * dq, g[2 * k + 1] += dy * dq;
      }
    } else if (m.ghost_offset) {
      const double dx = m.ghost_offset[2 * f], dy = m.ghost_offset[2 * f + 1], w2 = m.ls_face_weight[f];
      for (int k = 0; k < num_vars; ++k) {
        const double dq = w2 * (ghost[4 * f + k] - qc[k]);
        g[2 * k] += dx * dq, g[2 * k + 1] += dy * dq;
      }
    }
  }
  const double* inv = m.ls_inverse + 3 * c;
  for (int k = 0; k < num_vars; ++k) {
    const double bx = g[2 * k], by = g[2 * k + 1];
    g[2 * k] = inv[0] * bx + inv[1] * by;
    g[2 * k + 1] = inv[1] * bx + inv[2] * by;
  }
}

// Venkatakrishnan (1995): psi = (d1^2 + eps2 + 2 d1 d2) / (d1^2 + 2 d2^2 + d1 d2 + eps2),
// d1 the allowed excursion, d2 the unlimited one.
TB_HOST_DEVICE inline double venkat(double d1, double d2, double eps2) {
  return (d1 * d1 + eps2 + 2.0 * d1 * d2) / (d1 * d1 + 2.0 * d2 * d2 + d1 * d2 + eps2);
}

// Cell c's limiter values (gradients.hpp): the face neighbours' range of q,
// then the smallest psi over the cell's face midpoints, faces ascending.
TB_HOST_DEVICE inline void limiter_cell(const MeshView& m, const double* q, const double* grad, index_t c,
                                        double* phi) {
  double lo[num_vars], hi[num_vars];
  const double* qc = q + 4 * c;
  for (int v = 0; v < num_vars; ++v) lo[v] = hi[v] = qc[v], phi[v] = 1.0;
  const index_t begin = m.cell_face_ptr[c], end = m.cell_face_ptr[c + 1];
  for (index_t e = begin; e < end; ++e) {
    const index_t f = m.cell_faces[e];
    if (m.face_right[f] < 0) continue;
    const double* qn = q + 4 * (m.face_left[f] == c ? m.face_right[f] : m.face_left[f]);
    for (int v = 0; v < num_vars; ++v) lo[v] = std::min(lo[v], qn[v]), hi[v] = std::max(hi[v], qn[v]);
  }
  const double* g = grad + 8 * c;
  const double cx = m.centroid[2 * c], cy = m.centroid[2 * c + 1], eps2 = m.limiter_eps2[c];
  for (index_t e = begin; e < end; ++e) {
    const index_t f = m.cell_faces[e];
    const double mx = m.midpoint[2 * f], my = m.midpoint[2 * f + 1];
    for (int v = 0; v < num_vars; ++v) {
      const double d2 = g[2 * v] * (mx - cx) + g[2 * v + 1] * (my - cy);
      double psi = 1.0;
      if (d2 > 0.0)
        psi = venkat(hi[v] - qc[v], d2, eps2);
      else if (d2 < 0.0)
        psi = venkat(lo[v] - qc[v], d2, eps2);
      phi[v] = std::min(phi[v], std::clamp(psi, 0.0, 1.0));
    }
  }
}

// The thin-layer viscous flux through no-slip wall face f (the wall as a
// mirrored ghost cell), as the residual subtracts it: r_i -= flux |f|.
TB_HOST_DEVICE inline State wall_viscous_flux(const MeshView& m, const SchemeView& s, const double* w, index_t f) {
  const State inner = load_state(w, m.face_left[f]);
  const double mu = s.viscous.mu(s.viscous.temperature(s.gas, inner));
  return thin_layer_flux(s.viscous, s.gas, inner, wall_ghost(s, m.kind[f], inner), m.normal[2 * f], m.normal[2 * f + 1],
                         m.distance[f], mu);
}

// d wall_ghost / d inner: rho_g = rho, m_g = -m, E_g = p_g / (gamma - 1) + |m|^2 / (2 rho).
TB_HOST_DEVICE inline Block wall_ghost_jacobian(const SchemeView& s, BoundaryKind kind, const State& inner) {
  const Gas& gas = s.gas;
  const double rho = inner[0], u = inner[1] / rho, v = inner[2] / rho;
  Block j{};
  j[0] = 1.0;
  j[1 * num_vars + 1] = -1.0;
  j[2 * num_vars + 2] = -1.0;
  const State dp = pressure_gradient(gas, inner);
  const double half_q2 = 0.5 * (u * u + v * v);
  // d(|m|^2 / 2 rho) = (-q^2/2, u, v, 0).
  const State dkin = {-half_q2, u, v, 0.0};
  State dpg = dp;  // adiabatic: p_g = p
  if (kind == BoundaryKind::NoSlipIsothermal) {
    // p_g = rho T_g / gamma = (2 T_w rho - gamma p) / gamma.
    const double tw = s.wall_temperature;
    for (int m = 0; m < num_vars; ++m) dpg[m] = (m == 0 ? 2.0 * tw / gas.gamma : 0.0) - dp[m];
  }
  for (int m = 0; m < num_vars; ++m) j[3 * num_vars + m] = dpg[m] / (gas.gamma - 1.0) + dkin[m];
  return j;
}

// d wall_viscous_flux / d inner of no-slip wall face f (mu frozen): the
// thin-layer derivatives through the ghost's.
TB_HOST_DEVICE inline Block wall_viscous_jacobian(const MeshView& m, const SchemeView& s, const double* w, index_t f) {
  const State inner = load_state(w, m.face_left[f]);
  const BoundaryKind kind = m.kind[f];
  const double mu = s.viscous.mu(s.viscous.temperature(s.gas, inner));
  const FluxJacobians j = thin_layer_jacobians(s.viscous, s.gas, inner, wall_ghost(s, kind, inner), m.normal[2 * f],
                                               m.normal[2 * f + 1], m.distance[f], mu);
  const Block g = wall_ghost_jacobian(s, kind, inner);
  Block d = j.left;
  for (int k = 0; k < num_vars; ++k)
    for (int c = 0; c < num_vars; ++c)
      for (int l = 0; l < num_vars; ++l) d[k * num_vars + c] += j.right[k * num_vars + l] * g[l * num_vars + c];
  return d;
}

// The thin-layer viscous flux's blocks of face f, negated as the residual
// subtracts the flux: -dF_v/dw_L and -dF_v/dw_R (mu at the mean temperature);
// on a no-slip wall -d/dw_i and zeros; zeros on other boundary faces. So that
// gather_jacobian_rows adds them as it adds the inviscid ones.
TB_HOST_DEVICE inline void viscous_jacobian_face(const MeshView& m, const SchemeView& s, const double* w, index_t f,
                                                 double* out) {
  for (int k = 0; k < 32; ++k) out[k] = 0.0;
  const index_t right = m.face_right[f];
  if (right < 0) {
    if (!is_no_slip(m.kind[f])) return;
    const Block d = wall_viscous_jacobian(m, s, w, f);
    for (int k = 0; k < 16; ++k) out[k] = -d[k];
    return;
  }
  const State l = load_state(w, m.face_left[f]), r = load_state(w, right);
  const Viscosity& visc = s.viscous;
  const double mu = visc.mu(0.5 * (visc.temperature(s.gas, l) + visc.temperature(s.gas, r)));
  const FluxJacobians j =
      thin_layer_jacobians(visc, s.gas, l, r, m.normal[2 * f], m.normal[2 * f + 1], m.distance[f], mu);
  for (int k = 0; k < 16; ++k) out[k] = -j.left[k], out[16 + k] = -j.right[k];
}

// -F_v . n |f| of face f, out of its left cell (seed 001 §2): inside, the face
// gradient by the modified average of the cell gradients (q.primitive, q.grad);
// on a no-slip wall the thin-layer flux; on a manufactured far field its exact
// flux (q.outside_viscous); zero elsewhere.
TB_HOST_DEVICE inline void viscous_face_flux(const MeshView& m, const SchemeView& s, const FlowView& q, index_t f,
                                             double* out) {
  const double len = m.length[f];
  const index_t l = m.face_left[f], r = m.face_right[f];
  for (int k = 0; k < num_vars; ++k) out[k] = 0.0;
  if (r < 0) {
    const BoundaryKind kind = m.kind[f];
    if (q.outside_viscous && kind == BoundaryKind::FarField)
      for (int k = 0; k < num_vars; ++k) out[k] = -(q.outside_viscous[4 * f + k] * len);
    if (!is_no_slip(kind)) return;
    const State flux = wall_viscous_flux(m, s, q.w, f);
    for (int k = 0; k < num_vars; ++k) out[k] = -(flux[k] * len);
    return;
  }
  const Gas& gas = s.gas;
  const double* ql = q.primitive + 4 * l;
  const double* qr = q.primitive + 4 * r;
  const VelocityTemperatureGradients gl = velocity_temperature_gradients(ql[0], ql[3], q.grad + 8 * l, gas.gamma);
  const VelocityTemperatureGradients gr = velocity_temperature_gradients(qr[0], qr[3], q.grad + 8 * r, gas.gamma);
  const double dx = m.centroid[2 * r] - m.centroid[2 * l], dy = m.centroid[2 * r + 1] - m.centroid[2 * l + 1];
  const double dist = std::hypot(dx, dy), tx = dx / dist, ty = dy / dist;
  const double tl = s.viscous.temperature(gas, load_state(q.w, l)), tr = s.viscous.temperature(gas, load_state(q.w, r));
  // Modified average: the mean gradient with its component along the centroid
  // line replaced by the difference quotient, which damps odd-even modes.
  const auto corrected = [&](double gxl, double gyl, double gxr, double gyr, double jump, double& gx, double& gy) {
    const double mx = 0.5 * (gxl + gxr), my = 0.5 * (gyl + gyr), c = jump / dist - (mx * tx + my * ty);
    gx = mx + c * tx, gy = my + c * ty;
  };
  VelocityTemperatureGradients g;
  corrected(gl.ux, gl.uy, gr.ux, gr.uy, qr[1] - ql[1], g.ux, g.uy);
  corrected(gl.vx, gl.vy, gr.vx, gr.vy, qr[2] - ql[2], g.vx, g.vy);
  corrected(gl.tx, gl.ty, gr.tx, gr.ty, tr - tl, g.tx, g.ty);
  const State flux = viscous_flux(s.viscous, g, 0.5 * (ql[1] + qr[1]), 0.5 * (ql[2] + qr[2]), 0.5 * (tl + tr),
                                  m.normal[2 * f], m.normal[2 * f + 1]);
  for (int k = 0; k < num_vars; ++k) out[k] = -(flux[k] * len);
}

// The pressure the inviscid flux exerts on wall face f: its normal momentum
// flux, from the face state of the residual of `order`.
TB_HOST_DEVICE inline double wall_pressure(const MeshView& m, const SchemeView& s, const FlowView& q, int order,
                                           index_t f) {
  const double nx = m.normal[2 * f], ny = m.normal[2 * f + 1];
  const State flux = flux_bodies::boundary_flux(m.kind[f], s.flux, s.gas, face_side(m, s, q, order, m.face_left[f], f),
                                                outside_state(s, q, f), nx, ny, s.wall_flux, s.roe);
  return flux[1] * nx + flux[2] * ny;
}

// Wall face f's part of the force on the body (forces.hpp), four values: the
// pressure force (p - p_inf) n |f| and the viscous one -tau n |f|; zeros on
// other faces and on faces of cells from `owned` on (a piece's ghosts).
TB_HOST_DEVICE inline void wall_force(const MeshView& m, const SchemeView& s, const FlowView& q, int order,
                                      index_t owned, index_t f, double* out) {
  for (int k = 0; k < 4; ++k) out[k] = 0.0;
  if (m.face_right[f] >= 0 || !is_wall(m.kind[f]) || m.face_left[f] >= owned) return;
  const double nx = m.normal[2 * f], ny = m.normal[2 * f + 1], len = m.length[f];
  const double dp = (wall_pressure(m, s, q, order, f) - s.gas.pressure(s.free_stream)) * len;
  out[0] = dp * nx, out[1] = dp * ny;
  if (is_no_slip(m.kind[f]) && s.viscous.enabled()) {
    const State fv = wall_viscous_flux(m, s, q.w, f);
    out[2] = -(fv[1] * len), out[3] = -(fv[2] * len);
  }
}

// The sum of cell c's face slots, faces ascending: + where c is left, - or +
// (FaceSign) where right; onto out's values where `add`, else from zero.
TB_HOST_DEVICE inline void gather_cell(const MeshView& m, FaceSign sign, bool add, int width, const double* face_value,
                                       index_t c, double* out) {
  if (!add)
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

// The matrix-free product's step along x (matrix_free_system.hpp, Walker and
// Pernice): sqrt(eps (1 + ||w||)) / ||x|| from ||x||^2; 0 for x = 0, where
// the product is 0.
TB_HOST_DEVICE inline double difference_step(double x_squared, double w_norm) {
  if (x_squared == 0.0) return 0.0;
  return std::sqrt(0x1p-52 * (1.0 + w_norm)) / std::sqrt(x_squared);
}

// ||w|| from its four squared sums (squared_sums), added in variable order.
TB_HOST_DEVICE inline double norm_of_sums(const double* sums) {
  return std::sqrt(sums[0] + sums[1] + sums[2] + sums[3]);
}

// The exact Jacobian's column (j, k) by a one-sided difference
// (coloured_jacobian.hpp): the step 2^-26 (1 + |w|), the square root of the
// unit roundoff; then, from the residual of the perturbed state, the column's
// entries in the blocks (i, j) of the cells i its column reaches (column j's
// rows are row j's columns: the pattern is symmetric), divided by the step as
// it was represented, and the state's entry put back.
TB_HOST_DEVICE inline void perturb_column(const double* w, index_t j, int k, double* trial) {
  const std::size_t e = 4 * std::size_t(j) + std::size_t(k);
  trial[e] = w[e] + 1.4901161193847656e-08 * (1.0 + std::abs(w[e]));
}

TB_HOST_DEVICE inline void difference_column(const ColumnPattern& p, const double* w, const double* r,
                                             const double* r_trial, index_t j, int k, double* trial, double* values) {
  const std::size_t e = 4 * std::size_t(j) + std::size_t(k);
  const double h = trial[e] - w[e];
  trial[e] = w[e];
  for (index_t q = p.row_ptr[j]; q < p.row_ptr[j + 1]; ++q) {
    const std::size_t i = std::size_t(p.col_idx[q]);
    double* block = values + 16 * std::size_t(p.transposed[q]);
    for (int m = 0; m < num_vars; ++m) block[m * num_vars + k] = (r_trial[4 * i + m] - r[4 * i + m]) / h;
  }
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
