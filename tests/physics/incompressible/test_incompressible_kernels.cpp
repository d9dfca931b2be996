// Every OpenMP kernel of physics/incompressible/kernels.hpp against its
// sequential twin kernels::ref, bit for bit, on grids large enough for the
// OpenMP loops to split (kernel_inputs.hpp): a stretched 3D grid, a 2D one and
// one periodic in two directions. And the host path of the step (operators,
// assembly) through those kernels against ref.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "../../common/bits.hpp"
#include "kernel_inputs.hpp"

namespace tb::test {
namespace {

namespace ref = incompressible::kernels::ref;
namespace omp = incompressible::kernels::omp;

struct Grids : ::testing::TestWithParam<int> {
  static FvGrid grid(int which) { return which == 0 ? grid_3d() : which == 1 ? grid_2d() : grid_periodic(); }
};

TEST_P(Grids, PerCellStepsGiveTheSequentialBits) {
  KernelInputs in(grid(GetParam()), GetParam() + 1);
  const GridView g = in.grid.view();
  ASSERT_GE(g.num_cells(), openmp_min_length);  // the OpenMP loops split
  const std::size_t cells = std::size_t(g.num_cells()), n = std::size_t(g.dim);

  std::vector<double> grad_ref(cells * n), grad_omp(cells * n);
  ref::pressure_gradient(g, in.p.data(), grad_ref.data());
  omp::pressure_gradient(g, in.p.data(), grad_omp.data());
  EXPECT_SAME_BITS(grad_ref, grad_omp);

  FaceVelocities faces_ref = in.faces, faces_omp = in.faces;
  ref::rhie_chow(g, in.boundaries.view(), in.u.data(), in.p.data(), in.grad_p.data(), in.dt, faces_ref.view());
  omp::rhie_chow(g, in.boundaries.view(), in.u.data(), in.p.data(), in.grad_p.data(), in.dt, faces_omp.view());
  for (int d = 0; d < g.dim; ++d) EXPECT_SAME_BITS(faces_ref.normal[std::size_t(d)], faces_omp.normal[std::size_t(d)]);
  for (int d = 0; d < g.dim; ++d)  // the step changed the faces
    EXPECT_NE(first_difference(faces_ref.normal[std::size_t(d)], in.faces.normal[std::size_t(d)]), -1);

  std::vector<double> div_ref(cells), div_omp(cells), rhs_ref(cells), rhs_omp(cells);
  ref::divergence(g, faces_ref.view(), div_ref.data());
  omp::divergence(g, faces_ref.view(), div_omp.data());
  EXPECT_SAME_BITS(div_ref, div_omp);
  ref::poisson_rhs(g, faces_ref.view(), in.dt, rhs_ref.data());
  omp::poisson_rhs(g, faces_ref.view(), in.dt, rhs_omp.data());
  EXPECT_SAME_BITS(rhs_ref, rhs_omp);
  EXPECT_EQ(rhs_ref[0], 0.0);  // the pinned cell

  std::vector<double> u_ref = in.u, u_omp = in.u, p_ref = in.p, p_omp = in.p;
  ref::project(g, in.div.data(), in.dt, in.grad_p.data(), faces_ref.view(), u_ref.data(), p_ref.data());
  omp::project(g, in.div.data(), in.dt, in.grad_p.data(), faces_omp.view(), u_omp.data(), p_omp.data());
  EXPECT_SAME_BITS(u_ref, u_omp);
  EXPECT_SAME_BITS(p_ref, p_omp);
  for (int d = 0; d < g.dim; ++d) EXPECT_SAME_BITS(faces_ref.normal[std::size_t(d)], faces_omp.normal[std::size_t(d)]);

  ref::add_scaled(index_t(u_ref.size()), -1.0, in.u_old.data(), u_ref.data());
  omp::add_scaled(index_t(u_omp.size()), -1.0, in.u_old.data(), u_omp.data());
  EXPECT_SAME_BITS(u_ref, u_omp);
}

TEST_P(Grids, AssemblyGivesTheSequentialBits) {
  KernelInputs in(grid(GetParam()), GetParam() + 7);
  const GridView g = in.grid.view();
  const std::size_t cells = std::size_t(g.num_cells()), n = std::size_t(g.dim);
  const cell::MomentumView m{in.u.data(), in.grad_p.data(), in.nu, in.dt, {0.1, -0.2, 0.3}};
  BsrMatrix a_ref = in.momentum.matrix, a_omp = in.momentum.matrix;
  std::vector<double> rhs_ref(cells * n), rhs_omp(cells * n);
  const auto blocks = [](BsrMatrix& a) { return BlockView{a.values.data(), nullptr, a.block_entries()}; };
  const MomentumSums s_ref =
      ref::momentum_rows(g, in.boundaries.view(), m, positions(in.momentum), blocks(a_ref), rhs_ref.data());
  const MomentumSums s_omp =
      omp::momentum_rows(g, in.boundaries.view(), m, positions(in.momentum), blocks(a_omp), rhs_omp.data());
  EXPECT_SAME_BITS(a_ref.values, a_omp.values);
  EXPECT_SAME_BITS(rhs_ref, rhs_omp);
  EXPECT_EQ(s_ref.residual, s_omp.residual);
  EXPECT_EQ(s_ref.volume, s_omp.volume);
  EXPECT_NEAR(s_ref.volume, in.grid.extent(0) * in.grid.extent(1) * (g.dim == 3 ? in.grid.extent(2) : 1.0), 1e-12);

  BsrMatrix p_ref = in.poisson.matrix, p_omp = in.poisson.matrix;
  ref::poisson_rows(g, positions(in.poisson), blocks(p_ref));
  omp::poisson_rows(g, positions(in.poisson), blocks(p_omp));
  EXPECT_SAME_BITS(p_ref.values, p_omp.values);
  std::vector<double> out_ref = in.div, out_omp = in.div;
  const ConstBlockView pa{p_ref.values.data(), nullptr, 1};
  ref::add_poisson_product(g, positions(in.poisson), pa, in.p.data(), out_ref.data());
  omp::add_poisson_product(g, positions(in.poisson), pa, in.p.data(), out_omp.data());
  EXPECT_SAME_BITS(out_ref, out_omp);
  // A p by the matrix's own product: the same sums, in the same order of slots but for the diagonal.
  std::vector<double> ap(cells);
  spmv(p_ref, in.p.data(), ap.data());
  for (std::size_t i = 0; i < cells; i += 997)
    EXPECT_NEAR(out_ref[i] - in.div[i], ap[i], 1e-12 * (1.0 + std::abs(ap[i])));
}

TEST_P(Grids, ReductionsGiveTheSequentialBits) {
  KernelInputs in(grid(GetParam()), GetParam() + 3);
  const GridView g = in.grid.view();
  const StepMaxima r = ref::step_maxima(g, in.u.data(), in.u_old.data(), in.div.data(), in.dt);
  const StepMaxima o = omp::step_maxima(g, in.u.data(), in.u_old.data(), in.div.data(), in.dt);
  EXPECT_EQ(r.cfl, o.cfl);
  EXPECT_EQ(r.velocity_change, o.velocity_change);
  EXPECT_EQ(r.divergence, o.divergence);
  EXPECT_TRUE(r.finite && o.finite);
  double worst_div = 0.0;
  for (double x : in.div) worst_div = std::max(worst_div, std::abs(x));
  EXPECT_EQ(r.divergence, worst_div);

  std::vector<double> v = in.p;
  EXPECT_EQ(ref::max_abs(index_t(v.size()), v.data()), omp::max_abs(index_t(v.size()), v.data()));
  v[v.size() / 3] = 7.5;
  EXPECT_EQ(omp::max_abs(index_t(v.size()), v.data()), 7.5);
  v[v.size() / 2] = std::nan("");
  EXPECT_TRUE(std::isnan(omp::max_abs(index_t(v.size()), v.data())));
  EXPECT_TRUE(std::isnan(ref::max_abs(index_t(v.size()), v.data())));

  std::vector<double> u = in.u;
  u[u.size() / 4] = std::numeric_limits<double>::infinity();
  EXPECT_FALSE(omp::step_maxima(g, u.data(), in.u_old.data(), in.div.data(), in.dt).finite);
}

// The projection's reductions (FractionalStep::projection_target and
// divergence_left): omp against ref bit for bit, and against their formulas
// written out here, the pinned cell's residual zeroed and left out.
TEST_P(Grids, ProjectionReductionsGiveTheSequentialBits) {
  KernelInputs in(grid(GetParam()), GetParam() + 5);
  const GridView g = in.grid.view();
  const index_t owned = g.owned_end - g.owned_begin;
  const std::vector<double> b_div(in.p.begin(), in.p.begin() + owned);
  const double scale = ref::projection_scale(g, in.dt, b_div.data(), in.u.data());
  EXPECT_EQ(omp::projection_scale(g, in.dt, b_div.data(), in.u.data()), scale);
  double expected_scale = 0.0, expected_largest = 0.0;
  for (index_t cell = g.owned_begin; cell < g.owned_end; ++cell) {
    const CellIndex c = g.ijk(cell);
    double speed = 0.0;
    for (int d = 0; d < g.dim; ++d) speed += std::abs(in.u[std::size_t(g.dim * cell + d)]) / g.axis[d].widths[c[d]];
    expected_scale =
        std::max({expected_scale, in.dt * std::abs(b_div[std::size_t(cell - g.owned_begin)]) / g.volume(c), speed});
  }
  EXPECT_EQ(scale, expected_scale);

  const index_t pin = g.owned_begin + owned / 2;
  std::vector<double> r_ref(b_div), r_omp(b_div);
  const DivergenceLeft a = ref::divergence_left(g, in.dt, pin, r_ref.data());
  const DivergenceLeft b = omp::divergence_left(g, in.dt, pin, r_omp.data());
  EXPECT_TRUE(same_bits(r_ref, r_omp));
  EXPECT_EQ(a.flux, b.flux);
  EXPECT_EQ(a.largest, b.largest);
  double flux = 0.0;
  for (index_t cell = g.owned_begin; cell < g.owned_end; ++cell) {
    const std::size_t i = std::size_t(cell - g.owned_begin);
    EXPECT_EQ(r_ref[i], cell == pin ? 0.0 : -b_div[i]);
    if (cell == pin) continue;
    flux += in.dt * r_ref[i];
    expected_largest = std::max(expected_largest, in.dt * std::abs(r_ref[i]) / g.volume(g.ijk(cell)));
  }
  EXPECT_EQ(a.largest, expected_largest);
  EXPECT_NEAR(a.flux, flux, 1e-12 * (std::abs(flux) + 1.0));  // ordered_sums' order, not the cells'
}

// The convective outflow's steps on every non-periodic side: omp against ref
// bit for bit, the advance against its formula on one face, the flux of a
// uniform normal velocity against the side's area.
TEST_P(Grids, OutflowStepsGiveTheSequentialBits) {
  KernelInputs in(grid(GetParam()), GetParam() + 5);
  const GridView g = in.grid.view();
  for (int side = 0; side < 2 * g.dim; ++side) {
    if (g.axis[side / 2].periodic) continue;
    SCOPED_TRACE("side " + std::to_string(side));
    const index_t faces = cell::side_faces(g, side);
    std::vector<double> a = random_values(3 * std::size_t(faces), 11), b = a;
    ref::advance_outflow(g, side, in.dt, 1.3, in.u.data(), a.data());
    omp::advance_outflow(g, side, in.dt, 1.3, in.u.data(), b.data());
    EXPECT_SAME_BITS(a, b);
    EXPECT_EQ(ref::side_flux(g, side, a.data()), omp::side_flux(g, side, b.data()));
    ref::shift_side(g, side, 0.25, a.data());
    omp::shift_side(g, side, 0.25, b.data());
    EXPECT_SAME_BITS(a, b);

    // Face 0's cell is the side's first: c[d] at the side, the tangential indices 0.
    const int d = side / 2;
    const std::vector<double> start = random_values(3 * std::size_t(faces), 11);
    CellIndex c;
    c[0] = c[1] = c[2] = 0;
    c[d] = side % 2 == 0 ? 0 : g.axis[d].cells - 1;
    const double r = in.dt * 1.3 / (0.5 * g.axis[d].widths[c[d]]);
    const double expected = (start[0] + r * in.u[std::size_t(g.dim) * std::size_t(g.index(c))]) / (1.0 + r);
    EXPECT_EQ(a[0], expected + (d == 0 ? (side % 2 == 0 ? -0.25 : 0.25) : 0.0));

    std::vector<double> uniform(3 * std::size_t(faces), 0.0);
    double area = 0.0;
    for (index_t f = 0; f < faces; ++f) {
      uniform[3 * std::size_t(f) + std::size_t(d)] = side % 2 == 0 ? -2.0 : 2.0;  // outwards
      area += g.area(d, cell::side_cell(g, side, f));
    }
    EXPECT_NEAR(omp::side_flux(g, side, uniform.data()), 2.0 * area, 1e-12 * area);
  }
}

INSTANTIATE_TEST_SUITE_P(IncompressibleKernels, Grids, ::testing::Values(0, 1, 2));

}  // namespace
}  // namespace tb::test
