// Every OpenMP kernel of physics/immersed/kernels.hpp against its sequential
// twin kernels::ref, bit for bit, on one and on two threads, on a grid large
// enough for the OpenMP loops to split with a sphere in it (kernel_inputs.hpp).
// And checks that do not lean on the twins: the assembled rows' sums, the
// ghost rows' stencils, the surface force against WallStencil::apply.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "../../common/bits.hpp"
#include "kernel_inputs.hpp"
#include "solvers/core/threading.hpp"

namespace tb::test {
namespace {

using namespace immersed;
namespace ref = immersed::kernels::ref;
namespace omp = immersed::kernels::omp;

struct Threads : ::testing::TestWithParam<int> {
  void SetUp() override { threading::fix_threads(GetParam()); }
  static const KernelInputs& inputs() {
    static const KernelInputs in;
    return in;
  }
};

TEST_P(Threads, TheGridSplitsAndHoldsEveryKindOfCell) {
  const KernelInputs& in = inputs();
  ASSERT_GE(in.grid.num_cells(), openmp_min_length);
  EXPECT_GT(in.ib.ghosts.size(), 100u);
  long solid = 0;
  for (CellType t : in.ib.types) solid += t == CellType::solid;
  EXPECT_GT(solid, 0);
}

TEST_P(Threads, MomentumRightHandSidesGiveTheSequentialBits) {
  const KernelInputs& in = inputs();
  const GridView g = in.view();
  for (bool first : {false, true})
    for (int e = 0; e < 3; ++e) {
      std::vector<double> n_ref = in.n_old, n_omp = in.n_old, rhs_ref(in.cells, 7.0), rhs_omp(in.cells, 7.0);
      cell::MomentumView m{e,     in.u[e].data(), in.faces.view(), in.sides,     in.cleared.data(),
                           first, in.dt,          in.nu,           n_ref.data(), rhs_ref.data()};
      ref::momentum_rhs(g, m);
      m.n_old = n_omp.data(), m.rhs = rhs_omp.data();
      omp::momentum_rhs(g, m);
      EXPECT_SAME_BITS(rhs_ref, rhs_omp);
      EXPECT_SAME_BITS(n_ref, n_omp);
      EXPECT_NE(first_difference(rhs_ref, std::vector<double>(in.cells, 7.0)), -1);
      for (std::size_t cell = 0; cell < in.cells; ++cell) {  // zero off the fluid
        if (in.ib.types[cell] != CellType::fluid) {
          ASSERT_EQ(rhs_ref[cell], 0.0) << cell;
        }
      }
      ref::ghost_values(index_t(in.ghost_cells.size()), in.ghost_cells.data(), in.ghost_values.data(), rhs_ref.data());
      omp::ghost_values(index_t(in.ghost_cells.size()), in.ghost_cells.data(), in.ghost_values.data(), rhs_omp.data());
      EXPECT_SAME_BITS(rhs_ref, rhs_omp);
      EXPECT_EQ(rhs_ref[std::size_t(in.ghost_cells.back())], in.ghost_values.back());
    }
}

// With u = a + b x (per component) on every cell and the faces interpolated
// from it, the advection of a uniform field by those faces is u_e div U.
TEST_P(Threads, FaceStepsGiveTheSequentialBits) {
  const KernelInputs& in = inputs();
  const GridView g = in.view();
  const cell::ConstVelocityView u{{in.u[0].data(), in.u[1].data(), in.u[2].data()}};
  FaceField faces_ref = in.faces, faces_omp = in.faces;
  ref::face_velocities(g, in.sides, u, faces_ref.view());
  omp::face_velocities(g, in.sides, u, faces_omp.view());
  for (int d = 0; d < 3; ++d) {
    EXPECT_SAME_BITS(faces_ref.normal(d), faces_omp.normal(d));
    EXPECT_NE(first_difference(faces_ref.normal(d), in.faces.normal(d)), -1);
  }
  std::vector<double> rhs_ref(in.cells, 3.0), rhs_omp(in.cells, 3.0);
  ref::pressure_rhs(g, std::as_const(faces_ref).view(), 2.5, rhs_ref.data());
  omp::pressure_rhs(g, std::as_const(faces_ref).view(), 2.5, rhs_omp.data());
  EXPECT_SAME_BITS(rhs_ref, rhs_omp);
  // One fluid cell by hand: -scale (sum_d (U+ - U-) / dx).
  const index_t cell = g.shape.natural(3, 4, 5);
  ASSERT_EQ(in.ib.types[std::size_t(cell)], CellType::fluid);
  double div = 0.0;
  for (int d = 0; d < 3; ++d) {
    const std::array<index_t, 3> c{3, 4, 5};
    div += (faces_ref.normal(d)[faces_ref.face(d, c, 1)] - faces_ref.normal(d)[faces_ref.face(d, c, -1)]) /
           in.grid.axis(d).widths[c[d]];
  }
  EXPECT_EQ(rhs_ref[std::size_t(cell)], -2.5 * div);

  std::array<std::vector<double>, 3> u_ref = {in.u[0], in.u[1], in.u[2]}, u_omp = u_ref;
  const double k = 0.7;
  ref::project(g, in.sides, k, in.p.data(), faces_ref.view(), {{u_ref[0].data(), u_ref[1].data(), u_ref[2].data()}});
  omp::project(g, in.sides, k, in.p.data(), faces_omp.view(), {{u_omp[0].data(), u_omp[1].data(), u_omp[2].data()}});
  for (int d = 0; d < 3; ++d) {
    EXPECT_SAME_BITS(faces_ref.normal(d), faces_omp.normal(d));
    EXPECT_SAME_BITS(u_ref[std::size_t(d)], u_omp[std::size_t(d)]);
    EXPECT_NE(first_difference(u_ref[std::size_t(d)], in.u[d]), -1);
  }
  const cell::ConstVelocityView now{{u_ref[0].data(), u_ref[1].data(), u_ref[2].data()}};
  const cell::ConstVelocityView old{{in.u_old[0].data(), in.u_old[1].data(), in.u_old[2].data()}};
  const StepMaxima a = ref::step_maxima(g, now, old, std::as_const(faces_ref).view(), in.dt);
  const StepMaxima b = omp::step_maxima(g, now, old, std::as_const(faces_ref).view(), in.dt);
  EXPECT_TRUE(same_bits(a.divergence, b.divergence) && same_bits(a.velocity_change, b.velocity_change) &&
              same_bits(a.cfl, b.cfl) && a.finite == b.finite);
  EXPECT_GT(a.divergence, 0.0);
  EXPECT_GT(a.velocity_change, 0.0);
  EXPECT_GT(a.cfl, 0.0);
  EXPECT_TRUE(a.finite);
  u_ref[1][std::size_t(g.owned_end - 1)] = std::nan("");
  EXPECT_FALSE(omp::step_maxima(g, now, old, std::as_const(faces_ref).view(), in.dt).finite);
}

// The rows of both systems: the twins' bits, each fluid row's entries summing
// to alpha (Eq. 7 conserves) where the cell has all six neighbours, and each
// ghost row 1 - sum_k w_k over its stencil.
TEST_P(Threads, SystemRowsGiveTheSequentialBits) {
  const KernelInputs& in = inputs();
  const GridView g = in.view();
  BoxConditions box{};
  for (int side = 0; side < 6; ++side) box[std::size_t(side)] = in.sides.velocity[side];
  for (BodyCondition body : {BodyCondition::dirichlet, BodyCondition::neumann}) {
    const double alpha = body == BodyCondition::dirichlet ? 1.0 : 0.0, beta = 0.37;
    std::vector<double> a_ref(in.pattern.matrix.values.size(), 5.0), a_omp = a_ref;
    const FlatStencils stencils = ghost_row_stencils(in.ib, in.pattern, body);
    ref::system_rows(g, rows_view(in.pattern, box, alpha, beta, a_ref.data()));
    ref::ghost_rows(stencils.view(), a_ref.data());
    omp::system_rows(g, rows_view(in.pattern, box, alpha, beta, a_omp.data()));
    omp::ghost_rows(stencils.view(), a_omp.data());
    EXPECT_SAME_BITS(a_ref, a_omp);
    const BsrMatrix& m = in.pattern.matrix;
    long checked = 0;
    for (index_t row = 0; row < m.block_rows; ++row) {
      double sum = 0.0;
      for (index_t k = m.row_ptr[row]; k < m.row_ptr[row + 1]; ++k) sum += a_ref[std::size_t(k)];
      const auto c = in.grid.ijk(row);
      const bool interior = c[0] > 0 && c[1] > 0 && c[2] > 0 && c[0] + 1 < in.grid.cells(0) &&
                            c[1] + 1 < in.grid.cells(1) && c[2] + 1 < in.grid.cells(2);
      if (in.ib.types[std::size_t(row)] == CellType::fluid && interior) {
        EXPECT_NEAR(sum, alpha, 1e-9 * std::abs(a_ref[std::size_t(in.pattern.diagonal[std::size_t(row)])]));
        ++checked;
      } else if (in.ib.types[std::size_t(row)] == CellType::ghost) {
        const GhostCell& gc = in.ib.ghosts[std::size_t(in.ib.ghost_of[std::size_t(row)])];
        const WallStencil& w = body == BodyCondition::dirichlet ? gc.dirichlet : gc.neumann;
        double expected = 1.0;
        for (double x : w.weights) expected -= x;
        EXPECT_NEAR(sum, expected, 1e-12 * (1.0 + std::abs(expected)));
        ++checked;
      }
    }
    EXPECT_GT(checked, in.grid.num_cells() / 2);
  }
}

TEST_P(Threads, SurfaceForceGivesTheSequentialBitsAndTheStencilsSum) {
  const KernelInputs& in = inputs();
  const cell::SurfaceView s = in.surface(0.02, 1e-3);
  const cell::ConstVelocityView u{{in.u[0].data(), in.u[1].data(), in.u[2].data()}};
  const ForceSums a = ref::surface_force(s, in.p.data(), u), b = omp::surface_force(s, in.p.data(), u);
  for (int d = 0; d < 3; ++d) {
    EXPECT_TRUE(same_bits(a.pressure[d], b.pressure[d])) << d;
    EXPECT_TRUE(same_bits(a.viscous[d], b.viscous[d])) << d;
  }
  // The same sums point after point with WallStencil-like arithmetic, within rounding.
  double pressure[3] = {}, viscous[3] = {};
  for (index_t i = 0; i < s.pressure.count; ++i) {
    double ps = 0.0;
    for (index_t e = s.pressure.offsets[i]; e < s.pressure.offsets[i + 1]; ++e)
      ps += s.pressure.weights[e] * in.p[std::size_t(s.pressure.at[e])];
    for (int d = 0; d < 3; ++d) {
      double dn = s.shear_boundary[i] * s.wall_velocity[3 * i + d];
      for (index_t e = s.shear.offsets[i]; e < s.shear.offsets[i + 1]; ++e)
        dn += s.shear.weights[e] * in.u[d][std::size_t(s.shear.at[e])];
      pressure[d] -= ps * s.normal[3 * i + d] * s.area;
      viscous[d] += s.mu * dn * s.area;
    }
  }
  for (int d = 0; d < 3; ++d) {
    EXPECT_NEAR(a.pressure[d], pressure[d], 1e-12 * (std::abs(pressure[d]) + 1e-3)) << d;
    EXPECT_NEAR(a.viscous[d], viscous[d], 1e-12 * (std::abs(viscous[d]) + 1e-3)) << d;
    EXPECT_NE(a.pressure[d], 0.0);
  }
}

TEST_P(Threads, MaxAbsGivesTheSequentialBitsAndFlagsNaN) {
  const KernelInputs& in = inputs();
  std::vector<double> v = in.p;
  double expected = 0.0;
  for (double x : v) expected = std::max(expected, std::abs(x));
  const double a = ref::max_abs(index_t(v.size()), v.data()), b = omp::max_abs(index_t(v.size()), v.data());
  EXPECT_EQ(a, expected);
  EXPECT_TRUE(same_bits(a, b));
  v[v.size() / 3] = std::nan("");
  EXPECT_TRUE(std::isnan(ref::max_abs(index_t(v.size()), v.data())));
  EXPECT_TRUE(std::isnan(omp::max_abs(index_t(v.size()), v.data())));
}

// A body that shrinks by about three cells: the cleared shell's outer cells
// fill from their neighbours, its inner ones (no neighbour fluid before and
// now) take the wall velocity of a pulsating body.
TEST_P(Threads, MoveCellsGiveTheSequentialBitsAndTheNeighbourMeans) {
  const KernelInputs& in = inputs();
  const std::vector<CellType> before = classify_cells(in.grid, Sphere({1.02, 0.97, 1.01}, 0.45));
  PulsatingEllipsoid body({1.02, 0.97, 1.01}, {0.31, 0.31, 0.31}, 0.2, 1.0);
  body.move_to(0.6);
  const MovedCells m = moved_cells(in.grid, body, before, in.ib.types);
  long walls = 0;
  for (std::uint8_t f : m.fill) walls += f == cell::cleared_bit;
  ASSERT_GT(m.cleared, 100);
  ASSERT_GT(walls, 0);
  ASSERT_LT(walls, m.cleared);
  ASSERT_GT(m.count(), m.cleared);  // ghost cells of either position among them
  std::vector<CellType> types_ref = before, types_omp = before;
  std::vector<char> flags_ref(in.cells, 0), flags_omp(in.cells, 0);
  std::vector<double> u_ref[3], u_omp[3], p_ref = in.p, p_omp = in.p;
  for (int d = 0; d < 3; ++d) u_ref[d] = u_omp[d] = in.u[d];
  const GridView g = in.view();
  ref::move_cells(g, m.view(), types_ref.data(), flags_ref.data(),
                  {{u_ref[0].data(), u_ref[1].data(), u_ref[2].data()}}, p_ref.data());
  omp::move_cells(g, m.view(), types_omp.data(), flags_omp.data(),
                  {{u_omp[0].data(), u_omp[1].data(), u_omp[2].data()}}, p_omp.data());
  for (int d = 0; d < 3; ++d) EXPECT_SAME_BITS(u_ref[d], u_omp[d]);
  EXPECT_SAME_BITS(p_ref, p_omp);
  EXPECT_EQ(types_ref, in.ib.types);
  EXPECT_EQ(types_omp, in.ib.types);
  EXPECT_EQ(flags_ref, flags_omp);
  long flagged = 0;
  for (char f : flags_ref) flagged += f;
  EXPECT_EQ(flagged, m.cleared);
  // Each cleared cell against its neighbours' mean (or the wall velocity), computed here.
  for (index_t k = 0; k < m.count(); ++k) {
    const index_t cell = m.cells[std::size_t(k)];
    if (!(m.fill[std::size_t(k)] & cell::cleared_bit)) {
      ASSERT_EQ(u_ref[0][cell], in.u[0][cell]) << cell;
      continue;
    }
    double sum = 0.0;
    int count = 0;
    const auto c = in.grid.ijk(cell);
    for (int d = 0; d < 3; ++d)
      for (int s : {-1, 1}) {
        if (!has_neighbour(in.grid, c, d, s)) continue;
        const index_t nb = cell + s * in.grid.stride(d);
        if (before[nb] != CellType::fluid || in.ib.types[nb] != CellType::fluid) continue;
        sum += in.u[1][nb];
        ++count;
      }
    const double wall = body.velocity(body.closest(in.grid.centre(c)).point)[1];
    EXPECT_NEAR(u_ref[1][cell], count > 0 ? sum / count : wall, 1e-15) << cell;
    if (count == 0) {
      EXPECT_NE(wall, 0.0);
      EXPECT_EQ(p_ref[cell], in.p[cell]);
    }
  }
  ref::unmark_cells(m.view(), flags_ref.data());
  omp::unmark_cells(m.view(), flags_omp.data());
  EXPECT_EQ(flags_ref, std::vector<char>(in.cells, 0));
  EXPECT_EQ(flags_omp, std::vector<char>(in.cells, 0));
}

INSTANTIATE_TEST_SUITE_P(OneAndTwo, Threads, ::testing::Values(1, 2),
                         [](const auto& info) { return std::to_string(info.param) + "_threads"; });

}  // namespace
}  // namespace tb::test
