#pragma once
// The per-cell bodies of the collocated fractional step (docs/incompressible.md),
// over the plain views of grid_view.hpp: one function per cell and step, run by
// the sequential, OpenMP and CUDA kernels of kernels.hpp alike. Each is the
// arithmetic of the host code it replaced (operators.cpp, momentum.cpp,
// pressure.cpp, fractional_step.cpp), written in the same order, so that the
// host path keeps its bits.
#include <cmath>

#include "physics/incompressible/grid_view.hpp"

namespace tb::incompressible::cell {

// Component e of an interleaved field (n per cell) on the interior face of c
// across side s: linear interpolation between the two centres.
TB_HOST_DEVICE inline double interpolate(const GridView& g, const double* f, int n, int e, const CellIndex& c, int d,
                                         int s) {
  const index_t p = g.index(c), q = g.neighbour(p, c, d, s);
  const double w = g.axis[d].weight[g.face_below(c, d, s)];
  const double lo = f[std::size_t(n) * std::size_t(s > 0 ? p : q) + std::size_t(e)],
               hi = f[std::size_t(n) * std::size_t(s > 0 ? q : p) + std::size_t(e)];
  return w * lo + (1.0 - w) * hi;
}

// A scalar's face value, extrapolated linearly from the two nearest cells at a boundary.
TB_HOST_DEVICE inline double face_value_extrapolated(const GridView& g, const double* f, const CellIndex& c, int d,
                                                     int s) {
  if (g.has_neighbour(c, d, s)) return interpolate(g, f, 1, 0, c, d, s);
  const AxisView& a = g.axis[d];
  const index_t p = g.index(c), q = g.neighbour(p, c, d, -s);
  const double spacing = a.spacing[s > 0 ? c[d] - 1 : c[d]];
  return f[p] + (f[p] - f[q]) * 0.5 * a.widths[c[d]] / spacing;
}

// grad p by the Gauss rule (operators.hpp's pressure_gradient).
TB_HOST_DEVICE inline void pressure_gradient(const GridView& g, const double* p, double* grad, index_t cell) {
  const int n = g.dim;
  const CellIndex c = g.ijk(cell);
  for (int d = 0; d < n; ++d)
    grad[std::size_t(n) * std::size_t(cell) + std::size_t(d)] =
        (face_value_extrapolated(g, p, c, d, 1) - face_value_extrapolated(g, p, c, d, -1)) / g.axis[d].widths[c[d]];
}

// The Rhie-Chow velocities of the faces below cell `cell` in each direction,
// and the boundary faces' velocities (operators.hpp's rhie_chow_velocities).
TB_HOST_DEVICE inline void rhie_chow(const GridView& g, const BoundaryView& b, const double* u, const double* p,
                                     const double* grad_p, double dt, const FaceView& out, index_t cell) {
  const int n = g.dim;
  const CellIndex c = g.ijk(cell);
  for (int d = 0; d < n; ++d) {
    double* faces = out.normal[d];
    if (!g.has_neighbour(c, d, -1)) faces[out.face(d, c, -1)] = b.value(side_index(d, -1), c)[d];
    if (!g.has_neighbour(c, d, 1)) faces[out.face(d, c, 1)] = b.value(side_index(d, 1), c)[d];
    if (!g.has_neighbour(c, d, -1)) continue;
    const double compact = (p[cell] - p[g.neighbour(cell, c, d, -1)]) / g.axis[d].spacing[g.face_below(c, d, -1)];
    faces[out.face(d, c, -1)] =
        interpolate(g, u, n, d, c, d, -1) + dt * (interpolate(g, grad_p, n, d, c, d, -1) - compact);
  }
}

// Net outward flux per unit volume of the cell (operators.hpp's divergence).
TB_HOST_DEVICE inline double divergence(const GridView& g, const ConstFaceView& f, index_t cell) {
  const CellIndex c = g.ijk(cell);
  double sum = 0.0;
  for (int d = 0; d < g.dim; ++d)
    sum += (f.normal[d][f.face(d, c, 1)] - f.normal[d][f.face(d, c, -1)]) / g.axis[d].widths[c[d]];
  return sum;
}

// The projection of one cell (operators.hpp's project, after grad phi):
// the faces below it, its velocity and its pressure.
TB_HOST_DEVICE inline void project(const GridView& g, const double* phi, double dt, const double* grad_phi,
                                   const FaceView& faces, double* u, double* p, index_t cell) {
  const int n = g.dim;
  const CellIndex c = g.ijk(cell);
  for (int d = 0; d < n; ++d)
    if (g.has_neighbour(c, d, -1))
      faces.normal[d][faces.face(d, c, -1)] -=
          dt * (phi[cell] - phi[g.neighbour(cell, c, d, -1)]) / g.axis[d].spacing[g.face_below(c, d, -1)];
  for (int d = 0; d < n; ++d)
    u[std::size_t(n) * std::size_t(cell) + std::size_t(d)] -=
        dt * grad_phi[std::size_t(n) * std::size_t(cell) + std::size_t(d)];
  p[cell] += phi[cell];
}

// rhs_P = -(1/dt) sum_f A_f U*_f, 0 in the pinned cell (pressure.hpp's poisson_rhs).
TB_HOST_DEVICE inline double poisson_rhs(const GridView& g, const ConstFaceView& faces, double dt, index_t cell) {
  const CellIndex c = g.ijk(cell);
  double flux = 0.0;
  for (int d = 0; d < g.dim; ++d)
    flux += g.area(d, c) * (faces.normal[d][faces.face(d, c, 1)] - faces.normal[d][faces.face(d, c, -1)]);
  return cell == g.pin ? 0.0 : -flux / dt;
}

// One row of the Poisson matrix (pressure.hpp's assemble_poisson).
TB_HOST_DEVICE inline void poisson_row(const GridView& g, const index_t* position, const BlockView& a, index_t cell) {
  const CellIndex c = g.ijk(cell);
  const index_t* pos = position + std::size_t(stencil_slots) * std::size_t(cell);
  double diag = 0.0;
  for (int d = 0; d < g.dim; ++d)
    for (int s = -1; s <= 1; s += 2) {
      if (!g.has_neighbour(c, d, s)) continue;
      const double coef = g.area(d, c) / g.axis[d].spacing[g.face_below(c, d, s)];
      diag += coef;
      const index_t nb = g.neighbour(cell, c, d, s);
      *a.at(pos[stencil_slot(d, s)]) = (cell == g.pin || nb == g.pin) ? 0.0 : -coef;
    }
  *a.at(pos[centre_slot]) = cell == g.pin ? 1.0 : diag;
}

// (A p) of one owned cell (pressure.hpp's add_poisson_product, before the add).
TB_HOST_DEVICE inline double poisson_product(const GridView& g, const index_t* position, const ConstBlockView& a,
                                             const double* p, index_t cell) {
  const CellIndex c = g.ijk(cell);
  const index_t* pos = position + std::size_t(stencil_slots) * std::size_t(cell);
  double sum = *a.at(pos[centre_slot]) * p[cell];
  for (int d = 0; d < g.dim; ++d)
    for (int s = -1; s <= 1; s += 2)
      if (g.has_neighbour(c, d, s)) sum += *a.at(pos[stencil_slot(d, s)]) * p[g.neighbour(cell, c, d, s)];
  return sum;
}

// What the momentum rows read (momentum.hpp's MomentumInput).
struct MomentumView {
  const double* u = nullptr;       // dim per cell
  const double* grad_p = nullptr;  // dim per cell
  double nu = 0.01;
  double dt = 0.01;
  double body_force[3] = {0.0, 0.0, 0.0};
};

// One face's share of a momentum row: the residual and the blocks of the
// cell (diag) and of the neighbour across the face (off; null at a boundary).
TB_HOST_DEVICE inline void momentum_face(const GridView& g, const BoundaryView& b, const MomentumView& in,
                                         const CellIndex& c, index_t cell, int d, int s, double* res, double* diag,
                                         double* off) {
  const int n = g.dim;
  const double area = g.area(d, c);
  const AxisView& ax = g.axis[d];
  const double* up = in.u + std::size_t(n) * std::size_t(cell);
  if (!g.has_neighbour(c, d, s)) {
    // Boundary: Dirichlet velocity at half a cell; no dependence on the unknowns in the flux.
    const double* ub = b.value(side_index(d, s), c);
    const double flux = s * area * ub[d];
    const double diff = in.nu * area / (0.5 * ax.widths[c[d]]);
    for (int e = 0; e < n; ++e) {
      res[e] += -flux * ub[e] + diff * (ub[e] - up[e]);
      diag[e * n + e] += 0.5 * diff;
    }
    return;
  }
  const index_t nb = g.neighbour(cell, c, d, s);
  const double* un = in.u + std::size_t(n) * std::size_t(nb);
  const index_t lo = g.face_below(c, d, s);
  const double w_self = s > 0 ? ax.weight[lo] : 1.0 - ax.weight[lo];
  const double w_nb = 1.0 - w_self;
  double uf[3] = {0.0, 0.0, 0.0};
  for (int e = 0; e < n; ++e) uf[e] = w_self * up[e] + w_nb * un[e];
  const double flux = s * area * uf[d];
  const double diff = in.nu * area / ax.spacing[lo];
  for (int e = 0; e < n; ++e) res[e] += -flux * uf[e] + diff * (un[e] - up[e]);
  // d(F u_f)/du_X = w_X (F I + s A u_f e_d^T); half of it for Crank-Nicolson.
  for (int r = 0; r < n; ++r)
    for (int q = 0; q < n; ++q) {
      const double jac = (r == q ? flux : 0.0) + (q == d ? s * area * uf[r] : 0.0);
      diag[r * n + q] += 0.5 * w_self * jac;
      off[r * n + q] += 0.5 * w_nb * jac;
    }
  for (int e = 0; e < n; ++e) {
    diag[e * n + e] += 0.5 * diff;
    off[e * n + e] -= 0.5 * diff;
  }
}

// One momentum row (momentum.hpp's assemble_momentum): its blocks, its
// residual into rhs, and into acc[0] its sum of res^2 / vol, into acc[1] its volume.
TB_HOST_DEVICE inline void momentum_row(const GridView& g, const BoundaryView& b, const MomentumView& in,
                                        const index_t* position, const BlockView& a, double* rhs, index_t cell,
                                        double* acc) {
  const int n = g.dim;
  const CellIndex c = g.ijk(cell);
  const index_t* pos = position + std::size_t(stencil_slots) * std::size_t(cell);
  for (int slot = 0; slot < stencil_slots; ++slot)
    if (pos[slot] != no_block) {
      double* block = a.at(pos[slot]);
      for (index_t k = 0; k < a.entries; ++k) block[k] = 0.0;
    }
  double* diag = a.at(pos[centre_slot]);
  double* res = rhs + std::size_t(n) * std::size_t(cell);
  const double vol = g.volume(c);
  for (int e = 0; e < n; ++e) {
    diag[e * n + e] = vol / in.dt;
    res[e] = vol * (in.body_force[e] - in.grad_p[std::size_t(n) * std::size_t(cell) + std::size_t(e)]);
  }
  for (int d = 0; d < n; ++d)
    for (int s = -1; s <= 1; s += 2) {
      const index_t p = pos[stencil_slot(d, s)];
      momentum_face(g, b, in, c, cell, d, s, res, diag, p != no_block ? a.at(p) : nullptr);
    }
  for (int e = 0; e < n; ++e) acc[0] += res[e] * res[e] / vol;
  acc[1] += vol;
}

// A step's maxima over one owned cell (fractional_step.cpp's report_maxima):
// m[0] the CFL number, m[1] |u - u_old| / dt, m[2] |div|, m[3] 1 where the
// velocity is not finite. Maxima, so any order of cells gives the same bits.
TB_HOST_DEVICE inline void step_maxima(const GridView& g, const double* u, const double* u_old, const double* div,
                                       double dt, index_t cell, double* m) {
  const int n = g.dim;
  const CellIndex c = g.ijk(cell);
  double sum = 0.0;
  for (int d = 0; d < n; ++d) {
    const std::size_t k = std::size_t(n) * std::size_t(cell) + std::size_t(d);
    if (!std::isfinite(u[k])) m[3] = 1.0;
    sum += std::fabs(u[k]) / g.axis[d].widths[c[d]];
    const double change = std::fabs(u[k] - u_old[k]) / dt;
    m[1] = change > m[1] ? change : m[1];
  }
  const double cfl = sum * dt;
  m[0] = cfl > m[0] ? cfl : m[0];
  const double dv = std::fabs(div[cell]);
  m[2] = dv > m[2] ? dv : m[2];
}

// The projection's scale at one owned cell (FractionalStep::projection_target):
// the larger of the divergence the step removes there, dt |b_div| / vol (b_div
// per owned cell), and sum_d |u_d| / h_d. A maximum: any order of cells.
TB_HOST_DEVICE inline void projection_scale(const GridView& g, double dt, const double* b_div, const double* u,
                                            index_t cell, double* m) {
  const int n = g.dim;
  const CellIndex c = g.ijk(cell);
  const double removed = dt * std::fabs(b_div[cell - g.owned_begin]) / g.volume(c);
  double speed = 0.0;
  for (int d = 0; d < n; ++d)
    speed += std::fabs(u[std::size_t(n) * std::size_t(cell) + std::size_t(d)]) / g.axis[d].widths[c[d]];
  const double scale = removed > speed ? removed : speed;
  m[0] = scale > m[0] ? scale : m[0];
}

// The Poisson residual a projection leaves at one owned cell (FractionalStep::
// divergence_left): r (per owned cell) from A phi - b to b - A phi, zero at the
// pinned cell, whose equation is the sum of the others'.
TB_HOST_DEVICE inline void residual_left(index_t pin, index_t owned_begin, double* r, index_t cell) {
  const index_t i = cell - owned_begin;
  r[i] = cell == pin ? 0.0 : -r[i];
}

// Its flux dt r_i into the sum the pinned cell carries (i: the owned cell's
// position), and its divergence dt |r| / vol (a maximum).
TB_HOST_DEVICE inline void divergence_flux(double dt, const double* r, index_t i, double* acc) { acc[0] += dt * r[i]; }
TB_HOST_DEVICE inline void divergence_left(const GridView& g, double dt, const double* r, index_t cell, double* m) {
  const double v = dt * std::fabs(r[cell - g.owned_begin]) / g.volume(g.ijk(cell));
  m[0] = v > m[0] ? v : m[0];
}

// A line sample: the weighted sum of component e of a field of m per cell over
// the (up to four) cells bracketing point i, 4 per point, skipping zero weights
// (centreline.cpp's sample_line).
TB_HOST_DEVICE inline double weighted_sample(const index_t* cells, const double* w, const double* f, int m, int e,
                                             index_t i) {
  double sum = 0.0;
  for (int k = 0; k < 4; ++k) {
    const std::size_t at = 4 * std::size_t(i) + std::size_t(k);
    if (w[at] != 0.0) sum += w[at] * f[std::size_t(m) * std::size_t(cells[at]) + std::size_t(e)];
  }
  return sum;
}

// A centreline comparison (centreline.hpp's ProfileDeviation): per reference
// point two slots of the profile, each a fixed part plus the line sample of
// its (up to four) cells, 4 per slot, 8 per point; the lower slot's weight;
// the reference value.
struct LineView {
  const index_t* cells = nullptr;
  const double* w = nullptr;
  const double* fixed = nullptr;
  const double* mix = nullptr;
  const double* reference = nullptr;
};

// |profile - reference| at reference point i: the slots as sample_line adds
// them, mixed as interpolate() does, for component e of f (m per cell).
TB_HOST_DEVICE inline double line_deviation(const LineView& l, const double* f, int m, int e, index_t i) {
  double slot[2];
  for (int s = 0; s < 2; ++s) {
    const std::size_t q = 2 * std::size_t(i) + std::size_t(s);
    double sum = l.fixed[q];
    for (std::size_t at = 4 * q; at < 4 * q + 4; ++at)
      if (l.w[at] != 0.0) sum += l.w[at] * f[std::size_t(m) * std::size_t(l.cells[at]) + std::size_t(e)];
    slot[s] = sum;
  }
  const double w = l.mix[i];
  return std::fabs(w * slot[0] + (1.0 - w) * slot[1] - l.reference[i]);
}

// The convective outflow of a side (boundaries.hpp), per boundary face: face
// f of side `side` in Boundaries' order (the first tangential axis fastest),
// its cell, and its values (3 per face).
TB_HOST_DEVICE inline CellIndex side_cell(const GridView& g, int side, index_t f) {
  const int d = side / 2, t1 = d == 0 ? 1 : 0, t2 = d == 2 ? 1 : 2;
  CellIndex c;
  c[d] = side % 2 == 0 ? 0 : g.axis[d].cells - 1;
  c[t1] = f % g.axis[t1].cells;
  c[t2] = f / g.axis[t1].cells;
  return c;
}
TB_HOST_DEVICE inline index_t side_faces(const GridView& g, int side) {
  const int d = side / 2;
  return g.axis[d == 0 ? 1 : 0].cells * g.axis[d == 2 ? 1 : 2].cells;
}
// Backward Euler in time, a one-sided difference over the half cell (stable
// for any dt): v <- (v + r u_cell) / (1 + r), r = dt speed / (h / 2).
TB_HOST_DEVICE inline void advance_outflow_face(const GridView& g, int side, double dt, double speed, const double* u,
                                                double* values, index_t f) {
  const CellIndex c = side_cell(g, side, f);
  const int d = side / 2;
  const double r = dt * speed / (0.5 * g.axis[d].widths[c[d]]);
  double* v = values + 3 * f;
  const double* up = u + index_t(g.dim) * g.index(c);
  for (int e = 0; e < g.dim; ++e) v[e] = (v[e] + r * up[e]) / (1.0 + r);
}
// Face f's outward volume flux, zero where its cell is not owned.
TB_HOST_DEVICE inline double outflow_face_flux(const GridView& g, int side, const double* values, index_t f) {
  const CellIndex c = side_cell(g, side, f);
  const index_t cell = g.index(c);
  if (cell < g.owned_begin || cell >= g.owned_end) return 0.0;
  const int d = side / 2, s = side % 2 == 0 ? -1 : 1;
  return s * g.area(d, c) * values[3 * f + d];
}
// The normal component moved by shift outwards (the mass correction).
TB_HOST_DEVICE inline void shift_outflow_face(int side, double shift, double* values, index_t f) {
  const int d = side / 2, s = side % 2 == 0 ? -1 : 1;
  values[3 * f + d] += s * shift;
}

}  // namespace tb::incompressible::cell
