// Every Krylov method against a direct solution (Eigen's SparseLU) on generated
// SPD and non-symmetric block systems, and the stopping reasons.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <memory>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "../../common/systems.hpp"
#include "solvers/factory/registry.hpp"
#include "solvers/krylov/krylov_method.hpp"
#include "solvers/matrix/bsr_operator.hpp"

namespace tb {
namespace {

struct Case {
  const char* spec;
  bool symmetric;
  index_t block_size;
};

// The case as ctest lists it ("cg_rtol_1e_10__jacobi_spd_n4"); without this
// GoogleTest prints the struct's bytes, a string pointer among them, so the
// listed names changed from build to build.
void PrintTo(const Case& c, std::ostream* os) {
  std::string name = c.spec;
  for (char& ch : name)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  *os << name << (c.symmetric ? "_spd" : "_nonsymmetric") << "_n" << c.block_size;
}

class KrylovAgainstDirect : public ::testing::TestWithParam<Case> {};

TEST_P(KrylovAgainstDirect, ReachesSparseLUSolution) {
  const Case c = GetParam();
  Stencil7Params p;
  p.nx = 6, p.ny = 5, p.nz = 4, p.block_size = c.block_size, p.symmetric = c.symmetric, p.seed = 7;
  const BsrMatrix a = generate_stencil7(p);
  const auto b = test::sine_rhs(std::size_t(a.rows()));
  const auto exact = test::direct_solve(a, b);

  auto solver = make_solver(c.spec);
  solver->setup(a);
  std::vector<double> x(b.size(), 0.0);
  const SolveStats st = solver->solve(b, x);
  ASSERT_TRUE(st.converged()) << st.line();
  EXPECT_GT(st.iterations, 0);
  EXPECT_LT(test::max_abs_diff(x, exact), 1e-7 * test::max_abs(exact)) << st.line();
  // The reported residual is the true one.
  EXPECT_NEAR(st.final_residual, residual_norm(a, x, b), 1e-12 * st.initial_residual);
  EXPECT_LE(st.final_residual, 1e-9 * st.initial_residual * 10);
  ASSERT_EQ(st.residual_history.size(), std::size_t(st.iterations) + 1);
}

INSTANTIATE_TEST_SUITE_P(
    Methods, KrylovAgainstDirect,
    ::testing::Values(Case{"cg(rtol=1e-10)", true, 3}, Case{"cg(rtol=1e-10)+jacobi", true, 4},
                      Case{"cg(rtol=1e-10)+block_jacobi", true, 5}, Case{"cg(rtol=1e-10)+bilu0", true, 1},
                      Case{"bicgstab(rtol=1e-10)", false, 3}, Case{"bicgstab(rtol=1e-10)+jacobi", false, 4},
                      Case{"bicgstab(rtol=1e-10)+bilu0", false, 5}, Case{"gmres(rtol=1e-10,restart=10)", false, 2},
                      Case{"gmres(rtol=1e-10,restart=10,orthog=mgs)", false, 2},
                      Case{"gmres(rtol=1e-10,restart=7,orthog=cgs2)+jacobi", false, 3},
                      Case{"fgmres(rtol=1e-10,restart=9,orthog=mgs)+bilu0", false, 5},
                      Case{"gmres(rtol=1e-10,restart=30)+bilu0", false, 4},
                      Case{"gmres(rtol=1e-10,restart=5)+block_jacobi", false, 6},
                      Case{"fgmres(rtol=1e-10)+bilu0", false, 4}, Case{"fgmres(rtol=1e-10,restart=4)+jacobi", false, 3},
                      Case{"richardson(rtol=1e-10,maxit=500)+bilu0", false, 4},
                      Case{"richardson(rtol=1e-10,maxit=2000)+block_jacobi", false, 2}));

BsrMatrix small_system(bool symmetric = false) {
  Stencil7Params p;
  p.nx = 5, p.ny = 4, p.nz = 3, p.block_size = 3, p.symmetric = symmetric;
  return generate_stencil7(p);
}

// A matrix on the host with the sine right-hand side and a zero initial
// guess, for the methods called directly (not through a LinearSolver).
struct HostProblem {
  explicit HostProblem(const BsrMatrix& m)
      : a(m),
        op(a, Backend::host),
        b(Backend::host, test::sine_rhs(std::size_t(a.rows()))),
        x(Backend::host, std::size_t(a.rows())) {
    x.set_zero();
  }
  BsrMatrix a;
  BsrOperator op;
  Vector b, x;
};

StopCriteria stop_at(double rtol, int maxit) {
  StopCriteria stop;
  stop.rtol = rtol;
  stop.maxit = maxit;
  return stop;
}

TEST(KrylovStop, IterationLimitIsNotConvergence) {
  const BsrMatrix a = small_system();
  auto solver = make_solver("gmres(maxit=3,rtol=1e-12)");
  solver->setup(a);
  const auto b = test::sine_rhs(std::size_t(a.rows()));
  std::vector<double> x(b.size(), 0.0);
  const SolveStats st = solver->solve(b, x);
  EXPECT_EQ(st.reason, StopReason::max_iterations);
  EXPECT_FALSE(st.converged());
  EXPECT_EQ(st.iterations, 3);
}

// The autopilot's cut on a probe (SolveLimit), on a solver set up on a: an
// iteration or seconds limit below its own stops the next solves early;
// lifted (`lift`: {} or one no lower than its maxit), the same solve converges
// in the iterations it took before.
void expect_limit_stops_until_lifted(LinearSolver& solver, const BsrMatrix& a, SolveLimit lift) {
  const auto b = test::sine_rhs(std::size_t(a.rows()));
  solver.setup(a);
  std::vector<double> x(b.size(), 0.0);
  const int full = solver.solve(b, x).iterations;
  ASSERT_GT(full, 3);
  EXPECT_TRUE(solver.limit({2, 0.0}));
  std::fill(x.begin(), x.end(), 0.0);
  SolveStats st = solver.solve(b, x);
  EXPECT_EQ(st.reason, StopReason::max_iterations);
  EXPECT_EQ(st.iterations, 2);
  EXPECT_TRUE(solver.limit({0, 1e-12}));  // spent before the first check: one iteration
  std::fill(x.begin(), x.end(), 0.0);
  st = solver.solve(b, x);
  EXPECT_EQ(st.reason, StopReason::max_iterations);
  EXPECT_EQ(st.iterations, 1);
  EXPECT_FALSE(solver.limit(lift));
  std::fill(x.begin(), x.end(), 0.0);
  st = solver.solve(b, x);
  EXPECT_TRUE(st.converged());
  EXPECT_EQ(st.iterations, full);
}

TEST(KrylovStop, ALimitStopsTheSolvesUntilLifted) {
  for (const char* spec : {"gmres(rtol=1e-12)", "gmres(rtol=1e-12)+jacobi", "bicgstab(rtol=1e-12)"}) {
    SCOPED_TRACE(spec);
    expect_limit_stops_until_lifted(*make_solver(spec), small_system(), {});
  }
  auto at_maxit = make_solver("gmres(maxit=5)");
  EXPECT_FALSE(at_maxit->limit({5, 0.0}));  // no lower than the method's own
  EXPECT_EQ(at_maxit->max_iterations(), 5);
}

// Seed 004's complete solvers take the same limits (the autopilot's start-up
// race cuts a blind bicgstab_dia in charge as it cuts a Krylov method).
TEST(KrylovStop, ACompleteSolverTakesTheLimitToo) {
  Stencil7Params p;  // the banded solvers take scalar matrices
  p.nx = 8, p.ny = 6, p.nz = 5, p.block_size = 1;
  auto solver = make_solver("bicgstab_dia(rtol=1e-12,maxit=400)");
  EXPECT_EQ(solver->max_iterations(), 400);
  expect_limit_stops_until_lifted(*solver, generate_stencil7(p), {400, 0.0});  // no lower than its own maxit
}

TEST(KrylovStop, NonFiniteRightHandSide) {
  const BsrMatrix a = small_system();
  auto solver = make_solver("bicgstab+jacobi");
  solver->setup(a);
  auto b = test::sine_rhs(std::size_t(a.rows()));
  b[5] = std::numeric_limits<double>::quiet_NaN();
  std::vector<double> x(b.size(), 0.0);
  EXPECT_EQ(solver->solve(b, x).reason, StopReason::non_finite);
}

TEST(KrylovStop, NonFiniteMatrixValueIsReported) {
  BsrMatrix a = small_system();
  a.values[a.values.size() / 2 + 1] = std::numeric_limits<double>::infinity();
  auto solver = make_solver("gmres");
  solver->setup(a);
  const auto b = test::sine_rhs(std::size_t(a.rows()));
  std::vector<double> x(b.size(), 0.0);
  const SolveStats st = solver->solve(b, x);
  EXPECT_EQ(st.reason, StopReason::non_finite) << st.line();
}

TEST(KrylovStop, CgOnIndefiniteMatrixBreaksDown) {
  BsrMatrix a = small_system(true);
  for (double& v : a.values) v = -v;  // negative definite: p'Ap < 0 at once
  auto solver = make_solver("cg");
  solver->setup(a);
  const auto b = test::sine_rhs(std::size_t(a.rows()));
  std::vector<double> x(b.size(), 0.0);
  const SolveStats st = solver->solve(b, x);
  EXPECT_EQ(st.reason, StopReason::breakdown);
  EXPECT_NE(st.detail.find("positive definite"), std::string::npos);
}

TEST(KrylovStop, ZeroRightHandSideConvergesAtOnce) {
  const BsrMatrix a = small_system();
  auto solver = make_solver("bicgstab");
  solver->setup(a);
  std::vector<double> b(std::size_t(a.rows()), 0.0), x(b.size(), 0.0);
  const SolveStats st = solver->solve(b, x);
  EXPECT_TRUE(st.converged());
  EXPECT_EQ(st.iterations, 0);
}

TEST(KrylovStop, RichardsonDivergesWithTooLargeDamping) {
  // omega >= 2 is refused when the solver is made; 1.9 still exceeds 2 / lambda_max of the
  // block-Jacobi-preconditioned stencil here, so the iteration grows.
  const BsrMatrix a = small_system();
  auto solver = make_solver("richardson(omega=1.9,maxit=500)+block_jacobi");
  solver->setup(a);
  const auto b = test::sine_rhs(std::size_t(a.rows()));
  std::vector<double> x(b.size(), 0.0);
  const SolveStats st = solver->solve(b, x);
  EXPECT_EQ(st.reason, StopReason::diverged) << st.line();
}

TEST(KrylovStop, StagnationEndsGmresOnSkewSymmetricMatrix) {
  // For skew-symmetric A, (r, A r) = 0: GMRES(1) makes no progress at all.
  const BsrMatrix a = test::skew_symmetric_blocks();
  auto solver = make_solver("gmres(restart=1,maxit=5000,stagnation=20)");
  solver->setup(a);
  const auto b = test::sine_rhs(std::size_t(a.rows()));
  std::vector<double> x(b.size(), 0.0);
  const SolveStats st = solver->solve(b, x);
  EXPECT_EQ(st.reason, StopReason::stagnation) << st.line();
  EXPECT_EQ(st.iterations, 20);
}

// A preconditioner that returns zero (an inner solve that gave up, say) makes
// a zero column of the Hessenberg matrix: GMRES must stop on a breakdown with
// x as it was, not report its residual estimate as zero.
TEST(KrylovStop, FgmresWithAZeroPreconditionerBreaksDownWithoutClaimingConvergence) {
  struct Zero final : Preconditioner {
    void setup(const BsrMatrix&, Backend) override {}
    void update(const BsrMatrix&) override {}
    void apply(const Vector&, Vector& z) const override { z.set_zero(); }
    bool supports(Backend b) const override { return b == Backend::host; }
  };
  HostProblem h(small_system());
  auto fgmres = make_gmres(stop_at(1e-6, 50), 10, /*flexible=*/true);
  const SolveStats st = fgmres->solve(h.op, Zero{}, h.b, h.x);
  EXPECT_EQ(st.reason, StopReason::breakdown) << st.line();
  EXPECT_EQ(st.iterations, 1);
  for (double v : h.x.host_span()) EXPECT_EQ(v, 0.0);
}

TEST(Gmres, OrthogonalizationsGiveTheSameIterates) {
  // In exact arithmetic the three Gram-Schmidt variants build the same basis;
  // on a small well-conditioned system their histories agree closely.
  const BsrMatrix a = small_system();
  const auto b = test::sine_rhs(std::size_t(a.rows()));
  std::vector<std::vector<double>> histories;
  for (const char* o : {"cgs", "cgsp", "cgs2", "mgs"}) {
    auto solver = make_solver(std::string("gmres(rtol=1e-10,restart=8,orthog=") + o + ")+jacobi");
    solver->setup(a);
    std::vector<double> x(b.size(), 0.0);
    histories.push_back(solver->solve(b, x).residual_history);
  }
  for (std::size_t v = 1; v < histories.size(); ++v) {
    ASSERT_EQ(histories[v].size(), histories[0].size());
    for (std::size_t i = 0; i < histories[0].size(); ++i)
      EXPECT_NEAR(histories[v][i], histories[0][i], 1e-9 * histories[0][0]) << "iteration " << i;
  }
}

// A vector space that counts its reductions (each one MPI_Allreduce on ranks;
// norm2 is sqrt(dot), counted there).
struct CountingSpace final : VectorSpace {
  mutable int reductions = 0;
  double dot(const Vector& x, const Vector& y) const override { return ++reductions, VectorSpace::dot(x, y); }
  void multi_dot(const Vector* const* v, int k, const Vector& w, double* out) const override {
    ++reductions;
    VectorSpace::multi_dot(v, k, w, out);
  }
};

struct CountedSolve {
  SolveStats stats;
  int reductions = 0;
  std::vector<double> x;
};

CountedSolve gmres_counted(const BsrMatrix& a, Orthogonalization o, int restart) {
  HostProblem h(a);
  auto gmres = make_gmres(stop_at(1e-10, 200), restart, /*flexible=*/true, o);
  CountingSpace space;
  gmres->set_vector_space(&space);
  struct Identity final : Preconditioner {
    void setup(const BsrMatrix&, Backend) override {}
    void update(const BsrMatrix&) override {}
    void apply(const Vector& r, Vector& z) const override { z.copy_from(r); }
    bool supports(Backend b) const override { return b == Backend::host; }
  };
  CountedSolve out;
  out.stats = gmres->solve(h.op, Identity{}, h.b, h.x);
  out.reductions = space.reductions;
  out.x.assign(h.x.host_span().begin(), h.x.host_span().end());
  return out;
}

// CGS-P takes the new vector's norm from its projections' reduction: one
// reduction an iteration where CGS takes two, and the same iterates.
TEST(Gmres, PythagoreanNormSavesAReductionAnIteration) {
  const BsrMatrix a = small_system();
  const CountedSolve cgs = gmres_counted(a, Orthogonalization::cgs, 6);
  const CountedSolve cgsp = gmres_counted(a, Orthogonalization::cgsp, 6);
  ASSERT_TRUE(cgs.stats.converged()) << cgs.stats.line();
  ASSERT_EQ(cgsp.stats.iterations, cgs.stats.iterations);
  const int its = cgs.stats.iterations, cycles = (its + 5) / 6;
  // r0's norm, one per restart, and per iteration two (CGS) or one (CGS-P).
  EXPECT_EQ(cgs.reductions, 1 + (cycles - 1) + 2 * its);
  EXPECT_EQ(cgsp.reductions, 1 + (cycles - 1) + its);
  EXPECT_LT(test::max_abs_diff(cgsp.x, cgs.x), 1e-9 * test::max_abs(cgs.x));
  EXPECT_LE(residual_norm(a, cgsp.x, test::sine_rhs(std::size_t(a.rows()))), 1e-9 * cgsp.stats.initial_residual);
}

// Where the Krylov space closes (three distinct eigenvalues: exact in three
// iterations) the new vector lies in the basis, |av|^2 - |h|^2 is rounding
// and may be negative: CGS-P then takes the norm from the vector itself.
TEST(Gmres, PythagoreanNormFallsBackWhereTheVectorLiesInTheBasis) {
  const BsrMatrix a = test::three_eigenvalues(small_system(true));
  const CountedSolve cgs = gmres_counted(a, Orthogonalization::cgs, 10);
  const CountedSolve cgsp = gmres_counted(a, Orthogonalization::cgsp, 10);
  ASSERT_TRUE(cgsp.stats.converged()) << cgsp.stats.line();
  EXPECT_EQ(cgsp.stats.iterations, cgs.stats.iterations);
  EXPECT_LE(cgsp.stats.iterations, 3);
  EXPECT_LE(residual_norm(a, cgsp.x, test::sine_rhs(std::size_t(a.rows()))), 1e-9 * cgsp.stats.initial_residual);
}

// Methods that take turns may share their scratch vectors (the autopilot's
// candidates): each solve gives bit for bit what it gives with its own, and
// the shared workspace holds the union of their slots, not the sum: FGMRES(12)'s
// 27 (r, w, 13 basis vectors, 12 directions) and GMRES's z, against 27 + 10 +
// 8 + 2 held apart.
TEST(KrylovWorkspace, MethodsTakingTurnsShareItAndSolveAsAlone) {
  const BsrMatrix a = small_system();
  const auto b = test::sine_rhs(std::size_t(a.rows()));
  const std::vector<std::string> specs = {"fgmres(rtol=1e-10,restart=12)+bilu0", "gmres(rtol=1e-10,restart=6)+jacobi",
                                          "bicgstab(rtol=1e-10)+bilu0", "richardson(rtol=1e-6,maxit=500)+bilu0"};
  std::vector<std::vector<double>> alone;
  std::size_t largest = 0, sum = 0;
  for (const auto& spec : specs) {
    auto solver = make_solver(spec);
    solver->setup(a);
    alone.emplace_back(b.size(), 0.0);
    ASSERT_TRUE(solver->solve(b, alone.back()).converged()) << spec;
    largest = std::max(largest, solver->method().workspace().size());
    sum += solver->method().workspace().size();
  }
  const auto shared = std::make_shared<KrylovWorkspace>();
  std::vector<std::unique_ptr<LinearSolver>> solvers;
  for (const auto& spec : specs) {
    solvers.push_back(make_solver(spec));
    solvers.back()->method().share_workspace(shared);  // before the set-up, which reserves the vectors
    solvers.back()->setup(a);
  }
  for (int round = 0; round < 2; ++round)  // in turns, twice: what one left in the vectors changes nothing
    for (std::size_t k = 0; k < specs.size(); ++k) {
      std::vector<double> x(b.size(), 0.0);
      ASSERT_TRUE(solvers[k]->solve(b, x).converged()) << specs[k];
      EXPECT_EQ(x, alone[k]) << specs[k] << ", round " << round;
    }
  EXPECT_EQ(largest, 27u);
  EXPECT_EQ(sum, 47u);
  EXPECT_EQ(shared->size(), 28u);
  EXPECT_EQ(shared->bytes(), 28 * b.size() * sizeof(double));
}

// The set-up reserves the vectors a solve uses (work_indices), no more: a
// solve that runs whole cycles, restarts and its iteration limit adds none.
// GMRES: r, w, z and a basis of min(restart, maxit) + 1; FGMRES: no z, and
// as many directions as basis vectors but one.
TEST(KrylovWorkspace, TheSetUpReservesWhatTheSolvesUse) {
  const BsrMatrix a = small_system(true);
  const auto b = test::sine_rhs(std::size_t(a.rows()));
  const std::pair<const char*, std::size_t> cases[] = {{"gmres(rtol=1e-14,restart=4,maxit=11)+jacobi", 8},
                                                       {"fgmres(rtol=1e-14,restart=4,maxit=11)+jacobi", 11},
                                                       {"gmres(rtol=1e-14,restart=30,maxit=3)", 7},
                                                       {"fgmres(rtol=1e-14,restart=30,maxit=3)+bilu0", 9},
                                                       {"cg(rtol=1e-14,maxit=7)+jacobi", 4},
                                                       {"bicgstab(rtol=1e-14,maxit=7)+jacobi", 8},
                                                       {"richardson(rtol=1e-14,maxit=7)+bilu0", 2}};
  for (const auto& [spec, vectors] : cases) {
    SCOPED_TRACE(spec);
    auto solver = make_solver(spec);
    solver->setup(a);
    EXPECT_EQ(solver->method().workspace().size(), vectors);
    std::vector<double> x(b.size(), 0.0);
    EXPECT_EQ(solver->solve(b, x).reason, StopReason::max_iterations);  // every slot in use
    EXPECT_EQ(solver->method().workspace().size(), vectors);
  }
}

TEST(LinearSolver, UpdateReusesPatternAndTracksValues) {
  BsrMatrix a = small_system();
  auto solver = make_solver("gmres(rtol=1e-12)+bilu0");
  solver->setup(a);
  for (double& v : a.values) v *= 2.0;  // A -> 2A, so x -> x / 2
  solver->update(a);
  const auto b = test::sine_rhs(std::size_t(a.rows()));
  std::vector<double> x(b.size(), 0.0);
  ASSERT_TRUE(solver->solve(b, x).converged());
  EXPECT_LT(test::max_abs_diff(x, test::direct_solve(a, b)), 1e-9);
}

TEST(LinearSolver, UpdateWithNewPatternIsRefused) {
  const BsrMatrix a = small_system();
  auto solver = make_solver("gmres+bilu0");
  solver->setup(a);
  Stencil7Params p;
  p.nx = 4;
  EXPECT_THROW(solver->update(generate_stencil7(p)), Error);
}

TEST(LinearSolver, StatsAsLineAndJson) {
  const BsrMatrix a = small_system();
  auto solver = make_solver("fgmres(restart=10)+bilu0");
  solver->setup(a);
  const auto b = test::sine_rhs(std::size_t(a.rows()));
  std::vector<double> x(b.size(), 0.0);
  const SolveStats st = solver->solve(b, x);
  EXPECT_NE(st.line().find("fgmres(restart=10)+bilu0: converged_rtol"), std::string::npos) << st.line();
  const std::string js = st.json();
  EXPECT_NE(js.find("\"reason\": \"converged_rtol\""), std::string::npos);
  EXPECT_NE(js.find("\"residual_history\": ["), std::string::npos);
  EXPECT_NE(js.find("\"iterations\": " + std::to_string(st.iterations)), std::string::npos);
  EXPECT_NE(js.find("\"final_residual_recomputed\": true"), std::string::npos);
}

// Without the recomputation the final residual is the method's last estimate,
// said in the stats; with it, the true ||b - A x||, which for GMRES's
// estimate agrees to rounding but is not the same number. The iterates are
// the same either way.
TEST(LinearSolver, AFinalResidualNotRecomputedIsTheMethodsEstimate) {
  const BsrMatrix a = small_system();
  const auto b = test::sine_rhs(std::size_t(a.rows()));
  std::vector<std::vector<double>> xs;
  std::vector<SolveStats> stats;
  for (const bool recompute : {true, false}) {
    auto solver = make_solver("fgmres(rtol=1e-8,restart=10)+jacobi");
    solver->setup(a);
    solver->recompute_final_residual(recompute);
    std::vector<double> x(b.size(), 0.0);
    stats.push_back(solver->solve(b, x));
    xs.push_back(x);
  }
  const SolveStats &recomputed = stats[0], &estimated = stats[1];
  ASSERT_TRUE(recomputed.converged() && estimated.converged());
  EXPECT_EQ(xs[0], xs[1]);
  EXPECT_TRUE(recomputed.final_recomputed);
  EXPECT_FALSE(estimated.final_recomputed);
  EXPECT_EQ(estimated.final_residual, estimated.residual_history.back());
  EXPECT_NE(recomputed.final_residual, recomputed.residual_history.back());
  EXPECT_NEAR(recomputed.final_residual, estimated.final_residual, 1e-6 * recomputed.initial_residual);
  std::vector<double> true_r(b.size());
  spmv_ref(a, xs[0].data(), true_r.data());
  double sq = 0.0;
  for (std::size_t i = 0; i < b.size(); ++i) sq += (b[i] - true_r[i]) * (b[i] - true_r[i]);
  EXPECT_NEAR(recomputed.final_residual, std::sqrt(sq), 1e-12 * recomputed.initial_residual);
  EXPECT_NE(estimated.line().find("the method's estimate"), std::string::npos) << estimated.line();
  EXPECT_NE(estimated.json().find("\"final_residual_recomputed\": false"), std::string::npos);
}

}  // namespace
}  // namespace tb

namespace tb {
namespace {

// SolveStats counts the preconditioner's applications as the method makes
// them: CG one an iteration (the first before the loop, none after the last
// check), BiCGStab two (one on a last half step); no device launch on the host.
TEST(SolveCounts, PreconditionerApplicationsPerIteration) {
  Stencil7Params p;
  p.nx = 6, p.ny = 5, p.nz = 4, p.block_size = 2, p.symmetric = true, p.seed = 7;
  const BsrMatrix a = generate_stencil7(p);
  const auto b = test::sine_rhs(std::size_t(a.rows()));
  for (const char* spec : {"cg(rtol=1e-10)+jacobi", "bicgstab(rtol=1e-10)+jacobi"}) {
    auto solver = make_solver(spec);
    solver->setup(a);
    std::vector<double> x(b.size(), 0.0);
    const SolveStats st = solver->solve(b, x);
    ASSERT_TRUE(st.converged()) << st.line();
    if (std::string(spec).starts_with("cg"))
      EXPECT_EQ(st.preconditioner_applications, st.iterations) << spec;
    else
      EXPECT_TRUE(st.preconditioner_applications == 2L * st.iterations ||
                  st.preconditioner_applications == 2L * st.iterations - 1)
          << spec << ": " << st.preconditioner_applications << " applications in " << st.iterations << " iterations";
    EXPECT_EQ(st.device_launches, 0) << spec;
    EXPECT_EQ(st.preconditioner_launches, 0) << spec;
    EXPECT_NE(st.json().find("\"preconditioner_applications\": " + std::to_string(st.preconditioner_applications)),
              std::string::npos)
        << st.json();
  }
}

}  // namespace
}  // namespace tb
