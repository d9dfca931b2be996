#include "physics/incompressible/operators.hpp"

#include "physics/incompressible/kernels.hpp"
#include "physics/incompressible/stencil_pattern.hpp"

namespace tb::incompressible {

FaceVelocities::FaceVelocities(const FvGrid& grid) {
  for (int d = 0; d < 3; ++d) {
    wrap_[d] = grid.axis(d).periodic ? grid.cells(d) : -1;
    for (int e = 0; e < 3; ++e) ext_[d][e] = grid.cells(e) + (e == d ? 1 : 0);
    if (d < grid.dim()) normal[d].assign(std::size_t(ext_[d][0] * ext_[d][1] * ext_[d][2]), 0.0);
  }
}

FaceView FaceVelocities::view_of(const std::array<double*, 3>& arrays) const {
  FaceView v;
  for (int d = 0; d < 3; ++d) {
    v.normal[d] = arrays[d];
    v.wrap[d] = wrap_[d];
    for (int e = 0; e < 3; ++e) v.ext[d][e] = ext_[d][e];
  }
  return v;
}

FaceView FaceVelocities::view() { return view_of({normal[0].data(), normal[1].data(), normal[2].data()}); }

ConstFaceView FaceVelocities::view() const {
  ConstFaceView v;
  for (int d = 0; d < 3; ++d) {
    v.normal[d] = normal[d].data();
    v.wrap[d] = wrap_[d];
    for (int e = 0; e < 3; ++e) v.ext[d][e] = ext_[d][e];
  }
  return v;
}

void pressure_gradient(const FvGrid& g, std::span<const double> p, std::span<double> grad) {
  kernels::pressure_gradient(Backend::host, g.view(), p.data(), grad.data());
}

void rhie_chow_velocities(const FvGrid& g, const Boundaries& b, std::span<const double> u, std::span<const double> p,
                          std::span<const double> grad_p, double dt, FaceVelocities& out) {
  kernels::rhie_chow(Backend::host, g.view(), b.view(), u.data(), p.data(), grad_p.data(), dt, out.view());
}

void divergence(const FvGrid& g, const FaceVelocities& f, std::span<double> div) {
  kernels::divergence(Backend::host, g.view(), f.view(), div.data());
}

void project(const FvGrid& g, std::span<const double> phi, double dt, std::span<double> grad_work,
             FaceVelocities& faces, std::span<double> u, std::span<double> p) {
  pressure_gradient(g, phi, grad_work);
  kernels::project(Backend::host, g.view(), phi.data(), dt, grad_work.data(), faces.view(), u.data(), p.data());
}

void vorticity(const FvGrid& g, const Boundaries& b, std::span<const double> u, std::span<double> omega) {
  const int n = g.dim();
  const GridView gv = g.view();
  const BoundaryView bv = b.view();
#pragma omp parallel for schedule(static) if (g.num_cells() >= openmp_min_length)
  for (index_t cell = 0; cell < g.num_cells(); ++cell) {
    const CellIndex c = gv.ijk(cell);
    double grad[3][3] = {};  // grad[e][d] = d u_e / d x_d
    for (int d = 0; d < n; ++d)
      for (int e = 0; e < n; ++e) {
        auto value = [&](int s) {
          return gv.has_neighbour(c, d, s) ? cell::interpolate(gv, u.data(), n, e, c, d, s)
                                           : bv.value(side_index(d, s), c)[e];
        };
        grad[e][d] = (value(1) - value(-1)) / gv.axis[d].widths[c[d]];
      }
    double* w = omega.data() + 3 * std::size_t(cell);
    w[0] = grad[2][1] - grad[1][2];
    w[1] = grad[0][2] - grad[2][0];
    w[2] = grad[1][0] - grad[0][1];
  }
}

}  // namespace tb::incompressible
