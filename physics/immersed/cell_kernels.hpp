#pragma once
// The per-cell bodies of seed 004's fractional step on the immersed-boundary
// grid (fractional_step.hpp), over the plain views of grid_view.hpp: one
// function per cell (or ghost cell, or surface point) and step, run by the
// sequential, OpenMP and CUDA kernels of kernels.hpp alike. Each is the
// arithmetic of the host code it replaced (fractional_step.cpp,
// scalar_system.cpp, surface_force.cpp), written in the same order, so that
// the host path keeps its bits.
#include <cmath>

#include "physics/immersed/grid_view.hpp"

namespace tb::immersed::cell {

// The three velocity components, one array each.
template <class T>
struct Components {
  T* c[3] = {nullptr, nullptr, nullptr};
};
using VelocityView = Components<double>;
using ConstVelocityView = Components<const double>;

// What the right-hand side of Eq. 5 for component e reads and writes.
struct MomentumView {
  int e = 0;
  const double* phi = nullptr;  // u_e at t^n
  ConstFaceView faces;          // U^n
  SidesView sides;
  const char* cleared = nullptr;  // per cell: freshly cleared (Euler instead of Adams-Bashforth 2)
  bool first = false;             // the first step (Euler everywhere)
  double dt = 0.0, nu = 0.0;
  double* n_old = nullptr;  // the advection term of the last step, replaced by this one's
  double* rhs = nullptr;
};

// Conservative advection sum_f U_f phi_f / Delta x with phi_f linearly
// interpolated between centres (second order on the stretched grid).
TB_HOST_DEVICE inline double advection(const GridView& g, const MomentumView& in, const CellIndex& c, index_t cell) {
  const double* phi = in.phi;
  double sum = 0.0;
  for (int d = 0; d < 3; ++d)
    for (int s = -1; s <= 1; s += 2) {
      double value = phi[cell];
      if (g.has_neighbour(c, d, s)) {
        const index_t lo = s > 0 ? c[d] : c[d] - 1;
        const double t = g.face_fraction(d, lo);
        const double a = s > 0 ? phi[cell] : phi[cell - g.stride(d)];
        const double b = s > 0 ? phi[cell + g.stride(d)] : phi[cell];
        value = a + t * (b - a);
      } else if (in.sides.velocity[side_index(d, s)] == FaceKind::dirichlet) {
        value = in.sides.value[in.e][side_index(d, s)];
      }
      sum += s * in.faces.normal[d][in.faces.face(d, c, s)] * value / g.axis[d].widths[c[d]];
    }
  return sum;
}

// (delta^2 phi)_P of Eq. 7 with the box's Dirichlet values (apply_laplacian).
TB_HOST_DEVICE inline double laplacian(const GridView& g, const MomentumView& in, const CellIndex& c, index_t cell) {
  const double* phi = in.phi;
  double sum = 0.0;
  for (int d = 0; d < 3; ++d)
    for (int s = -1; s <= 1; s += 2) {
      const double coef = g.eq7_coefficient(c, d, s);
      if (g.has_neighbour(c, d, s))
        sum += coef * (phi[cell + s * g.stride(d)] - phi[cell]);
      else if (in.sides.velocity[side_index(d, s)] == FaceKind::dirichlet)
        sum += coef * (in.sides.value[in.e][side_index(d, s)] - phi[cell]);
    }
  return sum;
}

// Eq. 5's right-hand side of an owned cell: u^n + dt (-H + nu/2 delta^2 u^n)
// with H by Adams-Bashforth 2, plus the implicit half's Dirichlet box values
// (add_box_values); zero off the fluid (the ghost rows come from ghost_values).
TB_HOST_DEVICE inline void momentum_rhs(const GridView& g, const MomentumView& in, index_t cell) {
  const CellIndex c = g.ijk(cell);
  const bool fluid = g.fluid(cell);
  const double n_now = fluid ? advection(g, in, c, cell) : 0.0;
  const double lap = fluid ? laplacian(g, in, c, cell) : 0.0;
  const double h = in.first || in.cleared[cell] ? n_now : 1.5 * n_now - 0.5 * in.n_old[cell];
  in.n_old[cell] = n_now;
  double rhs = fluid ? in.phi[cell] + in.dt * (-h + 0.5 * in.nu * lap) : 0.0;
  if (fluid) {
    const double beta = 0.5 * in.dt * in.nu;
    for (int d = 0; d < 3; ++d)
      for (int s = -1; s <= 1; s += 2) {
        const int side = side_index(d, s);
        if (g.has_neighbour(c, d, s) || in.sides.velocity[side] != FaceKind::dirichlet || g.interface[side]) continue;
        rhs += beta * g.eq7_coefficient(c, d, s) * in.sides.value[in.e][side];
      }
  }
  in.rhs[cell] = rhs;
}

// The face velocities interpolated from the centres (ImmersedFlow's
// interpolate_faces): the face below the cell in each direction, and its box
// faces (the box value, or the cell's own at an outflow).
TB_HOST_DEVICE inline void face_velocities(const GridView& g, const SidesView& sides, const ConstVelocityView& u,
                                           const FaceView& faces, index_t cell) {
  const CellIndex c = g.ijk(cell);
  for (int d = 0; d < 3; ++d) {
    double* f = faces.normal[d];
    const double* v = u.c[d];
    if (c[d] > 0) {
      const double t = g.face_fraction(d, c[d] - 1);
      f[faces.face(d, c, -1)] = v[cell - g.stride(d)] + t * (v[cell] - v[cell - g.stride(d)]);
    }
    for (int s = -1; s <= 1; s += 2) {
      if (g.has_neighbour(c, d, s)) continue;
      const int side = side_index(d, s);
      f[faces.face(d, c, s)] = sides.kind[side] == SideKind::outflow ? v[cell] : sides.value[d][side];
    }
  }
}

// Sum over d of (U_{d,+} - U_{d,-}) / Delta x_d (face_divergence).
TB_HOST_DEVICE inline double divergence(const GridView& g, const ConstFaceView& faces, const CellIndex& c) {
  double div = 0.0;
  for (int d = 0; d < 3; ++d)
    div += (faces.normal[d][faces.face(d, c, 1)] - faces.normal[d][faces.face(d, c, -1)]) / g.axis[d].widths[c[d]];
  return div;
}

// Eq. 6's right-hand side -(rho/dt) div U* on fluid cells, zero elsewhere.
TB_HOST_DEVICE inline double pressure_rhs(const GridView& g, const ConstFaceView& faces, double scale, index_t cell) {
  return g.fluid(cell) ? -scale * divergence(g, faces, g.ijk(cell)) : 0.0;
}

// Eq. 4 on the cell's faces (the differences of Eq. 7, k = dt / rho) and, on
// an owned fluid cell, at its centre (central differences of face pressures);
// ghost cells keep their predictor values.
TB_HOST_DEVICE inline void project(const GridView& g, const SidesView& sides, double k, const double* p,
                                   const FaceView& faces, const VelocityView& u, index_t cell) {
  const CellIndex c = g.ijk(cell);
  for (int d = 0; d < 3; ++d) {
    double* f = faces.normal[d];
    const double w = g.axis[d].widths[c[d]];
    const index_t below = cell - g.stride(d);
    if (c[d] > 0 && g.types[cell] != CellType::solid && g.types[below] != CellType::solid)
      f[faces.face(d, c, -1)] -= k * (p[cell] - p[below]) / g.axis[d].spacing(c[d] - 1);
    for (int s = -1; s <= 1; s += 2)
      if (!g.has_neighbour(c, d, s) && sides.pressure[side_index(d, s)] == FaceKind::dirichlet)
        f[faces.face(d, c, s)] -= k * s * (0.0 - p[cell]) / (0.5 * w);
    if (!g.fluid(cell) || cell >= g.owned_end) continue;
    double face_p[2];
    for (int s = -1; s <= 1; s += 2) {
      double pf = p[cell];
      if (g.has_neighbour(c, d, s)) {
        const index_t lo = s > 0 ? c[d] : c[d] - 1;
        const double t = g.face_fraction(d, lo);
        const double a = p[s > 0 ? cell : cell - g.stride(d)], b = p[s > 0 ? cell + g.stride(d) : cell];
        pf = a + t * (b - a);
      } else if (sides.pressure[side_index(d, s)] == FaceKind::dirichlet) {
        pf = 0.0;
      }
      face_p[s > 0] = pf;
    }
    u.c[d][cell] -= k * (face_p[1] - face_p[0]) / w;
  }
}

// The step's maxima of an owned cell into m: |div U|, |u - u_old| / dt and the
// CFL number over fluid cells, and 1 in m[3] where a velocity is not finite.
TB_HOST_DEVICE inline void step_maxima(const GridView& g, const ConstVelocityView& u, const ConstVelocityView& u_old,
                                       const ConstFaceView& faces, double dt, index_t cell, double* m) {
  for (int d = 0; d < 3; ++d)
    if (!std::isfinite(u.c[d][cell])) m[3] = 1.0;
  if (!g.fluid(cell)) return;
  const CellIndex c = g.ijk(cell);
  m[0] = std::fmax(m[0], std::fabs(divergence(g, faces, c)));
  double cfl = 0.0;
  for (int d = 0; d < 3; ++d) {
    cfl += std::fabs(u.c[d][cell]) * dt / g.axis[d].widths[c[d]];
    m[1] = std::fmax(m[1], std::fabs(u.c[d][cell] - u_old.c[d][cell]) / dt);
  }
  m[2] = std::fmax(m[2], cfl);
}

// Where a scalar system's values go and how its fluid rows are weighted:
// alpha phi_P + beta (-delta^2 phi)_P (scalar_system.hpp).
struct RowsView {
  FaceKind box[6] = {};
  double alpha = 0.0, beta = 0.0;
  const index_t* row_ptr = nullptr;    // per owned cell (from owned_begin)
  const index_t* diagonal = nullptr;   // per cell: the diagonal's position
  const index_t* neighbour = nullptr;  // 6 per cell: the (d, s) neighbour's position, slot side_index(d, s)
  double* values = nullptr;
};

// The row of an owned cell (assemble_system): Eq. 7 on fluid cells, the
// identity on ghost and solid ones (ghost_rows then subtracts the stencils).
TB_HOST_DEVICE inline void system_row(const GridView& g, const RowsView& a, index_t cell) {
  for (index_t k = a.row_ptr[cell - g.owned_begin]; k < a.row_ptr[cell - g.owned_begin + 1]; ++k) a.values[k] = 0.0;
  if (!g.fluid(cell)) {
    a.values[a.diagonal[cell]] = 1.0;
    return;
  }
  const CellIndex c = g.ijk(cell);
  double diag = a.alpha;
  for (int d = 0; d < 3; ++d)
    for (int s = -1; s <= 1; s += 2) {
      const bool inside = g.has_neighbour(c, d, s);
      if (!inside && a.box[side_index(d, s)] == FaceKind::neumann) continue;
      const double coef = a.beta * g.eq7_coefficient(c, d, s);
      diag += coef;
      if (inside) a.values[a.neighbour[6 * cell + side_index(d, s)]] = -coef;
    }
  a.values[a.diagonal[cell]] = diag;
}

// The wall-fit stencils of the ghost rows (ghost_cells.hpp), flattened: ghost
// k's entries are [offsets[k], offsets[k + 1]), each a matrix position (or a
// cell) and its weight. Built once per body position.
struct StencilsView {
  index_t count = 0;
  const index_t* offsets = nullptr;
  const index_t* at = nullptr;
  const double* weights = nullptr;
};

// phi_G - sum_k w_k phi_k: ghost k's stencil subtracted from its row.
TB_HOST_DEVICE inline void ghost_row(const StencilsView& s, double* values, index_t k) {
  for (index_t e = s.offsets[k]; e < s.offsets[k + 1]; ++e) values[s.at[e]] -= s.weights[e];
}

// WallStencil::apply: w_B phi_B + sum_k w_k phi(cells_k), stencil k of s.
TB_HOST_DEVICE inline double apply_stencil(const StencilsView& s, const double* boundary_weight, double boundary_value,
                                           const double* field, index_t k) {
  double v = boundary_weight[k] * boundary_value;
  for (index_t e = s.offsets[k]; e < s.offsets[k + 1]; ++e) v += s.weights[e] * field[s.at[e]];
  return v;
}

// The surface points of SphereDrag: per point the wall pressure's stencil (a
// Neumann fit, boundary value 0) and the normal derivative's (a Dirichlet fit,
// boundary value the wall velocity), the normal and the wall velocity (3 each).
struct SurfaceView {
  StencilsView pressure, shear;
  const double* pressure_boundary = nullptr;  // w_B per point
  const double* shear_boundary = nullptr;
  const double* normal = nullptr;
  const double* wall_velocity = nullptr;
  double mu = 0.0, area = 0.0;
};

// Point i's traction times its area into acc: acc[0..3) the pressure force
// -p n A, acc[3..6) the viscous force mu du/dn A (SphereDrag::force).
TB_HOST_DEVICE inline void surface_force(const SurfaceView& s, const double* p, const ConstVelocityView& u, index_t i,
                                         double* acc) {
  const double ps = apply_stencil(s.pressure, s.pressure_boundary, 0.0, p, i);
  for (int d = 0; d < 3; ++d) {
    acc[d] -= ps * s.normal[3 * i + d] * s.area;
    acc[3 + d] += s.mu * apply_stencil(s.shear, s.shear_boundary, s.wall_velocity[3 * i + d], u.c[d], i) * s.area;
  }
}

// The cells a body's move changed (moved_cells.hpp): per cell its new type
// and its fill bits, bit side_index(d, s) for a face neighbour that was fluid
// before and is fluid now, cleared_bit for a freshly cleared cell; wall holds
// the body's velocity at a cleared cell's closest surface point (3 per cell).
inline constexpr std::uint8_t cleared_bit = 1u << 6;
struct MovedCellsView {
  index_t count = 0;
  const index_t* cells = nullptr;
  const CellType* types = nullptr;
  const std::uint8_t* fill = nullptr;
  const double* wall = nullptr;
};

// Moved cell k takes its new type; a freshly cleared one is flagged (Euler
// for its first advection term) and takes the mean of u and p over its fill
// neighbours, or the wall velocity (p kept) where it has none (Mittal et al.
// 2008 §2.4). It reads only cells that were fluid before, which no moved cell
// is, so the cells may run in any order.
TB_HOST_DEVICE inline void move_cell(const GridView& g, const MovedCellsView& m, CellType* types, char* cleared,
                                     const VelocityView& u, double* p, index_t k) {
  const index_t cell = m.cells[k];
  types[cell] = m.types[k];
  const std::uint8_t fill = m.fill[k];
  if (!(fill & cleared_bit)) return;
  cleared[cell] = 1;
  double sum[4] = {0.0, 0.0, 0.0, 0.0};
  int count = 0;
  for (int d = 0; d < 3; ++d)
    for (int s = -1; s <= 1; s += 2) {
      if (!(fill & (1u << side_index(d, s)))) continue;
      const index_t nb = cell + s * g.stride(d);
      for (int e = 0; e < 3; ++e) sum[e] += u.c[e][nb];
      sum[3] += p[nb];
      ++count;
    }
  for (int e = 0; e < 3; ++e) u.c[e][cell] = count > 0 ? sum[e] / count : m.wall[3 * k + e];
  if (count > 0) p[cell] = sum[3] / count;
}

}  // namespace tb::immersed::cell
