// The exact Jacobian by coloured finite differences (jacobian.form = exact):
// against the analytic first-order Jacobian, against central
// differences of the second-order residual column by column, and its colouring.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "compressible_fixtures.hpp"
#include "mesh/mesh_graph.hpp"
#include "physics/compressible/coloured_jacobian.hpp"

namespace tb::test {
namespace {

struct Case {
  Mesh2D mesh = distorted(cylinder_mesh(), 21);
  EulerSettings settings = settings_at(0.38, 0.05);
  std::vector<State> w;
  Case() { w = perturbed_free_stream(settings, mesh.num_cells(), 0.05, 17); }
};

TEST(ColouredJacobian, ColumnsOfAColourShareNoRow) {
  const Case c;
  const ColouredJacobian jac(cell_graph(c.mesh));
  const BsrMatrix& p = jac.pattern();
  std::vector<index_t> colour_of(std::size_t(p.block_rows), -1);
  for (index_t k = 0; k < jac.colours(); ++k)
    for (index_t j : jac.cells_of(k)) colour_of[std::size_t(j)] = k;
  EXPECT_TRUE(std::none_of(colour_of.begin(), colour_of.end(), [](index_t k) { return k < 0; }));
  for (index_t i = 0; i < p.block_rows; ++i) {
    std::vector<index_t> seen;
    for (index_t e = p.row_ptr[std::size_t(i)]; e < p.row_ptr[std::size_t(i) + 1]; ++e)
      seen.push_back(colour_of[std::size_t(p.col_idx[std::size_t(e)])]);
    std::sort(seen.begin(), seen.end());
    EXPECT_EQ(std::adjacent_find(seen.begin(), seen.end()), seen.end()) << "row " << i;
  }
  // A quadrilateral cell reaches 12 cells within two faces; far fewer colours than cells.
  EXPECT_LT(jac.colours(), p.block_rows / 20);
}

// On the first-order residual the analytic Jacobian is exact (jacobian.flux =
// the residual's flux): the coloured one equals it where both have blocks,
// and holds zeros in the second ring; the shift lands on the diagonal.
TEST(ColouredJacobian, EqualsTheAnalyticJacobianOfTheFirstOrderResidual) {
  Case c;
  EulerDiscretisation disc(c.mesh, cylinder_boundaries(c.mesh), c.settings);
  std::vector<double> shift(c.w.size());
  for (std::size_t i = 0; i < shift.size(); ++i) shift[i] = 0.5 + 0.01 * double(i % 7);
  BsrMatrix analytic = disc.pattern().matrix;
  disc.assemble_jacobian(c.w, shift, analytic);
  ColouredJacobian jac(cell_graph(c.mesh));
  std::vector<State> r;
  disc.residual(c.w, 1, r);
  BsrMatrix exact;
  jac.assemble(disc, c.w, r, 1, shift, exact);
  double worst = 0.0, scale = 0.0;
  for (index_t i = 0; i < exact.block_rows; ++i)
    for (index_t e = exact.row_ptr[std::size_t(i)]; e < exact.row_ptr[std::size_t(i) + 1]; ++e) {
      const index_t pos = analytic.find_block(i, exact.col_idx[std::size_t(e)]);
      for (index_t k = 0; k < 16; ++k) {
        const double a = pos < 0 ? 0.0 : analytic.block(pos)[k];
        worst = std::max(worst, std::abs(exact.block(e)[k] - a));
        scale = std::max(scale, std::abs(a));
      }
    }
  EXPECT_LT(worst, 1e-6 * scale) << "scale " << scale;
}

// Second order: every column of three cells (interior, far field, wall)
// against central differences of the second-order residual over all rows, so
// a block outside the pattern or two columns of a colour that shared a row
// would show.
// Also with the limiter, and viscous (the cylinder as an adiabatic no-slip
// wall at Re 5000): neither reaches beyond two faces. And with tb-comp2d's
// default stencil on a hybrid mesh (variant 3: triangles read their corners'
// cells, so the pattern is two edges of the reconstruction graph).
TEST(ColouredJacobian, MatchesCentralDifferencesOfTheSecondOrderResidual) {
  for (const int variant : {0, 1, 2, 3}) {
    Case c;
    c.settings.limiter = variant == 1;
    if (variant == 3) {
      c.mesh = half_triangulated(c.mesh);
      c.w = perturbed_free_stream(c.settings, c.mesh.num_cells(), 0.05, 17);
      c.settings.gradient_stencil = GradientStencil::TriangleNodes;
    }
    std::vector<BoundaryKind> kinds = cylinder_boundaries(c.mesh);
    if (variant == 2) {
      c.settings.viscous.mu_inf = 0.38 / 5000.0;
      BoundaryMap map;
      map.far_field = {"farfield"};
      map.no_slip_adiabatic = {"cylinder"};
      kinds = boundary_kinds_by_marker(c.mesh, map);
    }
    EulerDiscretisation disc(c.mesh, kinds, c.settings);
    const std::vector<double> shift(c.w.size(), 0.0);
    ColouredJacobian jac(reconstruction_graph(c.mesh, c.settings.gradient_stencil));
    std::vector<State> r, rp, rm;
    disc.residual(c.w, 2, r);
    BsrMatrix a;
    jac.assemble(disc, c.w, r, 2, shift, a);
    index_t wall = -1, far = -1;
    for (index_t f = c.mesh.num_interior_faces; f < c.mesh.num_faces(); ++f)
      (disc.boundary_kind(f) == BoundaryKind::FarField ? far : wall) = c.mesh.faces[std::size_t(f)].left;
    // On the hybrid mesh: a triangle (the left cell of a face is the first half of a split quadrilateral).
    index_t interior = c.mesh.faces[std::size_t(c.mesh.num_interior_faces / 2)].left;
    while (variant == 3 && c.mesh.cell_type(interior) != CellType::Triangle) ++interior;
    double worst = 0.0, scale = 0.0;
    std::vector<State> wp = c.w;
    for (index_t j : {interior, far, wall}) {
      const auto jj = std::size_t(j);
      for (int m = 0; m < num_vars; ++m) {
        const double h = 1e-6 * (1.0 + std::abs(c.w[jj][m]));
        wp[jj][m] = c.w[jj][m] + h;
        disc.residual(wp, 2, rp);
        wp[jj][m] = c.w[jj][m] - h;
        disc.residual(wp, 2, rm);
        wp[jj][m] = c.w[jj][m];
        for (index_t i = 0; i < a.block_rows; ++i) {
          const index_t pos = a.find_block(i, j);
          for (int k = 0; k < num_vars; ++k) {
            const double fd = (rp[std::size_t(i)][k] - rm[std::size_t(i)][k]) / (2.0 * h);
            const double got = pos < 0 ? 0.0 : a.block(pos)[k * num_vars + m];
            worst = std::max(worst, std::abs(got - fd));
            scale = std::max(scale, std::abs(fd));
          }
        }
      }
    }
    EXPECT_LT(worst, 1e-5 * scale) << "variant " << variant << " (unlimited, limited, viscous, triangle_nodes), scale "
                                   << scale;
  }
}

}  // namespace
}  // namespace tb::test
