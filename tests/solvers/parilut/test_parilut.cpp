// ParILU and ParILUT (seed 003): candidates and residuals against dense
// products, ParILU against sequential ILU(0), the fill budget, and the quality
// claim of the paper's Fig. 10 (ParILUT beats ILU(0) in GMRES iterations).
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <limits>
#include <set>
#include <string>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "../../common/systems.hpp"
#include "solvers/core/error.hpp"
#include "solvers/factory/registry.hpp"
#include "solvers/matrix/anisotropic_diffusion.hpp"
#include "solvers/parilut/fixed_point.hpp"
#include "solvers/parilut/kernels.hpp"
#include "solvers/parilut/parilut.hpp"
#include "solvers/parilut/pattern_update.hpp"
#include "solvers/parilut/sample_select.hpp"
#include "solvers/parilut/step_rows.hpp"
#include "solvers/precond/bilu0.hpp"
#include "solvers/precond/kernels.hpp"

namespace tb::parilut {
namespace {

CsrMatrix small_anisotropic() {
  AnisotropicDiffusionParams p;
  p.nx = 9, p.ny = 7;
  return generate_anisotropic_diffusion(p);
}

CsrMatrix scalar_stencil(index_t nx, index_t ny, index_t nz) {
  Stencil7Params p;
  p.nx = nx, p.ny = ny, p.nz = nz, p.block_size = 1, p.seed = 4;
  return bsr_to_csr(generate_stencil7(p), true);
}

Eigen::MatrixXd dense(const CsrMatrix& a) {
  Eigen::MatrixXd m = Eigen::MatrixXd::Zero(a.rows, a.cols);
  for (index_t i = 0; i < a.rows; ++i)
    for (index_t p = a.row_ptr[i]; p < a.row_ptr[i + 1]; ++p) m(i, a.col_idx[p]) = a.values[p];
  return m;
}

std::set<std::pair<index_t, index_t>> pattern(const CsrMatrix& a) {
  std::set<std::pair<index_t, index_t>> s;
  for (index_t i = 0; i < a.rows; ++i)
    for (index_t p = a.row_ptr[i]; p < a.row_ptr[i + 1]; ++p) s.insert({i, a.col_idx[p]});
  return s;
}

// Factors with some fill already (one ParILUT step), so L U has entries
// outside A's pattern.
IluFactors grown_factors(const CsrMatrix& a) {
  ParilutOptions o;
  o.steps = 1, o.fill = 3.0, o.kernel = Kernel::ref;
  return parilut_factor(a, o);
}

TEST(Candidates, AreThePatternOfAPlusLUOutsideTheFactors) {
  const CsrMatrix a = small_anisotropic();
  IluFactors f = grown_factors(a);
  std::set<std::pair<index_t, index_t>> expected = pattern(a);
  for (index_t i = 0; i < a.rows; ++i)
    for (index_t p = f.l.row_ptr[i]; p < f.l.row_ptr[i + 1]; ++p) {
      const index_t k = f.l.col_idx[p];
      for (index_t q = f.u.row_ptr[k]; q < f.u.row_ptr[k + 1]; ++q) expected.insert({i, f.u.col_idx[q]});
    }
  for (const auto& e : pattern(f.l)) expected.erase(e);
  for (const auto& e : pattern(f.u)) expected.erase(e);
  ASSERT_FALSE(expected.empty());
  EXPECT_EQ(pattern(kernels::ref::find_candidates(a, f)), expected);
  EXPECT_EQ(pattern(kernels::omp::find_candidates(a, f)), expected);
}

TEST(Candidates, ResidualsEqualTheDenseILUResidual) {
  const CsrMatrix a = small_anisotropic();
  IluFactors f = grown_factors(a);
  CsrMatrix c = kernels::ref::find_candidates(a, f);
  kernels::ref::candidate_residuals(a, f, c);
  const Eigen::MatrixXd r = dense(a) - dense(f.l) * dense(f.u);
  for (index_t i = 0; i < c.rows; ++i)
    for (index_t p = c.row_ptr[i]; p < c.row_ptr[i + 1]; ++p)
      EXPECT_NEAR(c.values[p], r(i, c.col_idx[p]), 1e-13 * r.cwiseAbs().maxCoeff());
  CsrMatrix c_omp = kernels::omp::find_candidates(a, f);
  kernels::omp::candidate_residuals(a, f, c_omp);
  EXPECT_EQ(c_omp.values, c.values);
}

// ILU(0) by the sequential block ILU with 1 x 1 blocks, the project's reference.
IluFactors exact_ilu0(const CsrMatrix& a) {
  const BsrMatrix b = csr_to_bsr(a, 1);
  Bilu0Factors ref = bilu0_symbolic(b);
  precond::kernels::ref::bilu0_factor(b, ref);
  IluFactors f = initial_factors(a);  // the pattern; values from the reference
  for (index_t i = 0; i < a.rows; ++i) {
    for (index_t p = f.l.row_ptr[i]; p < f.l.row_ptr[i + 1] - 1; ++p)
      f.l.values[p] = *ref.block(ref.pattern.find_block(i, f.l.col_idx[p]));
    for (index_t p = f.u.row_ptr[i]; p < f.u.row_ptr[i + 1]; ++p) {
      const double v = *ref.block(ref.pattern.find_block(i, f.u.col_idx[p]));
      f.u.values[p] = f.u.col_idx[p] == i ? 1.0 / v : v;  // BILU(0) stores the inverted pivot
    }
  }
  return f;
}

double max_diff(const std::vector<double>& x, const std::vector<double>& y) { return test::max_abs_diff(x, y); }

TEST(ParILU, OneSequentialSweepIsTheExactILU0) {
  for (const CsrMatrix& a : {small_anisotropic(), scalar_stencil(6, 5, 4)}) {
    const IluFactors ref = exact_ilu0(a);
    const IluFactors f = parilu_factor(a, 1, Kernel::ref);
    EXPECT_LT(max_diff(f.l.values, ref.l.values), 1e-12 * test::max_abs(ref.l.values));
    EXPECT_LT(max_diff(f.u.values, ref.u.values), 1e-12 * test::max_abs(ref.u.values));
  }
}

TEST(ParILU, ParallelSweepsConvergeToILU0) {
#ifdef _OPENMP
  const int threads = omp_get_max_threads();
  omp_set_num_threads(std::max(2, threads));
#endif
  // Large enough that the OpenMP sweep runs threaded.
  const CsrMatrix a = scalar_stencil(24, 24, 8);
  const IluFactors ref = exact_ilu0(a);
  const IluFactors f = parilu_factor(a, 40, Kernel::omp);
  EXPECT_LT(max_diff(f.l.values, ref.l.values), 1e-10 * test::max_abs(ref.l.values));
  EXPECT_LT(max_diff(f.u.values, ref.u.values), 1e-10 * test::max_abs(ref.u.values));
#ifdef _OPENMP
  omp_set_num_threads(threads);
#endif
}

TEST(ParILUT, FillBudgetHolds) {
  const CsrMatrix a = small_anisotropic();
  const TriangleCounts t = triangle_counts(a);
  for (double fill : {1.0, 1.5, 2.0, 3.0})
    for (bool exact : {true, false}) {
      ParilutOptions o;
      o.fill = fill, o.steps = 4, o.exact_select = exact;
      std::vector<StepReport> report;
      const IluFactors f = parilut_factor(a, o, &report);
      const long long budget = (long long)(fill * t.strict_lower) + (long long)(fill * t.strict_upper);
      EXPECT_LE(f.off_diagonal_nnz(), budget) << "fill " << fill;
      for (const StepReport& r : report) {
        EXPECT_LE(r.nnz_after_remove, budget);
        if (exact && r.nnz_after_add >= budget) {
          EXPECT_EQ(r.nnz_after_remove, budget);  // exact selection drops exactly the excess
        }
      }
    }
}

// A NaN factor entry (an asynchronous sweep that overflowed) ranks above every
// threshold: the selection sees the largest double, the rule that drops
// nothing keeps it, and an exact removal keeps exactly the count it selected.
TEST(ParILUT, ANanEntryRanksAboveEveryThreshold) {
  const IluFactors f = [] {
    IluFactors g = grown_factors(small_anisotropic());
    // L's first off-diagonal entry (the first of a row that is not the diagonal).
    index_t i = 1;
    while (i < g.l.rows && g.l.col_idx[std::size_t(g.l.row_ptr[i])] == i) ++i;
    g.l.values[std::size_t(g.l.row_ptr[i])] = std::numeric_limits<double>::quiet_NaN();
    return g;
  }();
  const auto nans = [](const CsrMatrix& m) {
    return std::count_if(m.values.begin(), m.values.end(), [](double x) { return std::isnan(x); });
  };
  ASSERT_EQ(nans(f.l), 1);
  const std::vector<double> m = off_diagonal_magnitudes(f.l);
  EXPECT_EQ(std::count(m.begin(), m.end(), DBL_MAX), 1);

  IluFactors all = f;
  remove_small(all, {-1.0, 0}, {-1.0, 0});
  EXPECT_EQ(all.l.nnz(), f.l.nnz()) << "the rule that drops nothing";
  EXPECT_EQ(nans(all.l), 1);

  // L's five largest off-diagonal entries, the NaN among them.
  const long long excess = (long long)m.size() - 5;
  const Selection s = sample_select(m, std::size_t(excess - 1));
  IluFactors five = f;
  remove_small(five, {s.value, excess - (long long)s.below}, {-1.0, 0});
  EXPECT_EQ(five.l.nnz() - five.l.rows, 5);
  EXPECT_EQ(nans(five.l), 1);
}

// The step pipeline's row bodies (step_rows.hpp) rank a NaN alike.
TEST(ParILUT, ThePipelinesRowBodiesRankANanAboveEveryThreshold) {
  index_t ptr[2] = {0, 3}, col[3] = {0, 1, 2}, row[3] = {0, 0, 0};
  double val[3] = {2.0, std::numeric_limits<double>::quiet_NaN(), -0.5};
  const CsrView upper{ptr, col, val, row};
  double magnitudes[2] = {0.0, 0.0};
  for (index_t p = 0; p < 3; ++p) magnitude_entry(upper, false, p, magnitudes);
  EXPECT_EQ(magnitudes[0], DBL_MAX);
  EXPECT_EQ(magnitudes[1], 0.5);
  EXPECT_EQ(tie_row(upper, DBL_MAX, 0), 1);
  EXPECT_EQ(prune_row<false>(upper, -1.0, 0, 0, upper, 0), 3) << "the rule that drops nothing";
  EXPECT_EQ(prune_row<false>(upper, 1.0, 0, 0, upper, 0), 2) << "the diagonal and the NaN";
}

TEST(ParILUT, ResidualEstimateFallsOverTheSteps) {
  const CsrMatrix a = generate_anisotropic_diffusion({});
  ParilutOptions o;
  o.fill = 2.0, o.steps = 5;
  std::vector<StepReport> report;
  parilut_factor(a, o, &report);
  ASSERT_EQ(report.size(), 5u);
  EXPECT_LT(report.back().candidate_residual, 0.5 * report.front().candidate_residual);
}

int gmres_iterations(const BsrMatrix& a, const std::string& precond) {
  auto s = make_solver("gmres(restart=50,rtol=1e-10,maxit=2000)+" + precond);
  s->setup(a);
  const std::vector<double> b = test::sine_rhs(std::size_t(a.rows()));
  std::vector<double> x(b.size(), 0.0);
  const SolveStats st = s->solve(b, x);
  EXPECT_TRUE(st.converged()) << precond << ": " << st.line();
  return st.iterations;
}

// Seed 003 Fig. 10: on ANI5, GMRES with ParILUT needs fewer iterations than
// with ILU(0), with exact and approximate selection alike.
TEST(ParILUT, BeatsILU0OnANI5) {
  const BsrMatrix a = csr_to_bsr(generate_anisotropic_diffusion({}), 1);
  const int ilu0 = gmres_iterations(a, "parilu(sweeps=1,kernel=ref)");
  const int exact = gmres_iterations(a, "parilut(fill=2,steps=5,select=exact)");
  const int approx = gmres_iterations(a, "parilut(fill=2,steps=5,select=approx)");
  EXPECT_LT(exact, ilu0);
  EXPECT_LT(approx, ilu0);
  EXPECT_EQ(ilu0, gmres_iterations(a, "bilu0"));  // parilu(sweeps=1,kernel=ref) is ILU(0)
}

TEST(ParILUT, ZeroDiagonalNamesTheRow) {
  CsrMatrix a = small_anisotropic();
  a.values[std::size_t(find_entry(a, 20, 20))] = 0.0;
  try {
    parilut_factor(a, {});
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("row 20 has a zero diagonal"), std::string::npos) << e.what();
  }
}

TEST(ParILUT, RegistryRefusesBadParameters) {
  EXPECT_THROW(make_solver("gmres+parilut(select=fast)"), Error);
  EXPECT_THROW(make_solver("gmres+parilut(fill=0.5)")->setup(csr_to_bsr(small_anisotropic(), 1)), Error);
  EXPECT_THROW(make_solver("gmres+parilu(sweeps=0)")->setup(csr_to_bsr(small_anisotropic(), 1)), Error);
}

}  // namespace
}  // namespace tb::parilut
