#include "physics/incompressible/operators.hpp"

#include "physics/incompressible/stencil_pattern.hpp"

namespace tb::incompressible {

namespace {

using Cell = std::array<index_t, 3>;

index_t neighbour(const FvGrid& g, const Cell& c, int d, int s) {
  return g.neighbour(g.index(c[0], c[1], c[2]), c, d, s);
}

// Component e of an interleaved field (n per cell) on the face of c across side
// s, for an interior face: linear interpolation between the two centres.
double interpolate(const FvGrid& g, std::span<const double> f, int n, int e, const Cell& c, int d, int s) {
  const index_t p = g.index(c[0], c[1], c[2]), q = neighbour(g, c, d, s);
  const double w = g.axis(d).weight[g.face_below(c, d, s)];
  const double lo = f[std::size_t(n) * (s > 0 ? p : q) + e], hi = f[std::size_t(n) * (s > 0 ? q : p) + e];
  return w * lo + (1.0 - w) * hi;
}

// Scalar face value with linear extrapolation from the two nearest cells at a boundary.
double face_value_extrapolated(const FvGrid& g, std::span<const double> f, const Cell& c, int d, int s) {
  if (has_neighbour(g, c, d, s)) return interpolate(g, f, 1, 0, c, d, s);
  const AxisGeometry& a = g.axis(d);
  const index_t p = g.index(c[0], c[1], c[2]), q = neighbour(g, c, d, -s);
  const double spacing = a.spacing[s > 0 ? c[d] - 1 : c[d]];
  return f[p] + (f[p] - f[q]) * 0.5 * a.widths[c[d]] / spacing;
}

}  // namespace

FaceVelocities::FaceVelocities(const FvGrid& grid) {
  for (int d = 0; d < 3; ++d) {
    wrap_[d] = grid.axis(d).periodic ? grid.cells(d) : -1;
    for (int e = 0; e < 3; ++e) ext_[d][e] = grid.cells(e) + (e == d ? 1 : 0);
    if (d < grid.dim()) normal[d].assign(std::size_t(ext_[d][0] * ext_[d][1] * ext_[d][2]), 0.0);
  }
}

void pressure_gradient(const FvGrid& g, std::span<const double> p, std::span<double> grad) {
  const int n = g.dim();
#pragma omp parallel for schedule(static) if (g.num_cells() >= openmp_min_length)
  for (index_t cell = 0; cell < g.num_cells(); ++cell) {
    const Cell c = g.ijk(cell);
    for (int d = 0; d < n; ++d)
      grad[std::size_t(n) * cell + d] =
          (face_value_extrapolated(g, p, c, d, 1) - face_value_extrapolated(g, p, c, d, -1)) / g.axis(d).widths[c[d]];
  }
}

void rhie_chow_velocities(const FvGrid& g, const Boundaries& b, std::span<const double> u, std::span<const double> p,
                          std::span<const double> grad_p, double dt, FaceVelocities& out) {
  const int n = g.dim();
#pragma omp parallel for schedule(static) if (g.num_cells() >= openmp_min_length)
  for (index_t cell = 0; cell < g.num_cells(); ++cell) {
    const Cell c = g.ijk(cell);
    for (int d = 0; d < n; ++d) {
      std::vector<double>& faces = out.normal[d];
      if (!has_neighbour(g, c, d, -1)) faces[out.face(d, c, -1)] = b.value(side_of(d, -1), c)[d];
      if (!has_neighbour(g, c, d, 1)) faces[out.face(d, c, 1)] = b.value(side_of(d, 1), c)[d];
      if (!has_neighbour(g, c, d, -1)) continue;
      const double compact = (p[cell] - p[neighbour(g, c, d, -1)]) / g.axis(d).spacing[g.face_below(c, d, -1)];
      faces[out.face(d, c, -1)] =
          interpolate(g, u, n, d, c, d, -1) + dt * (interpolate(g, grad_p, n, d, c, d, -1) - compact);
    }
  }
}

void divergence(const FvGrid& g, const FaceVelocities& f, std::span<double> div) {
  const int n = g.dim();
#pragma omp parallel for schedule(static) if (g.num_cells() >= openmp_min_length)
  for (index_t cell = 0; cell < g.num_cells(); ++cell) {
    const Cell c = g.ijk(cell);
    double sum = 0.0;
    for (int d = 0; d < n; ++d)
      sum += (f.normal[d][f.face(d, c, 1)] - f.normal[d][f.face(d, c, -1)]) / g.axis(d).widths[c[d]];
    div[cell] = sum;
  }
}

void project(const FvGrid& g, std::span<const double> phi, double dt, std::span<double> grad_work,
             FaceVelocities& faces, std::span<double> u, std::span<double> p) {
  const int n = g.dim();
  pressure_gradient(g, phi, grad_work);
#pragma omp parallel for schedule(static) if (g.num_cells() >= openmp_min_length)
  for (index_t cell = 0; cell < g.num_cells(); ++cell) {
    const Cell c = g.ijk(cell);
    for (int d = 0; d < n; ++d)
      if (has_neighbour(g, c, d, -1))
        faces.normal[d][faces.face(d, c, -1)] -=
            dt * (phi[cell] - phi[neighbour(g, c, d, -1)]) / g.axis(d).spacing[g.face_below(c, d, -1)];
    for (int d = 0; d < n; ++d) u[std::size_t(n) * cell + d] -= dt * grad_work[std::size_t(n) * cell + d];
    p[cell] += phi[cell];
  }
}

void vorticity(const FvGrid& g, const Boundaries& b, std::span<const double> u, std::span<double> omega) {
  const int n = g.dim();
#pragma omp parallel for schedule(static) if (g.num_cells() >= openmp_min_length)
  for (index_t cell = 0; cell < g.num_cells(); ++cell) {
    const Cell c = g.ijk(cell);
    double grad[3][3] = {};  // grad[e][d] = d u_e / d x_d
    for (int d = 0; d < n; ++d)
      for (int e = 0; e < n; ++e) {
        auto value = [&](int s) {
          return has_neighbour(g, c, d, s) ? interpolate(g, u, n, e, c, d, s) : b.value(side_of(d, s), c)[e];
        };
        grad[e][d] = (value(1) - value(-1)) / g.axis(d).widths[c[d]];
      }
    double* w = omega.data() + 3 * std::size_t(cell);
    w[0] = grad[2][1] - grad[1][2];
    w[1] = grad[0][2] - grad[2][0];
    w[2] = grad[1][0] - grad[0][1];
  }
}

}  // namespace tb::incompressible
