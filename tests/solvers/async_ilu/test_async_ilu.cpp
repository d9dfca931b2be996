// The asynchronous (block) ILU(0) against the sequential BILU(0) of
// solvers/precond: exact equality with one thread (seed 001, section 6),
// convergence to the exact factors with sweeps (Fig. 5), exact block-triangular
// solves after n/b Jacobi sweeps (Thm. 3), bitwise reproducibility of the
// synchronous schedule, singular pivots reported by block row, and the
// refresh from values on the backend (factor_in_place) against the refresh
// from a host matrix, bit for bit.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "../../common/bits.hpp"
#include "solvers/async_ilu/async_ilu.hpp"
#include "solvers/async_ilu/factor_pattern.hpp"
#include "solvers/async_ilu/kernels.hpp"
#include "solvers/async_ilu/scalar_pattern.hpp"
#include "solvers/core/error.hpp"
#include "solvers/matrix/generate.hpp"
#include "solvers/precond/bilu0.hpp"
#include "solvers/precond/kernels.hpp"
#include "thread_count.hpp"

namespace tb {
namespace {

using async_ilu::AsyncIlu;
using async_ilu::Options;
using async_ilu::Schedule;

BsrMatrix small_system(index_t b, unsigned seed = 3) {
  Stencil7Params p;
  p.nx = 5, p.ny = 4, p.nz = 3, p.block_size = b, p.seed = seed;
  return generate_stencil7(p);
}

std::vector<double> random_vector(std::size_t n, unsigned seed) {
  std::mt19937_64 g(seed);
  std::uniform_real_distribution<double> d(-1.0, 1.0);
  std::vector<double> v(n);
  for (double& x : v) x = d(g);
  return v;
}

// The exact BILU(0) of the working pattern: A's for the block variant, the
// scalar expansion for the scalar one (BILU(0) with b = 1 is scalar ILU(0)).
Bilu0Factors exact_factors(const AsyncIlu& ilu) {
  Bilu0Factors f = bilu0_symbolic(ilu.pattern());
  precond::kernels::ref::bilu0_factor(ilu.pattern(), f);
  return f;
}

// Compares L, the off-diagonal U blocks and U_ii^{-1} with BILU(0); returns
// the largest difference (0 means bitwise equal).
double max_difference(const AsyncIlu& ilu, const Bilu0Factors& exact) {
  const BsrMatrix& p = ilu.pattern();
  const std::vector<double> lu = ilu.lu_values();
  const std::vector<double> dinv = ilu.dinv_values();
  const std::vector<index_t> diag = p.diagonal_positions();
  const index_t nb = p.block_entries();
  double worst = 0.0;
  for (index_t i = 0; i < p.block_rows; ++i)
    for (index_t k = p.row_ptr[i]; k < p.row_ptr[i + 1]; ++k)
      for (index_t e = 0; e < nb; ++e) {
        const double mine = k == diag[std::size_t(i)] ? dinv[std::size_t(i * nb + e)] : lu[std::size_t(k * nb + e)];
        worst = std::max(worst, std::abs(mine - exact.block(k)[e]));
      }
  return worst;
}

Options opts(bool block, int build, int apply, Schedule s = Schedule::asynchronous) {
  Options o;
  o.block = block;
  o.build_sweeps = build;
  o.apply_sweeps = apply;
  o.schedule = s;
  o.chunk = 2;
  return o;
}

class OneThread : public ::testing::TestWithParam<bool> {};

TEST_P(OneThread, FactorsEqualSequentialIlu0Exactly) {
  const bool block = GetParam();
  test::ThreadCount one(1);
  const BsrMatrix a = small_system(4);
  for (int sweeps : {1, 3}) {
    AsyncIlu ilu(opts(block, sweeps, 1));
    ilu.setup(a, Backend::host);
    EXPECT_EQ(max_difference(ilu, exact_factors(ilu)), 0.0) << "sweeps " << sweeps;
  }
}

TEST_P(OneThread, ApplyEqualsSequentialSweepsExactly) {
  const bool block = GetParam();
  test::ThreadCount one(1);
  const BsrMatrix a = small_system(3);
  AsyncIlu ilu(opts(block, 1, 2));
  ilu.setup(a, Backend::host);
  const Bilu0Factors exact = exact_factors(ilu);
  const std::vector<double> r = random_vector(std::size_t(a.rows()), 5);
  std::vector<double> z(r.size()), z_ref(r.size());
  ilu.apply(r.data(), z.data());
  precond::kernels::ref::bilu0_apply(exact, r.data(), z_ref.data());
  for (std::size_t k = 0; k < z.size(); ++k) ASSERT_EQ(z[k], z_ref[k]) << "entry " << k;
}

INSTANTIATE_TEST_SUITE_P(ScalarAndBlock, OneThread, ::testing::Values(false, true),
                         [](const auto& info) { return info.param ? "block" : "scalar"; });

TEST(ScalarPattern, ExpandsEveryBlockEntryInScalarOrder) {
  const BsrMatrix a = small_system(2);
  const async_ilu::ScalarPattern s = async_ilu::expand_to_scalar(a);
  const CsrMatrix c = bsr_to_csr(a, false);
  EXPECT_EQ(s.scalar.row_ptr, c.row_ptr);
  EXPECT_EQ(s.scalar.col_idx, c.col_idx);
  EXPECT_EQ(s.scalar.values, c.values);
}

// Fig. 5: the fixed-point iteration reaches the exact factors; two threads
// asynchronously, and the Jacobi schedule, both to round-off.
TEST(Sweeps, EnoughSweepsReachTheExactFactors) {
  const BsrMatrix a = small_system(4);
  for (Schedule s : {Schedule::asynchronous, Schedule::synchronous}) {
    test::ThreadCount two(2);
    AsyncIlu one_sweep(opts(true, 1, 1, s));
    one_sweep.setup(a, Backend::host);
    AsyncIlu many(opts(true, 40, 1, s));
    many.setup(a, Backend::host);
    const Bilu0Factors exact = exact_factors(many);
    double scale = 0.0;
    for (double v : exact.values) scale = std::max(scale, std::abs(v));
    if (s == Schedule::synchronous) {
      EXPECT_GT(max_difference(one_sweep, exact), 1e-3 * scale);
    }
    EXPECT_LT(max_difference(many, exact), 1e-13 * scale);
  }
}

// Thm. 3: Jacobi block-triangular sweeps are exact after n/b sweeps (here the
// depth of the dependency graph, at most n/b), and not before.
TEST(TriangularSweeps, JacobiBlockSolveIsExactAfterNOverBSweeps) {
  Stencil7Params p;
  p.nx = 3, p.ny = 2, p.nz = 2, p.block_size = 4;
  const BsrMatrix a = generate_stencil7(p);
  const std::vector<double> r = random_vector(std::size_t(a.rows()), 9);
  std::vector<double> z_exact(r.size()), z(r.size());
  AsyncIlu exact(opts(true, 0, 0));
  exact.setup(a, Backend::host);
  exact.apply(r.data(), z_exact.data());
  double scale = 0.0;
  for (double v : z_exact) scale = std::max(scale, std::abs(v));
  auto error_after = [&](int sweeps) {
    AsyncIlu ilu(opts(true, 0, sweeps, Schedule::synchronous));
    ilu.setup(a, Backend::host);
    ilu.apply(r.data(), z.data());
    double e = 0.0;
    for (std::size_t k = 0; k < z.size(); ++k) e = std::max(e, std::abs(z[k] - z_exact[k]));
    return e / scale;
  };
  EXPECT_GT(error_after(2), 1e-4);
  EXPECT_LT(error_after(int(a.block_rows)), 1e-14);
}

// The synchronous schedule: same bits for any thread count, run after run,
// and equal to the sequential twin.
TEST(SyncSchedule, BitwiseIdenticalAcrossRunsAndThreadCounts) {
  const BsrMatrix a = small_system(5);
  const std::vector<double> r = random_vector(std::size_t(a.rows()), 2);
  auto run = [&](int threads, bool block) {
    test::ThreadCount t(threads);
    AsyncIlu ilu(opts(block, 3, 3, Schedule::synchronous));
    ilu.setup(a, Backend::host);
    std::vector<double> z(r.size());
    ilu.apply(r.data(), z.data());
    std::vector<double> all = ilu.lu_values();
    const std::vector<double> dinv = ilu.dinv_values();
    all.insert(all.end(), dinv.begin(), dinv.end());
    all.insert(all.end(), z.begin(), z.end());
    return all;
  };
  for (bool block : {false, true}) {
    const std::vector<double> first = run(1, block);
    EXPECT_EQ(run(2, block), first);
    EXPECT_EQ(run(2, block), first);
    EXPECT_EQ(run(3, block), first);
  }
}

// The OpenMP kernels against their sequential twins on the same state:
// bitwise for the synchronous schedule with two threads, and for the
// asynchronous one with one thread (Gauss-Seidel in natural order).
TEST(Kernels, OpenMpEqualsTheSequentialTwin) {
  const BsrMatrix a = small_system(3);
  const async_ilu::FactorPattern pat = async_ilu::factor_pattern(a);
  const async_ilu::FactorView f = async_ilu::host_view(a, pat, a.values.data());
  const std::size_t nb = std::size_t(a.block_entries());
  const std::vector<double> r = random_vector(std::size_t(a.rows()), 4);
  for (Schedule s : {Schedule::synchronous, Schedule::asynchronous}) {
    test::ThreadCount t(s == Schedule::synchronous ? 2 : 1);
    auto fresh = [&] {
      std::vector<double> state(a.values);
      state.insert(state.end(), a.values.begin(), a.values.end());
      std::vector<double> dinv(2 * std::size_t(a.block_rows) * nb, 0.0);
      for (index_t i = 0; i < a.block_rows; ++i)
        for (index_t c = 0; c < a.block_size; ++c) dinv[std::size_t(i) * nb + std::size_t(c * a.block_size + c)] = 0.1;
      return std::pair{state, dinv};
    };
    auto [lu_ref, dinv_ref] = fresh();
    auto [lu_omp, dinv_omp] = fresh();
    const std::size_t half = a.values.size(), dhalf = dinv_ref.size() / 2;
    const int sweeps = 3;
    EXPECT_EQ(async_ilu::kernels::ref::factor_sweeps(
                  f, {lu_ref.data(), dinv_ref.data(), lu_ref.data() + half, dinv_ref.data() + dhalf}, sweeps, s, {1}),
              -1);
    EXPECT_EQ(async_ilu::kernels::omp::factor_sweeps(
                  f, {lu_omp.data(), dinv_omp.data(), lu_omp.data() + half, dinv_omp.data() + dhalf}, sweeps, s, {2}),
              -1);
    EXPECT_EQ(lu_omp, lu_ref);
    EXPECT_EQ(dinv_omp, dinv_ref);
    std::vector<double> y(r.size()), work(r.size()), z_ref(r.size()), z_omp(r.size());
    async_ilu::ApplyState st{lu_ref.data(), dinv_ref.data(), y.data(), work.data()};
    async_ilu::kernels::ref::triangular_sweeps(f, st, r.data(), z_ref.data(), sweeps, s, {1});
    async_ilu::kernels::omp::triangular_sweeps(f, st, r.data(), z_omp.data(), sweeps, s, {2});
    EXPECT_EQ(z_omp, z_ref);
  }
}

// A 2x2-block matrix [[I, I], [I, I]]: A_00 is fine, but U_11 = I - I I^{-1} I = 0.
BsrMatrix singular_schur(index_t b) {
  BsrMatrix a;
  a.block_size = b;
  a.block_rows = a.block_cols = 2;
  a.row_ptr = {0, 2, 4};
  a.col_idx = {0, 1, 0, 1};
  a.values.assign(std::size_t(4 * b * b), 0.0);
  for (index_t k = 0; k < 4; ++k)
    for (index_t c = 0; c < b; ++c) a.values[std::size_t(k * b * b + c * b + c)] = 1.0;
  return a;
}

TEST(BadInput, SingularPivotIsReportedByBlockRow) {
  for (Schedule s : {Schedule::asynchronous, Schedule::synchronous})
    for (int sweeps : {0, 1, 4}) {
      AsyncIlu ilu(opts(true, sweeps, 1, s));
      try {
        ilu.setup(singular_schur(3), Backend::host);
        ADD_FAILURE() << "no error for a singular pivot, sweeps " << sweeps;
      } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("block row 1"), std::string::npos) << e.what();
      }
    }
}

TEST(BadInput, ZeroDiagonalBlockIsReportedNotPropagated) {
  BsrMatrix a = small_system(2);
  const std::vector<index_t> diag = a.diagonal_positions();
  std::fill(a.block(diag[0]), a.block(diag[0]) + 4, 0.0);
  for (bool block : {false, true}) {
    AsyncIlu ilu(opts(block, 2, 1));
    try {
      ilu.setup(a, Backend::host);
      ADD_FAILURE() << "no error for a zero diagonal block";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(block ? "block row 0" : "scalar row 0"), std::string::npos) << e.what();
    }
  }
}

TEST(BadInput, NegativeSweepsAndChunkAreRefusedByName) {
  EXPECT_THROW(AsyncIlu(opts(true, -1, 1)), Error);
  EXPECT_THROW(AsyncIlu(opts(true, 1, -2)), Error);
  Options o = opts(true, 1, 1);
  o.chunk = 0;
  try {
    AsyncIlu ilu(o);
    ADD_FAILURE();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("chunk"), std::string::npos);
  }
}

// Reusing the exact factors as the initial guess: one Jacobi sweep stays at
// the fixed point, while one sweep from A does not reach it.
TEST(Reuse, PreviousFactorsAreTheInitialGuess) {
  const BsrMatrix a = small_system(4);
  Options o = opts(true, 30, 1, Schedule::synchronous);
  o.reuse = true;
  AsyncIlu ilu(o);
  ilu.setup(a, Backend::host);
  const Bilu0Factors exact = exact_factors(ilu);
  Options one = opts(true, 1, 1, Schedule::synchronous);
  one.reuse = true;
  AsyncIlu warm(one);
  warm.setup(a, Backend::host);
  const double cold = max_difference(warm, exact);
  warm.factor(a);
  const double after_two = max_difference(warm, exact);
  EXPECT_LT(after_two, cold);
  ilu.factor(a);
  EXPECT_LT(max_difference(ilu, exact), 1e-13);
}

std::vector<double> applied(const AsyncIlu& ilu, const std::vector<double>& r) {
  std::vector<double> z(r.size());
  ilu.apply(r.data(), z.data());
  return z;
}

// The refresh from values on the backend (factor_in_place, as a system
// assembled there is refreshed) and the refresh from a host matrix of the
// same values (factor): the same factors and the same application, bit for
// bit, twice in a row (the second from the first's factors with reuse), for
// the asynchronous schedule on one thread and the synchronous one on two.
TEST(InPlace, RefreshFromValuesOnTheBackendGivesTheHostRefreshsBits) {
  for (index_t b : {1, 4, 9}) {
    const BsrMatrix first = small_system(b, 3), second = small_system(b, 8), third = small_system(b, 9);
    const std::vector<double> r = random_vector(std::size_t(first.rows()), 6);
    for (Schedule s : {Schedule::asynchronous, Schedule::synchronous})
      for (bool reuse : {false, true}) {
        const test::ThreadCount threads(s == Schedule::synchronous ? 2 : 1);
        Options o = opts(true, 2, 3, s);
        o.reuse = reuse;
        AsyncIlu by_host(o), in_place(o);
        ASSERT_TRUE(in_place.factors_in_place());
        by_host.setup(first, Backend::host);
        in_place.setup(first, Backend::host);
        for (const BsrMatrix* m : {&second, &third}) {
          by_host.factor(*m);
          in_place.factor_in_place(m->values.data());
          SCOPED_TRACE("b = " + std::to_string(b) + (s == Schedule::synchronous ? ", sync" : ", async") +
                       (reuse ? ", reuse" : ""));
          EXPECT_SAME_BITS(in_place.lu_values(), by_host.lu_values());
          EXPECT_SAME_BITS(in_place.dinv_values(), by_host.dinv_values());
          EXPECT_SAME_BITS(applied(in_place, r), applied(by_host, r));
        }
        // And the refresh read the values it was given: sweeps on one
        // thread from A are BILU(0) of the last matrix.
        if (s == Schedule::asynchronous && !reuse) {
          Bilu0Factors exact = bilu0_symbolic(third);
          precond::kernels::ref::bilu0_factor(third, exact);
          EXPECT_EQ(max_difference(in_place, exact), 0.0) << "b = " << b;
        }
      }
  }
}

TEST(InPlace, SingularPivotIsReportedByBlockRow) {
  BsrMatrix regular = singular_schur(3);
  for (index_t c = 0; c < 3; ++c) regular.block(3)[c * 3 + c] = 2.0;  // A_11 = 2 I: U_11 = I
  const BsrMatrix singular = singular_schur(3);
  BsrMatrix zero_diagonal = small_system(2);
  const std::vector<index_t> diag = zero_diagonal.diagonal_positions();
  std::fill(zero_diagonal.block(diag[0]), zero_diagonal.block(diag[0]) + 4, 0.0);
  for (Schedule s : {Schedule::asynchronous, Schedule::synchronous}) {
    AsyncIlu ilu(opts(true, 2, 1, s));
    ilu.setup(regular, Backend::host);
    try {
      ilu.factor_in_place(singular.values.data());
      ADD_FAILURE() << "no error for a singular pivot";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("block row 1 is singular"), std::string::npos) << e.what();
    }
    ilu.factor_in_place(regular.values.data());  // and it recovers
    EXPECT_EQ(ilu.dinv_values()[9], 1.0);        // U_11^{-1} = I
    AsyncIlu other(opts(true, 2, 1, s));
    other.setup(small_system(2), Backend::host);
    try {
      other.factor_in_place(zero_diagonal.values.data());
      ADD_FAILURE() << "no error for a zero diagonal block";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("block row 0 is singular"), std::string::npos) << e.what();
    }
  }
}

TEST(InPlace, TheHostPathsSayTheyCannot) {
  const BsrMatrix a = small_system(2);
  Options diagnostics = opts(true, 1, 1);
  diagnostics.diagnostics = true;
  for (const Options& o : {opts(false, 1, 1), opts(true, 0, 1), opts(true, 1, 0), diagnostics}) {
    AsyncIlu ilu(o);
    ilu.setup(a, Backend::host);
    EXPECT_FALSE(ilu.factors_in_place());
    EXPECT_THROW(ilu.factor_in_place(a.values.data()), Error);
  }
  AsyncIlu unset(opts(true, 1, 1));
  EXPECT_THROW(unset.factor_in_place(a.values.data()), Error);
}

}  // namespace
}  // namespace tb
