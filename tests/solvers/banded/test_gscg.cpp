// GSCG (seed 004 §III-D): recovering the stencil from a matrix, the check that
// refuses matrices that are not such an operator, and the solve against a
// direct solution and against the BSR-based CG + Jacobi it must equal; the
// one-reduction variant against the classic one, with its reductions counted.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>

#include "../../common/systems.hpp"
#include "banded_systems.hpp"
#include "solvers/banded/complete_solvers.hpp"
#include "solvers/banded/stencil_operator.hpp"
#include "solvers/factory/registry.hpp"

namespace tb {
namespace {

TEST(StencilOperator, RecoversTheGeneratorsCoefficients) {
  const BsrMatrix a = test::poisson7(6, 5, 4);
  const banded::StencilCoefficients c = banded::stencil_from_bsr(a, 6, 5, 4);
  // Uniform unit cube: a_d = k * area / distance = k * h_e h_f / h_d for the
  // generator's (random) diffusivity k; walls half a cell away.
  const double hx = 1.0 / 6, hy = 1.0 / 5, hz = 1.0 / 4;
  EXPECT_NEAR(c.ay / c.ax, (hx * hz / hy) / (hy * hz / hx), 1e-13);
  EXPECT_NEAR(c.az / c.ax, (hx * hy / hz) / (hy * hz / hx), 1e-13);
  EXPECT_NEAR(c.wall, 2.0, 1e-12);
  const BsrMatrix back = banded::stencil_to_bsr(c);
  ASSERT_TRUE(back.same_pattern(a));
  for (std::size_t k = 0; k < a.values.size(); ++k) EXPECT_NEAR(back.values[k], a.values[k], 1e-13);
}

TEST(StencilOperator, PapersDirichletStencil) {
  banded::StencilCoefficients c{4, 4, 4, 1.0, 1.0, 1.0, 0.0, 1.0};
  for (index_t i = 0; i < c.cells(); ++i) EXPECT_EQ(banded::stencil_diagonal(c, i), 6.0);
  const banded::StencilCoefficients back = banded::stencil_from_bsr(banded::stencil_to_bsr(c), 4, 4, 4);
  EXPECT_EQ(back.ax, 1.0);
  EXPECT_EQ(back.shift, 0.0);
}

TEST(StencilOperator, NamesTheFirstRowThatDiffers) {
  BsrMatrix a = test::poisson7(5, 4, 3);
  a.values[std::size_t(a.find_block(17, 18))] *= 1.01;
  try {
    banded::stencil_from_bsr(a, 5, 4, 3);
    FAIL() << "a perturbed operator accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("row 17 differs"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("entry (17, 18)"), std::string::npos) << e.what();
  }
  EXPECT_THROW(banded::stencil_from_bsr(test::poisson7(5, 4, 3), 4, 5, 3), Error);         // wrong grid
  EXPECT_THROW(banded::stencil_from_bsr(test::poisson7(5, 4, 3, false), 5, 4, 3), Error);  // convection
}

TEST(Gscg, ReachesTheSparseLUSolution) {
  const BsrMatrix a = test::poisson7(7, 6, 5);
  const auto b = test::sine_rhs(std::size_t(a.rows()));
  const auto exact = test::direct_solve(a, b);
  auto solver = make_solver("cg_stencil(nx=7,ny=6,nz=5,rtol=1e-11)");
  solver->setup(a);
  std::vector<double> x(b.size(), 0.0);
  const SolveStats st = solver->solve(b, x);
  ASSERT_TRUE(st.converged()) << st.line();
  EXPECT_LT(test::max_abs_diff(x, exact), 1e-8 * test::max_abs(exact));
  EXPECT_NEAR(st.final_residual, residual_norm(a, x, b), 1e-12 * st.initial_residual);
}

TEST(Gscg, TakesTheSameIterationsAsBsrCgWithJacobi) {
  const BsrMatrix a = test::poisson7(10, 9, 8);
  const auto b = test::sine_rhs(std::size_t(a.rows()));
  auto gscg = make_solver("cg_stencil(nx=10,ny=9,nz=8,rtol=1e-9)");
  auto bsr = make_solver("cg(rtol=1e-9)+jacobi");
  gscg->setup(a);
  bsr->setup(a);
  std::vector<double> x1(b.size(), 0.0), x2(b.size(), 0.0);
  const SolveStats s1 = gscg->solve(b, x1), s2 = bsr->solve(b, x2);
  ASSERT_TRUE(s1.converged() && s2.converged());
  EXPECT_EQ(s1.iterations, s2.iterations);
  for (int i = 0; i <= s1.iterations; i += 5)
    EXPECT_NEAR(s1.residual_history[std::size_t(i)], s2.residual_history[std::size_t(i)],
                1e-8 * s1.residual_history[std::size_t(i)]);
  EXPECT_LT(test::max_abs_diff(x1, x2), 1e-9 * test::max_abs(x2));
}

// A one-process group whose reductions are counted: each call is one
// MPI_Allreduce in the MPI Communicator.
class CountingSpace final : public VectorSpace {
 public:
  void reduce(double* sums, int k, double* maxima, int m) const override {
    ++calls;
    VectorSpace::reduce(sums, k, maxima, m);
  }
  mutable long calls = 0;
};
class CountingCommunicator final : public comm::Communicator {
 public:
  const VectorSpace& space() const override { return space_; }
  CountingSpace space_;
};

struct GscgRun {
  SolveStats stats;
  std::vector<double> x;
  long reduce_calls = 0;
  long counted_by_times = 0;
};

GscgRun run_gscg(banded::GscgVariant variant, index_t nx, index_t ny, index_t nz, double rtol) {
  const BsrMatrix a = test::poisson7(nx, ny, nz);
  const auto b = test::sine_rhs(std::size_t(a.rows()));
  const auto comm = std::make_shared<CountingCommunicator>();
  banded::BandedStop stop;
  stop.krylov.rtol = rtol;
  banded::Gscg gscg(banded::stencil_from_bsr(a, nx, ny, nz), comm, comm::balanced_partition(a.block_rows, 1), stop,
                    Backend::host, variant);
  Vector bv(Backend::host, std::span<const double>(b)), xv(Backend::host, b.size());
  xv.set_zero();
  GscgRun r;
  r.stats = gscg.solve(bv, xv);
  r.x = xv.to_host();
  r.reduce_calls = comm->space_.calls;
  r.counted_by_times = gscg.times().reductions;
  return r;
}

TEST(Gscg, OneReductionVariantGivesTheClassicIterates) {
  const GscgRun one = run_gscg(banded::GscgVariant::one_reduction, 10, 9, 8, 1e-12);
  const GscgRun classic = run_gscg(banded::GscgVariant::classic, 10, 9, 8, 1e-12);
  ASSERT_TRUE(one.stats.converged() && classic.stats.converged()) << one.stats.line() << classic.stats.line();
  EXPECT_NEAR(one.stats.iterations, classic.stats.iterations, 1);
  const int common = std::min(one.stats.iterations, classic.stats.iterations);
  for (int i = 0; i <= common; ++i)
    EXPECT_NEAR(one.stats.residual_history[std::size_t(i)], classic.stats.residual_history[std::size_t(i)],
                1e-6 * classic.stats.residual_history[std::size_t(i)])
        << "iteration " << i;
  EXPECT_LT(test::max_abs_diff(one.x, classic.x), 1e-10 * test::max_abs(classic.x));
}

TEST(Gscg, OneReductionVariantMakesOneAllreducePerIteration) {
  const GscgRun one = run_gscg(banded::GscgVariant::one_reduction, 9, 8, 7, 1e-10);
  const GscgRun classic = run_gscg(banded::GscgVariant::classic, 9, 8, 7, 1e-10);
  ASSERT_GT(one.stats.iterations, 10);
  // Per solve, besides the iterations: ||b - A x0|| and ||b - A x|| (the
  // reported residuals) and the reduction that checks r0.
  EXPECT_EQ(one.reduce_calls, one.stats.iterations + 3);
  EXPECT_EQ(classic.reduce_calls, 2 * classic.stats.iterations + 3);
  EXPECT_EQ(one.counted_by_times, one.reduce_calls);
  EXPECT_EQ(classic.counted_by_times, classic.reduce_calls);
}

TEST(Gscg, RegistryChoosesTheVariant) {
  const BsrMatrix a = test::poisson7(6, 5, 4);
  const auto b = test::sine_rhs(std::size_t(a.rows()));
  for (const char* spec :
       {"cg_stencil(nx=6,ny=5,nz=4,rtol=1e-10)", "cg_stencil(nx=6,ny=5,nz=4,reductions=1,rtol=1e-10)",
        "cg_stencil(nx=6,ny=5,nz=4,reductions=classic,rtol=1e-10)"}) {
    auto solver = make_solver(spec);
    solver->setup(a);
    auto* gscg = dynamic_cast<banded::StencilCgSolver*>(solver->complete());
    ASSERT_NE(gscg, nullptr);
    std::vector<double> x(b.size(), 0.0);
    const SolveStats st = solver->solve(b, x);
    ASSERT_TRUE(st.converged()) << spec;
    const long per_iteration = std::string(spec).find("classic") != std::string::npos ? 2 : 1;
    EXPECT_EQ(gscg->times().reductions, per_iteration * st.iterations + 3) << spec;
  }
  EXPECT_THROW(make_solver("cg_stencil(nx=6,ny=5,nz=4,reductions=2)"), Error);
}

TEST(Gscg, RefusesAMatrixThatIsNotTheStencilAtSetup) {
  auto solver = make_solver("cg_stencil(nx=5,ny=4,nz=3)");
  BsrMatrix a = test::poisson7(5, 4, 3);
  a.values[std::size_t(a.find_block(30, 30))] += 1.0;
  try {
    solver->setup(a);
    FAIL() << "accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("row 30"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace tb
