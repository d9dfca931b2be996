// Every OpenMP kernel of solvers/mg/kernels.hpp against its sequential twin
// kernels::ref, bit for bit: on small grids (the loops run on one thread) and
// on grids past the OpenMP grain (they split), star and box stencils, with and
// without a remainder, each transfer direction coarsened or not. Each cell is
// computed by one thread from the same body, so the bits cannot depend on the
// team. The CUDA twins are in test_mg_kernels_gpu.cpp.
#include <gtest/gtest.h>

#include <set>
#include <vector>

#include "kernel_inputs.hpp"
#include "solvers/core/types.hpp"

namespace tb::mg {
namespace ref = kernels::ref;
namespace omp = kernels::omp;
namespace {

struct Case {
  StructuredIndex grid;
  bool box, remainder;
};

// Small grids of odd and even extents in 1D, 2D and 3D, and two past the grain.
std::vector<Case> cases() {
  std::vector<Case> c;
  for (bool box : {false, true})
    for (bool rest : {false, true}) {
      c.push_back({{11, 9, 7}, box, rest});
      c.push_back({{12, 10, 1}, box, rest});
      c.push_back({{17, 1, 1}, box, rest});
      c.push_back({{50, 42, 34}, box, rest});
    }
  return c;
}

std::string name(const Case& c) {
  return std::to_string(c.grid.ni) + "x" + std::to_string(c.grid.nj) + "x" + std::to_string(c.grid.nk) +
         (c.box ? " box" : " star") + (c.remainder ? " + remainder" : "");
}

TEST(MgKernels, BigCasesSplitAcrossThreads) {
  EXPECT_GE(long(50 * 42 * 34), openmp_min_length);
  EXPECT_GE(long(25 * 21) * 17 * 8, openmp_min_length);  // the restriction's work to the coarse grid
}

TEST(MgKernels, ResidualEqualsRefBitwise) {
  for (const Case& k : cases()) {
    const test::MgLevelInputs in = test::mg_level(k.grid, k.box, k.remainder, 3);
    const auto x = test::mg_padded(in.cells(), in.pad(), 4);
    const auto b = test::mg_padded(in.cells(), 0, 5);
    std::vector<double> want(static_cast<std::size_t>(in.cells())), got(want.size(), 1.0);
    ref::residual(in.view(), b.data(), x.data() + in.pad(), want.data());
    omp::residual(in.view(), b.data(), x.data() + in.pad(), got.data());
    EXPECT_EQ(got, want) << name(k);
    // One row by hand: b - sum of the stencil's products, then the remainder's.
    const index_t c = in.cells() / 2;
    double s = 0.0;
    for (int p = 0; p < in.points.count; ++p)
      s += in.coef[std::size_t(p) * std::size_t(in.cells()) + std::size_t(c)] *
           x[std::size_t(in.pad() + c + in.view().offset[p])];
    if (k.remainder)
      for (index_t q = in.rest_ptr[std::size_t(c)]; q < in.rest_ptr[std::size_t(c) + 1]; ++q)
        s += in.rest_val[std::size_t(q)] * x[std::size_t(in.pad() + in.rest_col[std::size_t(q)])];
    EXPECT_EQ(want[std::size_t(c)], b[std::size_t(c)] - s) << name(k);
  }
}

TEST(MgKernels, PolynomialStepEqualsRefBitwise) {
  for (const Case& k : cases()) {
    const test::MgLevelInputs in = test::mg_level(k.grid, k.box, k.remainder, 7);
    const auto x = test::mg_padded(in.cells(), in.pad(), 8);
    const auto b = test::mg_padded(in.cells(), 0, 9);
    const auto d0 = test::mg_padded(in.cells(), 0, 10);
    for (bool zero_start : {true, false}) {
      std::vector<double> d_ref = d0, d_omp = d0, out_ref(d0.size()), out_omp(d0.size());
      const double* xin = zero_start ? nullptr : x.data() + in.pad();
      ref::polynomial_step(in.view(), 0.3, 0.7, b.data(), xin, d_ref.data(), out_ref.data());
      omp::polynomial_step(in.view(), 0.3, 0.7, b.data(), xin, d_omp.data(), out_omp.data());
      EXPECT_EQ(d_omp, d_ref) << name(k);
      EXPECT_EQ(out_omp, out_ref) << name(k);
    }
  }
}

TEST(MgKernels, ColoursCoverEveryCellOnceAndNoTwoCellsOfAColourCouple) {
  for (const Case& k : cases()) {
    if (k.remainder) continue;
    const test::MgLevelInputs in = test::mg_level(k.grid, k.box, false, 1);
    const StencilView v = in.view();
    std::vector<int> colour(static_cast<std::size_t>(in.cells()), -1);
    for (int col = 0; col < (k.box ? 8 : 2); ++col) {
      const ColourLines cl = colour_lines(v, col);
      for (index_t l = 0; l < cl.lines; ++l)
        for (index_t m = 0; m < cl.half_i; ++m) {
          const index_t c = colour_cell(v, col, l, m);
          if (c < 0) break;
          ASSERT_EQ(colour[std::size_t(c)], -1) << name(k) << ": cell " << c << " in two colours";
          colour[std::size_t(c)] = col;
        }
    }
    for (index_t c = 0; c < in.cells(); ++c) {
      ASSERT_GE(colour[std::size_t(c)], 0) << name(k) << ": cell " << c << " in no colour";
      const index_t ijk[3] = {k.grid.i_of(c), k.grid.j_of(c), k.grid.k_of(c)};
      const index_t ext[3] = {k.grid.ni, k.grid.nj, k.grid.nk};
      for (int p = 0; p < in.points.count; ++p) {
        bool inside = p != in.points.count / 2;
        for (int d = 0; d < 3; ++d) {
          const index_t x = ijk[d] + in.points.delta[p][d];
          inside = inside && x >= 0 && x < ext[d];
        }
        if (inside) {
          ASSERT_NE(colour[std::size_t(c + v.offset[p])], colour[std::size_t(c)]) << name(k);
        }
      }
    }
  }
}

TEST(MgKernels, ColourSweepEqualsRefBitwise) {
  for (const Case& k : cases()) {
    const test::MgLevelInputs in = test::mg_level(k.grid, k.box, k.remainder, 11);
    const auto x0 = test::mg_padded(in.cells(), in.pad(), 12);
    const auto b = test::mg_padded(in.cells(), 0, 13);
    std::vector<double> want = x0, got = x0;
    for (int col = 0; col < (k.box ? 8 : 2); ++col) {
      ref::colour_sweep(in.view(), col, b.data(), want.data() + in.pad());
      omp::colour_sweep(in.view(), col, b.data(), got.data() + in.pad());
    }
    EXPECT_NE(want, x0) << name(k);
    EXPECT_EQ(got, want) << name(k);
    // The rows with a remainder are left to rows_relax.
    for (index_t r : in.irregular_rows) EXPECT_EQ(want[std::size_t(in.pad() + r)], x0[std::size_t(in.pad() + r)]);
  }
}

TEST(MgKernels, RowsRelaxScatterAndScaleEqualRefBitwise) {
  for (const Case& k : cases()) {
    if (!k.remainder) continue;
    const test::MgLevelInputs in = test::mg_level(k.grid, k.box, true, 15);
    const auto x0 = test::mg_padded(in.cells(), in.pad(), 16);
    const auto b = test::mg_padded(in.cells(), 0, 17);
    const index_t count = index_t(in.irregular_rows.size());
    std::vector<double> t_ref(static_cast<std::size_t>(count)), t_omp(t_ref.size()), want = x0, got = x0;
    ref::rows_relax(in.view(), in.irregular_rows.data(), count, b.data(), x0.data() + in.pad(), t_ref.data());
    omp::rows_relax(in.view(), in.irregular_rows.data(), count, b.data(), x0.data() + in.pad(), t_omp.data());
    EXPECT_EQ(t_omp, t_ref) << name(k);
    ref::rows_scatter(in.irregular_rows.data(), count, t_ref.data(), want.data() + in.pad());
    omp::rows_scatter(in.irregular_rows.data(), count, t_omp.data(), got.data() + in.pad());
    EXPECT_EQ(got, want) << name(k);
    EXPECT_EQ(want[std::size_t(in.pad() + in.irregular_rows[0])], t_ref[0]);
    ref::rows_scale(in.irregular_rows.data(), count, t_ref.data(), want.data() + in.pad());
    omp::rows_scale(in.irregular_rows.data(), count, t_ref.data(), got.data() + in.pad());
    EXPECT_EQ(got, want) << name(k);
    EXPECT_EQ(want[std::size_t(in.pad() + in.irregular_rows[0])], t_ref[0] * t_ref[0]);
  }
}

TEST(MgKernels, RestrictAndProlongEqualRefBitwise) {
  for (StructuredIndex g : {StructuredIndex{11, 9, 7}, StructuredIndex{12, 10, 1}, StructuredIndex{50, 42, 34}})
    for (int mask = 1; mask < 8; ++mask) {
      if ((mask & 4) && g.nk == 1) continue;
      const test::MgTransferInputs t = test::mg_transfer(g, mask & 1, mask & 2, mask & 4, unsigned(mask));
      const auto r = test::mg_padded(g.cells(), 0, 21);
      std::vector<double> want(static_cast<std::size_t>(t.view.coarse.cells())), got(want.size(), 2.0);
      ref::restrict_residual(t.view, r.data(), want.data());
      omp::restrict_residual(t.view, r.data(), got.data());
      EXPECT_EQ(got, want) << mask;
      const auto xc = test::mg_padded(t.view.coarse.cells(), 0, 22);
      std::vector<double> x_ref = test::mg_padded(g.cells(), 0, 23), x_omp = x_ref;
      ref::prolong_add(t.view, xc.data(), x_ref.data());
      omp::prolong_add(t.view, xc.data(), x_omp.data());
      EXPECT_EQ(x_omp, x_ref) << mask;
    }
}

// <P xc, r> = <xc, P^T r>: the restriction is the prolongation's transpose,
// which keeps the cycle symmetric.
TEST(MgKernels, RestrictionIsTheProlongationsTranspose) {
  for (int mask = 1; mask < 8; ++mask) {
    const StructuredIndex g{13, 10, 7};
    const test::MgTransferInputs t = test::mg_transfer(g, mask & 1, mask & 2, mask & 4, 30 + unsigned(mask));
    const auto r = test::mg_padded(g.cells(), 0, 31);
    const auto xc = test::mg_padded(t.view.coarse.cells(), 0, 32);
    std::vector<double> pxc(static_cast<std::size_t>(g.cells()), 0.0),
        ptr(static_cast<std::size_t>(t.view.coarse.cells()));
    ref::prolong_add(t.view, xc.data(), pxc.data());
    ref::restrict_residual(t.view, r.data(), ptr.data());
    double lhs = 0.0, rhs = 0.0;
    for (std::size_t i = 0; i < pxc.size(); ++i) lhs += pxc[i] * r[i];
    for (std::size_t i = 0; i < ptr.size(); ++i) rhs += xc[i] * ptr[i];
    EXPECT_NEAR(lhs, rhs, 1e-12 * std::abs(lhs)) << mask;
    // P reproduces constants: every row of P sums to 1.
    std::vector<double> ones(static_cast<std::size_t>(t.view.coarse.cells()), 1.0),
        p1(static_cast<std::size_t>(g.cells()), 0.0);
    ref::prolong_add(t.view, ones.data(), p1.data());
    for (double v : p1) ASSERT_NEAR(v, 1.0, 1e-15) << mask;
  }
}

TEST(MgKernels, DenseApplyAndVectorStepsEqualRefBitwise) {
  const index_t n = 97;
  const auto g = test::mg_padded(n * n, 0, 41);
  const auto b = test::mg_padded(n, 0, 42);
  for (bool transposed : {false, true}) {
    std::vector<double> want(static_cast<std::size_t>(n)), got(static_cast<std::size_t>(n));
    const index_t rs = transposed ? 1 : n, cs = transposed ? n : 1;
    ref::dense_apply(n, g.data(), rs, cs, b.data(), want.data());
    omp::dense_apply(n, g.data(), rs, cs, b.data(), got.data());
    EXPECT_EQ(got, want);
    double s = 0.0;
    for (index_t j = 0; j < n; ++j) s += g[std::size_t(5 * rs + j * cs)] * b[std::size_t(j)];
    EXPECT_EQ(want[5], s);
  }
  const index_t m = 150001;
  const auto x = test::mg_padded(m, 0, 43), z = test::mg_padded(m, 0, 44);
  std::vector<double> a = x, c = x;
  ref::add(m, z.data(), a.data());
  omp::add(m, z.data(), c.data());
  EXPECT_EQ(c, a);
  ref::copy(m, z.data(), a.data());
  omp::copy(m, x.data(), c.data());
  EXPECT_EQ(a, z);
  EXPECT_EQ(c, x);
  omp::fill_zero(m, c.data());
  EXPECT_EQ(c, std::vector<double>(std::size_t(m), 0.0));
}

TEST(MgKernels, SetupStepsEqualRefBitwise) {
  for (const Case& k : cases()) {
    const test::MgLevelInputs in = test::mg_level(k.grid, k.box, k.remainder, 51);
    const bool coarsened[3] = {k.grid.ni > 1, k.grid.nj > 1, k.grid.nk > 1};
    std::vector<double> w_ref[3], w_omp[3];
    const index_t ext[3] = {k.grid.ni, k.grid.nj, k.grid.nk};
    for (int d = 0; d < 3; ++d) w_ref[d] = w_omp[d] = std::vector<double>(std::size_t(ext[d]), -1.0);
    ref::transfer_weights(in.view(), in.points, coarsened, w_ref[0].data(), w_ref[1].data(), w_ref[2].data());
    omp::transfer_weights(in.view(), in.points, coarsened, w_omp[0].data(), w_omp[1].data(), w_omp[2].data());
    for (int d = 0; d < 3; ++d) {
      EXPECT_EQ(w_omp[d], w_ref[d]) << name(k) << " direction " << d;
      for (index_t i = 0; i < ext[d] && coarsened[d]; ++i) {
        const double w = w_ref[d][std::size_t(i)];
        if (i % 2 == 0 || i + 1 == ext[d])
          EXPECT_EQ(w, 1.0);
        else
          EXPECT_TRUE(w > 0.0 && w < 1.0) << w;
      }
    }
    GalerkinArgs g;
    g.fine = in.view();
    g.fine_points = in.points;
    g.transfer.fine = k.grid;
    g.transfer.coarse = StructuredIndex{(k.grid.ni + 1) / 2, (k.grid.nj + 1) / 2, (k.grid.nk + 1) / 2};
    for (int d = 0; d < 3; ++d) {
      g.transfer.coarsened[d] = coarsened[d];
      g.transfer.weight[d] = coarsened[d] ? w_ref[d].data() : nullptr;
    }
    g.coarse_points = box_points(active_directions(k.grid));
    std::vector<double> c_ref(static_cast<std::size_t>(g.coarse_points.count) * std::size_t(g.transfer.coarse.cells())),
        c_omp(c_ref.size(), 3.0);
    g.coarse_coef = c_ref.data();
    ref::galerkin(g);
    g.coarse_coef = c_omp.data();
    omp::galerkin(g);
    EXPECT_EQ(c_omp, c_ref) << name(k);
    std::vector<double> d_ref(static_cast<std::size_t>(in.cells())), d_omp(d_ref.size());
    EXPECT_EQ(ref::inverse_diagonal(in.view(), d_ref.data()), -1);
    EXPECT_EQ(omp::inverse_diagonal(in.view(), d_omp.data()), -1);
    EXPECT_EQ(d_omp, d_ref);
    EXPECT_EQ(d_ref, in.dinv);
  }
}

TEST(MgKernels, InverseDiagonalNamesTheFirstZeroCentre) {
  test::MgLevelInputs in = test::mg_level({6, 5, 4}, false, false, 60);
  in.coef[std::size_t(in.points.count / 2) * std::size_t(in.cells()) + 37] = 0.0;
  std::vector<double> dinv(static_cast<std::size_t>(in.cells()));
  EXPECT_EQ(ref::inverse_diagonal(in.view(), dinv.data()), 37);
  EXPECT_EQ(omp::inverse_diagonal(in.view(), dinv.data()), 37);
}

}  // namespace
}  // namespace tb::mg
