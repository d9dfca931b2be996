// The multicolour point-implicit solver (seed 002) against a block Gauss-Seidel
// sweep written independently with Eigen, its OpenMP twin against the sequential
// reference, and mixed precision against the fp64 solution.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <string>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "../../common/systems.hpp"
#include "mesh/io/gmsh_reader.hpp"
#include "mesh/mesh_graph.hpp"
#include "multicolor_fixtures.hpp"
#include "solvers/core/error.hpp"
#include "solvers/factory/registry.hpp"
#include "solvers/matrix/dominant_blocks.hpp"
#include "solvers/multicolor/point_implicit.hpp"

namespace tb {
namespace {

using multicolor::ColourPattern;
using multicolor::Kernel;
using multicolor::Precision;
using test::dense_block;
using test::hand_written_sweeps;

BsrMatrix small_system(index_t n, index_t nx = 5, index_t ny = 4, index_t nz = 3) {
  Stencil7Params p;
  p.nx = nx, p.ny = ny, p.nz = nz, p.block_size = n, p.seed = 7;
  return generate_stencil7(p);
}

std::vector<double> apply(Preconditioner& m, const std::vector<double>& r) {
  Vector rv(Backend::host, r), z(Backend::host, r.size());
  m.apply(rv, z);
  return z.to_host();
}

std::unique_ptr<Preconditioner> set_up(const BsrMatrix& a, int sweeps, Precision precision, Kernel kernel) {
  multicolor::Options o;
  o.sweeps = sweeps, o.precision = precision, o.kernel = kernel;
  auto m = multicolor::make_preconditioner(o);
  m->setup(a, Backend::host);
  return m;
}

TEST(ColourPattern, ColoursAreIndependentAndODropsTheDiagonal) {
  const BsrMatrix a = small_system(3);
  for (bool balance : {false, true}) {
    const ColourPattern p = multicolor::build_colour_pattern(a, balance);
    EXPECT_TRUE(multicolor::colours_are_independent(p));
    EXPECT_GE(p.num_colours(), 2);
    EXPECT_EQ(p.colour_begin.front(), 0);
    EXPECT_EQ(p.colour_begin.back(), a.block_rows);
    EXPECT_EQ(p.ia.back(), a.nnz_blocks() - a.block_rows);
    for (index_t i = 0; i < a.block_rows; ++i) {
      EXPECT_EQ(p.new_to_old[p.old_to_new[i]], i);
      EXPECT_EQ(p.d_source[i], a.find_block(p.new_to_old[i], p.new_to_old[i]));
      for (index_t k = p.ia[i]; k < p.ia[i + 1]; ++k) {
        EXPECT_EQ(p.o_source[k], a.find_block(p.new_to_old[i], p.new_to_old[p.ja[k]]));
        if (k > p.ia[i]) {
          EXPECT_LT(p.ja[k - 1], p.ja[k]);
        }
      }
    }
  }
}

TEST(SplitValues, DiagonalBlocksAreFactoredInPlace) {
  const BsrMatrix a = small_system(4);
  const ColourPattern p = multicolor::build_colour_pattern(a, true);
  multicolor::SplitValues v = multicolor::allocate_split_values(p, Precision::fp64);
  multicolor::fill_split_values(p, a, v);
  for (index_t i : {index_t(0), index_t(17), a.block_rows - 1}) {
    Eigen::MatrixXd lu = Eigen::Map<const Eigen::Matrix<double, -1, -1, Eigen::RowMajor>>(v.d.data() + i * 16, 4, 4);
    Eigen::MatrixXd l = lu.triangularView<Eigen::UnitLower>();
    Eigen::MatrixXd u = lu.triangularView<Eigen::Upper>();
    EXPECT_LT((l * u - dense_block(a, p.d_source[i])).norm(), 1e-12 * dense_block(a, p.d_source[i]).norm());
  }
}

class OneSweep : public ::testing::TestWithParam<int> {};

TEST_P(OneSweep, EqualsHandWrittenMulticolourGaussSeidel) {
  const index_t n = GetParam();
  const BsrMatrix a = small_system(n);
  const std::vector<double> b = test::sine_rhs(std::size_t(a.rows()));
  const ColourPattern p = multicolor::build_colour_pattern(a, true);
  for (int sweeps : {1, 3}) {
    const std::vector<double> expected = hand_written_sweeps(a, p, b, sweeps);
    for (Kernel kernel : {Kernel::ref, Kernel::tuned}) {
      auto m = set_up(a, sweeps, Precision::fp64, kernel);
      EXPECT_LT(test::max_abs_diff(apply(*m, b), expected), 1e-12 * test::max_abs(expected))
          << "n = " << n << ", sweeps = " << sweeps;
    }
  }
}

// 1..8 take the compile-time block sizes, 10 and 17 the runtime loop.
INSTANTIATE_TEST_SUITE_P(BlockSizes, OneSweep, ::testing::Values(1, 2, 3, 4, 5, 8, 10, 17));

// Seed 002 §V's test matrices proper: random dominant blocks on the node graph
// of an unstructured tetrahedral mesh (the shipped Gmsh unit sphere, 663 nodes),
// whose greedy colours are uneven, unlike the Kuhn boxes' and stencils'.
BsrMatrix sphere_system(index_t n) {
  const Graph g = node_graph(read_gmsh_tetrahedra(std::string(TB_SOURCE_DIR) + "/inputs/meshes/tet_sphere_coarse.msh"));
  return dominant_block_matrix(g.row_ptr, g.col_idx, n, 3);
}

TEST(GmshSphere, SweepsEqualHandWrittenGaussSeidel) {
  for (index_t n : {1, 4, 5, 11}) {
    const BsrMatrix a = sphere_system(n);
    const std::vector<double> b = test::sine_rhs(std::size_t(a.rows()));
    const ColourPattern p = multicolor::build_colour_pattern(a, true);
    EXPECT_TRUE(multicolor::colours_are_independent(p));
    for (int sweeps : {1, 3}) {
      const std::vector<double> expected = hand_written_sweeps(a, p, b, sweeps);
      for (Kernel kernel : {Kernel::ref, Kernel::tuned})
        EXPECT_LT(test::max_abs_diff(apply(*set_up(a, sweeps, Precision::fp64, kernel), b), expected),
                  1e-12 * test::max_abs(expected))
            << "n = " << n << ", sweeps = " << sweeps;
    }
  }
}

// Strict diagonal dominance by rows makes block Jacobi and Gauss-Seidel
// converge; the standalone outer iteration (Richardson, one sweep) reaches the
// direct solution in both precisions.
TEST(GmshSphere, StandaloneIterationConvergesInBothPrecisions) {
  const BsrMatrix a = sphere_system(4);
  const std::vector<double> b = test::sine_rhs(std::size_t(a.rows()));
  const std::vector<double> exact = test::direct_solve(a, b);
  for (const char* precision : {"mixed", "double"}) {
    auto s = make_solver(std::string("richardson(rtol=1e-11,maxit=400)+multicolor(precision=") + precision + ")");
    s->setup(a);
    std::vector<double> x(b.size(), 0.0);
    const SolveStats st = s->solve(b, x);
    ASSERT_TRUE(st.converged()) << precision << ": " << st.line();
    EXPECT_LT(test::max_abs_diff(x, exact), 1e-9 * test::max_abs(exact)) << precision;
  }
}

TEST(Relaxation, OpenMPEqualsReferenceBitwise) {
#ifdef _OPENMP
  const int threads = omp_get_max_threads();
  omp_set_num_threads(std::max(2, threads));
#endif
  // 20^3 cells, n = 4: each colour holds far more than openmp_min_length entries.
  const BsrMatrix a = small_system(4, 20, 20, 20);
  const std::vector<double> b = test::sine_rhs(std::size_t(a.rows()));
  for (Precision precision : {Precision::mixed, Precision::fp64}) {
    auto ref = set_up(a, 2, precision, Kernel::ref);
    auto omp = set_up(a, 2, precision, Kernel::tuned);
    EXPECT_EQ(apply(*ref, b), apply(*omp, b));
  }
#ifdef _OPENMP
  omp_set_num_threads(threads);
#endif
}

TEST(Relaxation, MixedPrecisionStoresOffDiagonalBlocksInFp32) {
  const BsrMatrix a = small_system(5);
  const std::vector<double> b = test::sine_rhs(std::size_t(a.rows()));
  const std::vector<double> x64 = apply(*set_up(a, 2, Precision::fp64, Kernel::ref), b);
  const std::vector<double> x32 = apply(*set_up(a, 2, Precision::mixed, Kernel::ref), b);
  const double diff = test::max_abs_diff(x64, x32) / test::max_abs(x64);
  EXPECT_GT(diff, 1e-12);  // the fp32 rounding of O is visible ...
  EXPECT_LT(diff, 1e-6);   // ... at fp32's level, no more
}

// The outer iteration's residual is computed with A in fp64, so mixed precision
// inside the relaxation changes the convergence rate, not the solution.
TEST(Relaxation, MixedPrecisionConvergesToTheFp64Solution) {
  const BsrMatrix a = small_system(4, 8, 8, 8);
  const std::vector<double> b = test::sine_rhs(std::size_t(a.rows()));
  const std::vector<double> exact = test::direct_solve(a, b);
  for (const char* spec : {"richardson(rtol=1e-11,maxit=400)+multicolor(precision=mixed)",
                           "gmres(restart=30,rtol=1e-11)+multicolor(sweeps=2,precision=mixed)"}) {
    auto s = make_solver(spec);
    s->setup(a);
    std::vector<double> x(b.size(), 0.0);
    const SolveStats st = s->solve(b, x);
    ASSERT_TRUE(st.converged()) << spec << ": " << st.line();
    EXPECT_LT(test::max_abs_diff(x, exact), 1e-9 * test::max_abs(exact)) << spec;
  }
}

TEST(Relaxation, MoreSweepsMakeABetterPreconditioner) {
  const BsrMatrix a = small_system(4, 10, 10, 10);
  const std::vector<double> b = test::sine_rhs(std::size_t(a.rows()));
  int previous = 1 << 30;
  for (int sweeps : {1, 2, 4}) {
    auto s = make_solver("gmres(restart=30,rtol=1e-8)+multicolor(sweeps=" + std::to_string(sweeps) + ")");
    s->setup(a);
    std::vector<double> x(b.size(), 0.0);
    const SolveStats st = s->solve(b, x);
    ASSERT_TRUE(st.converged()) << st.line();
    EXPECT_LT(st.iterations, previous) << sweeps << " sweeps";
    previous = st.iterations;
  }
}

TEST(Relaxation, UpdateRefillsTheValues) {
  BsrMatrix a = small_system(3);
  const std::vector<double> b = test::sine_rhs(std::size_t(a.rows()));
  auto m = set_up(a, 1, Precision::fp64, Kernel::ref);
  for (double& v : a.values) v *= 2.0;
  m->update(a);
  const std::vector<double> x = apply(*m, b);
  const std::vector<double> expected = hand_written_sweeps(a, multicolor::build_colour_pattern(a, true), b, 1);
  EXPECT_LT(test::max_abs_diff(x, expected), 1e-12 * test::max_abs(expected));
}

std::string setup_error(const BsrMatrix& a, Precision precision = Precision::fp64) {
  try {
    set_up(a, 1, precision, Kernel::ref);
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

TEST(Relaxation, ZeroPivotNamesTheBlockRow) {
  BsrMatrix a = small_system(3);
  double* d = a.block(a.find_block(11, 11));
  std::fill(d, d + 9, 0.0);
  const std::string e = setup_error(a);
  EXPECT_NE(e.find("block row 11 "), std::string::npos) << e;
}

TEST(Relaxation, NonFiniteOffDiagonalValueNamesTheBlockRow) {
  BsrMatrix a = small_system(2);
  a.block(a.find_block(6, 7))[1] = std::nan("");
  const std::string e = setup_error(a);
  EXPECT_NE(e.find("non-finite value in block row 6"), std::string::npos) << e;
}

TEST(Relaxation, Fp32OverflowIsRefusedInMixedPrecision) {
  BsrMatrix a = small_system(2);
  a.block(a.find_block(6, 7))[0] = 1e300;
  EXPECT_NE(setup_error(a, Precision::mixed).find("overflows fp32"), std::string::npos);
  EXPECT_EQ(setup_error(a, Precision::fp64), "no error");
}

TEST(Relaxation, MissingDiagonalBlockIsRefused) {
  BsrMatrix a;
  a.block_size = 1, a.block_rows = a.block_cols = 2;
  a.row_ptr = {0, 1, 2};
  a.col_idx = {1, 0};
  a.values = {1.0, 1.0};
  EXPECT_NE(setup_error(a).find("block row 0 has no diagonal block"), std::string::npos) << setup_error(a);
}

TEST(Relaxation, RegistryRefusesBadParameters) {
  EXPECT_THROW(make_solver("gmres+multicolor(sweeps=0)"), Error);
  EXPECT_THROW(make_solver("gmres+multicolor(precision=half)"), Error);
  auto s = make_solver("gmres+multicolor(kernel=library)");
  EXPECT_THROW(s->setup(small_system(2)), Error);  // the library baseline is CUDA-only
  auto fused = make_solver("gmres+multicolor(kernel=fused)");
  try {
    fused->setup(small_system(2));
    FAIL() << "kernel=fused was accepted on the host";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("cuda backend only"), std::string::npos) << e.what();
  }
}

// kernel=auto: the rule measured on the H100 (options.hpp), and nothing but auto is changed.
TEST(KernelChoice, AutoTakesFusedOnlyForSmallBlocksOfLargeMatricesOnCuda) {
  using multicolor::choose_kernel;
  EXPECT_EQ(choose_kernel(Kernel::automatic, false, 1'000'000, 4), Kernel::tuned);
  EXPECT_EQ(choose_kernel(Kernel::automatic, true, 1'000'000, 4), Kernel::fused);
  EXPECT_EQ(choose_kernel(Kernel::automatic, true, 50'000, 8), Kernel::fused);
  EXPECT_EQ(choose_kernel(Kernel::automatic, true, 49'999, 4), Kernel::tuned);
  EXPECT_EQ(choose_kernel(Kernel::automatic, true, 1'000'000, 9), Kernel::tuned);
  for (Kernel k : {Kernel::ref, Kernel::tuned, Kernel::library, Kernel::fused})
    EXPECT_EQ(choose_kernel(k, true, 1'000'000, 4), k);
}

}  // namespace
}  // namespace tb
