// FGBILU against the sequential BSR BILU(0) of solvers/precond (the same
// factors and the same M^{-1}), the variants against one another, the kernels
// against their sequential twins, the paper's Table 1 check (20 correction
// steps, residual histories equal to 10 significant digits), and the errors.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "../../common/random.hpp"
#include "solvers/core/error.hpp"
#include "solvers/factory/registry.hpp"
#include "solvers/fgbilu/fgbilu.hpp"
#include "solvers/fgbilu/kernels.hpp"
#include "solvers/matrix/generate.hpp"
#include "solvers/precond/bilu0.hpp"
#include "solvers/precond/kernels.hpp"

namespace tb::fgbilu {
namespace {

struct Case {
  index_t nx, ny, nz, n;
};

std::string name(const Case& c) {
  return std::to_string(c.nx) + "x" + std::to_string(c.ny) + "x" + std::to_string(c.nz) + "_n" + std::to_string(c.n);
}

BsrMatrix generated(const Case& c, unsigned seed = 5) {
  Stencil7Params p;
  p.nx = c.nx, p.ny = c.ny, p.nz = c.nz, p.block_size = c.n, p.seed = seed;
  return generate_stencil7(p);
}

double max_abs(const std::vector<double>& v) {
  double m = 0.0;
  for (double x : v) m = std::max(m, std::abs(x));
  return m;
}

double max_abs_diff(const std::vector<double>& a, const std::vector<double>& b) {
  double m = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) m = std::max(m, std::abs(a[i] - b[i]));
  return m;
}

std::vector<double> precondition(const Factorization& f, const std::vector<double>& r) {
  std::vector<double> z(r.size(), 0.0);
  f.solve(r.data(), z.data());
  return z;
}

class Variants : public ::testing::TestWithParam<Case> {};

// Eq. 1 and the sweeps give the M^{-1} of BSR BILU(0) in natural order, up to
// round-off (GJE without pivoting against LU with partial pivoting).
TEST_P(Variants, SequentialMatchesBsrBilu0) {
  const BsrMatrix a = generated(GetParam());
  Bilu0Factors ref = bilu0_symbolic(a);
  precond::kernels::ref::bilu0_factor(a, ref);
  Factorization f(Variant::seq, Backend::host);
  f.setup(a);
  // The inverted diagonal blocks, cell by cell.
  const std::vector<double> d = f.inverted_diagonal();
  const std::size_t nb = std::size_t(a.block_size) * a.block_size;
  for (index_t r = 0; r < a.block_rows; ++r) {
    const double* want = ref.block(ref.diag[r]);
    const double* got = d.data() + std::size_t(r) * nb;
    double scale = 0.0;
    for (std::size_t e = 0; e < nb; ++e) scale = std::max(scale, std::abs(want[e]));
    for (std::size_t e = 0; e < nb; ++e) ASSERT_NEAR(got[e], want[e], 1e-12 * scale) << "block row " << r;
  }
  const std::vector<double> rhs = test::random_vector(std::size_t(a.rows()), 17);
  std::vector<double> want(rhs.size());
  precond::kernels::ref::bilu0_apply(ref, rhs.data(), want.data());
  EXPECT_LE(max_abs_diff(precondition(f, rhs), want), 1e-12 * max_abs(want));
}

// The wavefront variants do the same arithmetic per cell in another order of
// independent cells: bitwise identical to seq.
TEST_P(Variants, WavefrontVariantsEqualSequentialBitwise) {
  const BsrMatrix a = generated(GetParam());
  Factorization seq(Variant::seq, Backend::host);
  seq.setup(a);
  const std::vector<double> rhs = test::random_vector(std::size_t(a.rows()), 23);
  const std::vector<double> want = precondition(seq, rhs);
  for (Variant v : {Variant::omp, Variant::acc}) {
    Factorization f(v, Backend::host);
    f.setup(a);
    EXPECT_EQ(f.inverted_diagonal(), seq.inverted_diagonal()) << to_string(v);
    EXPECT_EQ(precondition(f, rhs), want) << to_string(v);
  }
}

// Algorithm 7 against the BSR product.
TEST_P(Variants, ResidualKernelMatchesBsrProduct) {
  const BsrMatrix a = generated(GetParam());
  const std::vector<double> x = test::random_vector(std::size_t(a.rows()), 29);
  const std::vector<double> b = test::random_vector(std::size_t(a.rows()), 31);
  std::vector<double> want(b.size());
  spmv_ref(a, x.data(), want.data());
  for (std::size_t i = 0; i < b.size(); ++i) want[i] = b[i] - want[i];
  for (Variant v : {Variant::seq, Variant::omp}) {
    Factorization f(v, Backend::host);
    f.setup(a);
    std::vector<double> r(b.size());
    f.residual(b.data(), x.data(), r.data());
    EXPECT_LE(max_abs_diff(r, want), 1e-13 * max_abs(want)) << to_string(v);
  }
}

INSTANTIATE_TEST_SUITE_P(Shapes, Variants,
                         ::testing::Values(Case{1, 1, 9, 2}, Case{8, 1, 1, 3}, Case{5, 3, 4, 1}, Case{4, 6, 3, 4},
                                           Case{3, 3, 3, 6}, Case{2, 3, 2, 8}, Case{3, 2, 2, 13}, Case{2, 2, 2, 32}),
                         [](const auto& info) { return name(info.param); });

// The OpenMP sweeps and the ACC-style plane kernels against the sequential
// plane twin, on a grid large enough for the parallel regions to open.
TEST(Kernels, PlaneKernelsMatchTheirSequentialTwins) {
  const BsrMatrix a = generated({24, 20, 16, 3});
  const Stencil7Matrix m = stencil7_from_bsr(a, infer_grid_shape(a));
  const WavefrontSchedule& s = m.schedule;
  const Stencil7View v{m.block_size,     m.cells(),         m.values.data(),
                       s.natural.data(), s.position.data(), s.neighbour.data()};
  const std::size_t nd = std::size_t(m.cells()) * m.block_entries();
  std::vector<double> d_ref(nd), d_omp(nd), d_acc(nd);
  std::vector<double> scratch(3 * std::size_t(s.max_plane_size()) * m.block_entries());
  const PlaneScratch sc{scratch.data(), s.max_plane_size() * index_t(m.block_entries())};
  for (index_t p = 0; p < s.num_planes(); ++p) {
    const index_t b = s.plane_ptr[p], e = s.plane_ptr[p + 1];
    ASSERT_EQ(kernels::ref::factor_plane(v, d_ref.data(), b, e), -1);
    ASSERT_EQ(kernels::ref::acc_factor_plane(v, d_acc.data(), b, e, sc), -1);
  }
  ASSERT_EQ(kernels::omp::factor_planes(v, d_omp.data(), s.plane_ptr.data(), s.num_planes()), -1);
  EXPECT_EQ(d_omp, d_ref);
  EXPECT_EQ(d_acc, d_ref);
  const std::vector<double> rhs = test::random_vector(std::size_t(a.rows()), 41);
  std::vector<double> x_ref(rhs.size()), x_omp(rhs.size()), x_acc(rhs.size()), z(std::size_t(s.max_plane_size()) * 3);
  for (index_t p = 0; p < s.num_planes(); ++p) {
    const index_t b = s.plane_ptr[p], e = s.plane_ptr[p + 1];
    kernels::ref::forward_plane(v, d_ref.data(), b, e, rhs.data(), x_ref.data());
    kernels::ref::acc_forward_plane(v, d_ref.data(), b, e, rhs.data(), x_acc.data(), z.data());
  }
  kernels::omp::forward_sweep(v, d_ref.data(), s.plane_ptr.data(), s.num_planes(), rhs.data(), x_omp.data());
  EXPECT_EQ(x_omp, x_ref);
  EXPECT_EQ(x_acc, x_ref);
  for (index_t p = s.num_planes() - 1; p >= 0; --p) {
    const index_t b = s.plane_ptr[p], e = s.plane_ptr[p + 1];
    kernels::ref::backward_plane(v, d_ref.data(), b, e, x_ref.data());
    kernels::ref::acc_backward_plane(v, d_ref.data(), b, e, x_acc.data(), z.data());
  }
  kernels::omp::backward_sweep(v, d_ref.data(), s.plane_ptr.data(), s.num_planes(), x_omp.data());
  EXPECT_EQ(x_omp, x_ref);
  EXPECT_EQ(x_acc, x_ref);
  std::vector<double> r_ref(rhs.size()), r_omp(rhs.size());
  kernels::ref::residual(v, rhs.data(), x_ref.data(), r_ref.data());
  kernels::omp::residual(v, rhs.data(), x_ref.data(), r_omp.data());
  EXPECT_EQ(r_omp, r_ref);
}

// Seed 000, Table 1: the residual history of 20 correction steps (Eq. 3) is the
// same for every variant, to at least 10 significant digits. Once a history
// reaches round-off (1e-14 ||r0||: on 1 x 1 x K and I x 1 x 1 grids BILU(0) is
// the exact LU and the first correction gets there) the digits left are noise,
// as in the paper's last rows, so the bound keeps that floor.
class Table1 : public ::testing::TestWithParam<Case> {};

TEST_P(Table1, ResidualHistoriesAgreeTo10Digits) {
  const BsrMatrix a = generated(GetParam(), 9);
  const std::vector<double> b = test::random_vector(std::size_t(a.rows()), 3);
  auto history = [&](const std::string& precond) {
    auto solver = make_solver("richardson(maxit=20,rtol=1e-300,stagnation=0)+" + precond);
    solver->setup(a);
    std::vector<double> x(b.size(), 0.0);
    return solver->solve(b, x).residual_history;
  };
  const std::vector<double> want = history("bilu0");
  ASSERT_EQ(want.size(), 21u);
  for (const char* v : {"seq", "omp", "acc"}) {
    const std::vector<double> got = history(std::string("fgbilu(variant=") + v + ")");
    ASSERT_EQ(got.size(), want.size()) << v;
    for (std::size_t l = 0; l < want.size(); ++l)
      EXPECT_NEAR(got[l], want[l], 1e-10 * want[l] + 1e-14 * want[0]) << v << " step " << l;
  }
}

INSTANTIATE_TEST_SUITE_P(Shapes, Table1,
                         ::testing::Values(Case{1, 1, 12, 1}, Case{12, 1, 1, 2}, Case{1, 1, 10, 3}, Case{9, 1, 1, 4},
                                           Case{6, 4, 3, 5}, Case{5, 3, 4, 6}, Case{4, 5, 3, 7}, Case{3, 4, 5, 8}),
                         [](const auto& info) { return name(info.param); });

// variant=auto on the host: the OpenMP wavefront only where a hyperplane carries
// host_plane_grain entries and two threads may run; the sequential sweep for
// tb-incomp's 2D cavities (129 x 129: 65 cells a plane), the 3D cavity's
// momentum (48^3, n = 3: 7,000 entries a plane) and on one thread.
TEST(AutoVariant, HostChoosesTheWavefrontOnlyForLargePlanes) {
  EXPECT_EQ(host_variant_for({129, 129, 1}, 1, 2), Variant::seq);
  EXPECT_EQ(host_variant_for({129, 129, 1}, 2, 2), Variant::seq);
  EXPECT_EQ(host_variant_for({48, 48, 48}, 3, 2), Variant::seq);
  EXPECT_EQ(host_variant_for({64, 64, 64}, 5, 2), Variant::omp);     // 1,380 cells x 25 = 34,500 a plane
  EXPECT_EQ(host_variant_for({64, 64, 64}, 5, 1), Variant::seq);     // one thread: nothing to share
  EXPECT_EQ(host_variant_for({128, 128, 128}, 1, 2), Variant::seq);  // 5,500 entries a plane
  EXPECT_EQ(host_variant_for({128, 128, 128}, 4, 2), Variant::omp);  // 88,000
}

TEST(Errors, SingularDiagonalBlockNamesTheCell) {
  BsrMatrix a = generated({3, 3, 3, 2});
  // Cell (1,2,0): natural row 1 + 3*2 = 7. A zero diagonal block with no lower
  // neighbour contribution large enough to rescue it is singular after Eq. 1
  // only if the update is zero too, so zero the couplings into it as well.
  const index_t r = 7;
  for (index_t k = a.row_ptr[r]; k < a.row_ptr[r + 1]; ++k)
    for (index_t e = 0; e < 4; ++e) a.block(k)[e] = 0.0;
  for (Variant v : {Variant::seq, Variant::omp, Variant::acc}) {
    Factorization f(v, Backend::host);
    try {
      f.setup(a);
      FAIL() << to_string(v) << ": a singular block was accepted";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("(1,2,0)"), std::string::npos) << e.what();
    }
  }
}

// Large enough for the OpenMP sweep's parallel region to open (n^2 cells >= 16k):
// the cells after the singular one are computed from non-finite values, and the
// error must still name the first.
TEST(Errors, SingularBlockInTheParallelFactorisationNamesTheFirstCell) {
  BsrMatrix a = generated({16, 16, 16, 2});
  const index_t r = 5 + 16 * (7 + 16 * 3);  // cell (5,7,3)
  for (index_t k = a.row_ptr[r]; k < a.row_ptr[r + 1]; ++k)
    for (index_t e = 0; e < 4; ++e) a.block(k)[e] = 0.0;
  Factorization f(Variant::omp, Backend::host);
  try {
    f.setup(a);
    FAIL() << "a singular block was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("(5,7,3)"), std::string::npos) << e.what();
  }
}

TEST(Errors, NonFiniteDiagonalBlockNamesTheCell) {
  BsrMatrix a = generated({4, 2, 2, 3});
  const index_t r = 2 + 4 * (1 + 2 * 1);  // cell (2,1,1)
  a.block(a.find_block(r, r))[4] = std::numeric_limits<double>::quiet_NaN();
  for (Variant v : {Variant::seq, Variant::omp, Variant::acc}) {
    Factorization f(v, Backend::host);
    try {
      f.setup(a);
      FAIL() << to_string(v) << ": a NaN block was accepted";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("(2,1,1)"), std::string::npos) << e.what();
    }
  }
}

TEST(Errors, ClWithoutCudaIsAClearError) {
  try {
    make_solver("bicgstab+fgbilu(variant=cl)");
    FAIL() << "cl on the host was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("host"), std::string::npos) << e.what();
  }
  EXPECT_THROW(Factorization(Variant::cl, Backend::host), Error);
  EXPECT_THROW(Factorization(Variant::omp, Backend::cuda), Error);
}

TEST(Errors, SweepLaunchIsForClOnly) {
  for (Variant v : {Variant::seq, Variant::omp, Variant::acc}) {
    try {
      Factorization f(v, Backend::host, Launch::sweep);
      FAIL() << to_string(v) << " accepted launch=sweep";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("variant=cl only"), std::string::npos) << e.what();
    }
  }
  EXPECT_THROW(make_solver("bicgstab+fgbilu(variant=omp,launch=sweep)"), Error);
  EXPECT_THROW(make_solver("bicgstab+fgbilu(variant=cl,launch=wavefront)"), Error);
  EXPECT_THROW(parse_launch("persistent"), Error);
  EXPECT_EQ(parse_launch(to_string(Launch::sweep)), Launch::sweep);
  // auto on the host is omp, which ignores the cl-only launch.
  auto host_auto = make_solver("richardson(maxit=2)+fgbilu(launch=sweep)");
  EXPECT_NO_THROW(host_auto->setup(generated({3, 3, 3, 2})));
}

// graph=true records CUDA graphs: refused on the host with the key and the
// backend it needs, at set-up (before a step runs); off unless asked for.
TEST(Errors, GraphIsForCudaOnly) {
  for (Variant v : {Variant::seq, Variant::omp, Variant::acc}) {
    EXPECT_EQ(Factorization(v, Backend::host).apply(), Apply::launches) << to_string(v);
    EXPECT_THROW(Factorization(v, Backend::host, default_launch(v), Apply::graph), Error) << to_string(v);
  }
  auto s = make_solver("bicgstab+fgbilu(graph=true)");
  try {
    s->setup(generated({3, 3, 3, 2}));
    FAIL() << "graph=true on the host was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("graph=true"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("backend=cuda"), std::string::npos) << e.what();
  }
  EXPECT_THROW(make_solver("bicgstab+fgbilu(graph=on)"), Error);
  EXPECT_NO_THROW(make_solver("richardson(maxit=2)+fgbilu(graph=false)")->setup(generated({3, 3, 3, 2})));
}

// The default launch is the one measured faster for cl, and plane, the only
// one they have, for the others: no launch given is never an error.
TEST(Launch, DefaultIsSweepForClAndPlaneOtherwise) {
  EXPECT_EQ(default_launch(Variant::cl), Launch::sweep);
  for (Variant v : {Variant::seq, Variant::omp, Variant::acc}) {
    EXPECT_EQ(default_launch(v), Launch::plane) << to_string(v);
    EXPECT_EQ(Factorization(v, Backend::host).launch(), Launch::plane) << to_string(v);
  }
  const BsrMatrix a = generated({3, 3, 3, 2});
  for (const char* spec :
       {"richardson(maxit=2)+fgbilu(variant=acc)", "richardson(maxit=2)+fgbilu(variant=omp,launch=auto)",
        "richardson(maxit=2)+fgbilu(variant=seq,launch=plane)"}) {
    auto s = make_solver(spec);
    EXPECT_NO_THROW(s->setup(a)) << spec;
  }
  EXPECT_THROW(make_solver("bicgstab+fgbilu(variant=wavefront)"), Error);
}

TEST(Errors, UpdateWithAnotherPatternIsRefused) {
  Factorization f(Variant::omp, Backend::host);
  f.setup(generated({3, 3, 3, 2}));
  EXPECT_THROW(f.update(generated({3, 3, 2, 2})), Error);
}

TEST(Registry, UpdateRefactorsWithNewValues) {
  const Case c{5, 4, 3, 3};
  auto solver = make_solver("bicgstab(rtol=1e-10)+fgbilu(variant=omp)");
  solver->setup(generated(c, 1));
  const BsrMatrix a2 = generated(c, 2);
  solver->update(a2);
  const std::vector<double> b = test::random_vector(std::size_t(a2.rows()), 7);
  std::vector<double> x(b.size(), 0.0);
  const SolveStats st = solver->solve(b, x);
  EXPECT_TRUE(is_converged(st.reason));
  EXPECT_LE(residual_norm(a2, x, b), 1e-9 * residual_norm(a2, std::vector<double>(b.size(), 0.0), b));
}

TEST(Registry, ExplicitGridParameters) {
  const BsrMatrix a = generated({4, 3, 2, 2});
  auto ok = make_solver("richardson(maxit=3)+fgbilu(variant=seq,nx=4,ny=3,nz=2)");
  EXPECT_NO_THROW(ok->setup(a));
  auto wrong = make_solver("richardson(maxit=3)+fgbilu(variant=seq,nx=2,ny=3,nz=4)");
  EXPECT_THROW(wrong->setup(a), Error);
}

}  // namespace
}  // namespace tb::fgbilu
