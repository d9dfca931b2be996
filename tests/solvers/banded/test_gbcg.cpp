// GBCG (seed 004 Algorithm 1) against a direct solve, through the registry
// exactly as a miniapp calls it, and its stopping rules.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "../../common/systems.hpp"
#include "banded_systems.hpp"
#include "solvers/banded/complete_solvers.hpp"
#include "solvers/factory/registry.hpp"

namespace tb {
namespace {

double max_abs_residual(const BsrMatrix& a, const std::vector<double>& x, const std::vector<double>& b) {
  std::vector<double> ax(x.size());
  spmv_ref(a, x.data(), ax.data());
  double m = 0.0;
  for (std::size_t i = 0; i < x.size(); ++i) m = std::max(m, std::abs(b[i] - ax[i]));
  return m;
}

TEST(Gbcg, ReachesTheSparseLUSolutionOnConvectionDiffusion) {
  const BsrMatrix a = test::poisson7(6, 5, 4, false);
  const auto b = test::sine_rhs(std::size_t(a.rows()));
  const auto exact = test::direct_solve(a, b);
  auto solver = make_solver("bicgstab_dia(rtol=1e-11)");
  solver->setup(a);
  std::vector<double> x(b.size(), 0.0);
  const SolveStats st = solver->solve(b, x);
  ASSERT_TRUE(st.converged()) << st.line();
  EXPECT_EQ(st.reason, StopReason::converged_rtol);
  EXPECT_GT(st.iterations, 3);
  EXPECT_LT(test::max_abs_diff(x, exact), 1e-8 * test::max_abs(exact)) << st.line();
  EXPECT_NEAR(st.final_residual, residual_norm(a, x, b), 1e-12 * st.initial_residual);
  EXPECT_NEAR(st.initial_residual, residual_norm(a, std::vector<double>(b.size(), 0.0), b), 1e-12);
  EXPECT_EQ(st.residual_history.size(), std::size_t(st.iterations) + 1);
  EXPECT_EQ(st.solver, "bicgstab_dia(rtol=1e-11)");
}

TEST(Gbcg, RandomBandedSystemWithWideBand) {
  const BsrMatrix a = test::random_banded(300, {-40, -7, -1, 0, 1, 2, 25}, 9);
  const auto b = test::sine_rhs(300);
  const auto exact = test::direct_solve(a, b);
  auto solver = make_solver("bicgstab_dia(rtol=1e-12)");
  solver->setup(a);
  std::vector<double> x(b.size(), 0.0);
  const SolveStats st = solver->solve(b, x);
  ASSERT_TRUE(st.converged()) << st.line();
  EXPECT_LT(test::max_abs_diff(x, exact), 1e-9 * test::max_abs(exact));
}

TEST(Gbcg, MaxNormStoppingRuleOfAlgorithm1) {
  const BsrMatrix a = test::poisson7(8, 8, 8, false);
  const auto b = test::sine_rhs(std::size_t(a.rows()));
  auto solver = make_solver("bicgstab_dia(eps=1e-6,rtol=0)");
  solver->setup(a);
  std::vector<double> x(b.size(), 0.0);
  const SolveStats st = solver->solve(b, x);
  ASSERT_EQ(st.reason, StopReason::converged_atol) << st.line();
  EXPECT_EQ(st.detail, "||r||_max <= eps");
  // The recurrence residual stops at eps; the true one agrees to round-off.
  EXPECT_LE(max_abs_residual(a, x, b), 1e-6 * (1 + 1e-6));
  // One iteration less would not have met the rule: the solve did not stop late.
  auto fewer = make_solver("bicgstab_dia(eps=1e-6,rtol=0,maxit=" + std::to_string(st.iterations - 1) + ")");
  fewer->setup(a);
  std::vector<double> y(b.size(), 0.0);
  EXPECT_EQ(fewer->solve(b, y).reason, StopReason::max_iterations);
  EXPECT_GT(max_abs_residual(a, y, b), 1e-6);
}

TEST(Gbcg, UpdateTakesNewValuesOnTheSamePattern) {
  BsrMatrix a = test::poisson7(5, 4, 3, false);
  auto solver = make_solver("bicgstab_dia(rtol=1e-12)");
  solver->setup(a);
  for (double& v : a.values) v *= 3.0;
  solver->update(a);
  const auto b = test::sine_rhs(std::size_t(a.rows()));
  std::vector<double> x(b.size(), 0.0);
  ASSERT_TRUE(solver->solve(b, x).converged());
  EXPECT_LT(test::max_abs_diff(x, test::direct_solve(a, b)), 1e-9);
}

TEST(Gbcg, ExactHalfStepIsConvergenceNotBreakdown) {
  // With K = diag(A) = A, s = 0 after the first half step and t = A K^{-1} s = 0.
  const BsrMatrix a = test::random_banded(9, {0}, 1);
  const auto b = test::sine_rhs(9);
  auto solver = make_solver("bicgstab_dia(rtol=1e-12)");
  solver->setup(a);
  std::vector<double> x(9, 0.0);
  const SolveStats st = solver->solve(b, x);
  EXPECT_TRUE(st.converged()) << st.line();
  EXPECT_EQ(st.iterations, 1);
  for (std::size_t i = 0; i < 9; ++i) EXPECT_NEAR(x[i], b[i] / a.values[i], 1e-15 * std::abs(x[i]));
}

TEST(Gbcg, UpdateWithAnotherPatternIsRefused) {
  auto solver = make_solver("bicgstab_dia");
  solver->setup(test::random_banded(20, {-2, 0, 1}, 1));
  EXPECT_THROW(solver->update(test::random_banded(20, {-3, 0, 1}, 1)), Error);
  EXPECT_NO_THROW(solver->update(test::random_banded(20, {-2, 0, 1}, 2)));
}

TEST(Gbcg, ZeroDiagonalIsAClearErrorNamingTheRow) {
  BsrMatrix a = test::random_banded(12, {-1, 0, 1}, 3);
  a.values[std::size_t(a.find_block(7, 7))] = 0.0;
  auto solver = make_solver("bicgstab_dia");
  try {
    solver->setup(a);
    FAIL() << "zero diagonal accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("row 7"), std::string::npos) << e.what();
  }
}

TEST(Gbcg, NonFiniteRightHandSideIsReportedNotIterated) {
  const BsrMatrix a = test::poisson7(3, 3, 3, false);
  auto solver = make_solver("bicgstab_dia");
  solver->setup(a);
  std::vector<double> b(27, 1.0), x(27, 0.0);
  b[4] = std::nan("");
  EXPECT_EQ(solver->solve(b, x).reason, StopReason::non_finite);
}

TEST(Gbcg, GlobalReductionsPerIterationOfEachVariant) {
  // The reductions are counted through a VectorSpace that counts its calls.
  struct Counting final : VectorSpace {
    void reduce(double*, int, double*, int) const override { ++calls; }
    mutable int calls = 0;
  };
  struct CountingGroup final : comm::Communicator {
    const VectorSpace& space() const override { return counting; }
    Counting counting;
  };
  const BsrMatrix a = test::poisson7(6, 6, 6, false);
  const auto b = test::sine_rhs(216);
  banded::BandedStop stop;
  stop.krylov.rtol = 1e-10;
  SolveStats st[2];
  int calls[2];
  for (const auto variant : {banded::GbcgVariant::classic, banded::GbcgVariant::one_reduction}) {
    const int k = variant == banded::GbcgVariant::classic ? 0 : 1;
    auto group = std::make_shared<CountingGroup>();
    banded::DiaBicgstabSolver s(stop, Backend::host, group, 0.0, variant);
    s.setup(a);
    std::vector<double> x(216, 0.0);
    st[k] = s.solve(b, x);
    ASSERT_TRUE(st[k].converged()) << st[k].line();
    calls[k] = group->counting.calls;
    EXPECT_EQ(s.times().reductions, calls[k]);
  }
  // Initial residual norm, the first fused box, 3 per iteration, the final residual.
  EXPECT_EQ(calls[0], 1 + 1 + 3 * st[0].iterations + 1);
  // One per iteration, plus the one that tests the last iterate (Algorithm 1
  // tests r_{i-1} at the top of iteration i).
  EXPECT_EQ(calls[1], 1 + 1 + st[1].iterations + 1 + 1);
  EXPECT_EQ(st[0].iterations, st[1].iterations);
}

TEST(Gbcg, OneReductionVariantGivesTheClassicIterates) {
  for (const bool wide : {false, true}) {
    SCOPED_TRACE(wide ? "random banded, sparse remainder" : "convection-diffusion");
    const BsrMatrix a = wide ? test::banded_with_sparse_diagonals(300, {-20, -1, 0, 1, 20}, {-97, 53}, 7, 4)
                             : test::poisson7(9, 8, 7, false);
    const auto b = test::sine_rhs(std::size_t(a.rows()));
    auto one = make_solver("bicgstab_dia(rtol=1e-12)");
    auto classic = make_solver("bicgstab_dia(rtol=1e-12,reductions=classic)");
    one->setup(a);
    classic->setup(a);
    std::vector<double> x1(b.size(), 0.0), x2(b.size(), 0.0);
    const SolveStats s1 = one->solve(b, x1), s2 = classic->solve(b, x2);
    ASSERT_TRUE(s1.converged() && s2.converged()) << s1.line() << s2.line();
    EXPECT_NEAR(s1.iterations, s2.iterations, 1);
    const int common = std::min(s1.iterations, s2.iterations);
    for (int i = 0; i <= common; ++i)
      EXPECT_NEAR(s1.residual_history[std::size_t(i)], s2.residual_history[std::size_t(i)],
                  1e-5 * s2.residual_history[std::size_t(i)])
          << "iteration " << i;
    EXPECT_LT(test::max_abs_diff(x1, x2), 1e-10 * test::max_abs(x2));
  }
}

TEST(Gbcg, OneReductionVariantFollowsUpdates) {
  BsrMatrix a = test::poisson7(6, 5, 4, false);
  auto solver = make_solver("bicgstab_dia(rtol=1e-12,min_fill=0.5)");
  solver->setup(a);
  for (std::size_t k = 0; k < a.values.size(); ++k) a.values[k] *= 1.0 + 0.3 * std::sin(double(k));
  solver->update(a);
  const auto b = test::sine_rhs(std::size_t(a.rows()));
  std::vector<double> x(b.size(), 0.0);
  ASSERT_TRUE(solver->solve(b, x).converged());
  EXPECT_LT(test::max_abs_diff(x, test::direct_solve(a, b)), 1e-9 * test::max_abs(x));
}

}  // namespace
}  // namespace tb
