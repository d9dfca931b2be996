// The asynchronous ILU kernels of kernels.hpp on OpenMP against their
// sequential twin kernels::ref, on small random block systems (block sizes 1,
// 3, 5 and 9, the last a run-time loop). The synchronous schedule reads only
// the previous sweep: bitwise for any thread count and chunk. The asynchronous
// one is bitwise on one thread (Gauss-Seidel in natural order); on two threads
// its reads race by design (Alg. 4, no synchronisation), so only its fixed
// point is fixed: after 60 sweeps within 1e-10 of ref's one exact sweep. The
// initial guess (x0 = A) is bitwise on two threads and is checked against
// what it means. The CUDA kernels are in test_async_ilu_kernels_gpu.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "../../common/bits.hpp"
#include "kernel_runs.hpp"
#include "solvers/precond/dense_block.hpp"
#include "thread_count.hpp"

namespace tb::async_ilu {
namespace {

struct OmpKernels {
  static constexpr Backend backend = Backend::host;
  static void initial_guess(const FactorView& f, double* lu, double* dinv) { kernels::omp::initial_guess(f, lu, dinv); }
  static index_t factor_sweeps(const FactorView& f, FactorState s, int sweeps, Schedule schedule,
                               const SweepSplit& split) {
    return kernels::omp::factor_sweeps(f, s, sweeps, schedule, split);
  }
  static void triangular_sweeps(const FactorView& f, const ApplyState& s, const double* r, double* z, int sweeps,
                                Schedule schedule, const SweepSplit& split) {
    kernels::omp::triangular_sweeps(f, s, r, z, sweeps, schedule, split);
  }
};

template <class K>
class AsyncIluKernels : public ::testing::Test {};
using Backends = ::testing::Types<OmpKernels>;
TYPED_TEST_SUITE(AsyncIluKernels, Backends);

using test::max_rel_diff;

TYPED_TEST(AsyncIluKernels, SynchronousSweepsEqualRefBitwise) {
  const test::ThreadCount two(2);
  for (index_t b : {1, 3, 5, 9}) {
    const test::AsyncIluInputs in = test::async_ilu_inputs(6, 5, 4, b, unsigned(b));
    for (int chunk : {1, 7}) {
      const test::Factors want = test::run_factor<test::RefKernels>(in, 3, Schedule::synchronous, {1});
      const test::Factors got = test::run_factor<TypeParam>(in, 3, Schedule::synchronous, {chunk});
      ASSERT_EQ(want.bad_row, -1);
      EXPECT_EQ(got.bad_row, -1);
      EXPECT_EQ(got.lu, want.lu) << "b = " << b << ", chunk " << chunk;
      EXPECT_EQ(got.dinv, want.dinv) << "b = " << b << ", chunk " << chunk;
      EXPECT_EQ(test::run_solve<TypeParam>(in, want, 3, Schedule::synchronous, {chunk}),
                test::run_solve<test::RefKernels>(in, want, 3, Schedule::synchronous, {1}))
          << "b = " << b << ", chunk " << chunk;
    }
  }
}

TYPED_TEST(AsyncIluKernels, AsynchronousSweepsOnOneThreadEqualRefBitwise) {
  const test::ThreadCount one(1);
  for (index_t b : {1, 3, 5, 9}) {
    const test::AsyncIluInputs in = test::async_ilu_inputs(6, 5, 4, b, unsigned(10 + b));
    const test::Factors want = test::run_factor<test::RefKernels>(in, 2, Schedule::asynchronous, {1});
    const test::Factors got = test::run_factor<TypeParam>(in, 2, Schedule::asynchronous, {4});
    EXPECT_EQ(got.lu, want.lu) << "b = " << b;
    EXPECT_EQ(got.dinv, want.dinv) << "b = " << b;
    EXPECT_EQ(test::run_solve<TypeParam>(in, want, 2, Schedule::asynchronous, {4}),
              test::run_solve<test::RefKernels>(in, want, 2, Schedule::asynchronous, {1}))
        << "b = " << b;
  }
}

TYPED_TEST(AsyncIluKernels, AsynchronousSweepsOnThreadsReachRefsFixedPoint) {
  const test::ThreadCount two(2);
  const test::AsyncIluInputs in = test::async_ilu_inputs(8, 6, 5, 3, 21);
  const test::Factors exact = test::run_factor<test::RefKernels>(in, 1, Schedule::asynchronous, {1});
  const test::Factors got = test::run_factor<TypeParam>(in, 60, Schedule::asynchronous, {2});
  EXPECT_LT(max_rel_diff(got.lu, exact.lu), 1e-10);
  EXPECT_LT(max_rel_diff(got.dinv, exact.dinv), 1e-10);
  const std::vector<double> z_exact = test::run_solve<test::RefKernels>(in, exact, 1, Schedule::asynchronous, {1});
  EXPECT_LT(max_rel_diff(test::run_solve<TypeParam>(in, exact, 60, Schedule::asynchronous, {2}), z_exact), 1e-10);
}

// Seed 001's initial guess, x0 = A, with block row 7's A_ii zero and block
// row 11's not finite: lu is A's values, dinv A_ii^{-1} by dense::invert
// where A_ii is regular and the identity in rows 7 and 11; OpenMP on two
// threads gives ref's bits.
TYPED_TEST(AsyncIluKernels, InitialGuessIsAWithItsDiagonalInvertedAsRefDoesIt) {
  const test::ThreadCount two(2);
  for (index_t b : {1, 3, 5, 9}) {
    test::AsyncIluInputs in = test::async_ilu_inputs(6, 5, 4, b, unsigned(30 + b));
    const std::size_t nb = std::size_t(b) * std::size_t(b);
    auto diagonal_block = [&](index_t i) { return in.a.values.data() + std::size_t(in.pattern.diag[i]) * nb; };
    std::fill(diagonal_block(7), diagonal_block(7) + nb, 0.0);
    diagonal_block(11)[nb - 1] = std::nan("");
    const test::Factors want = test::run_initial_guess<test::RefKernels>(in);
    const test::Factors got = test::run_initial_guess<TypeParam>(in);
    EXPECT_SAME_BITS(got.lu, want.lu);
    EXPECT_SAME_BITS(got.dinv, want.dinv);
    EXPECT_SAME_BITS(want.lu, in.a.values);
    std::vector<double> identity(nb, 0.0);
    for (index_t c = 0; c < b; ++c) identity[std::size_t(c * b + c)] = 1.0;
    for (index_t i = 0; i < in.a.block_rows; ++i) {
      const std::vector<double> inverse(want.dinv.begin() + std::ptrdiff_t(std::size_t(i) * nb),
                                        want.dinv.begin() + std::ptrdiff_t(std::size_t(i + 1) * nb));
      if (i == 7 || i == 11) {
        EXPECT_EQ(inverse, identity) << "b = " << b << ", block row " << i;
        continue;
      }
      std::vector<double> expected(diagonal_block(i), diagonal_block(i) + nb);
      ASSERT_TRUE(dense::invert(expected.data(), b)) << "b = " << b << ", block row " << i;
      EXPECT_SAME_BITS(inverse, expected);
      // And it is the inverse: A_ii A_ii^{-1} = I.
      std::vector<double> product(nb);
      dense::multiply(diagonal_block(i), inverse.data(), product.data(), b);
      for (std::size_t e = 0; e < nb; ++e) EXPECT_NEAR(product[e], identity[e], 1e-12) << "b = " << b << ", row " << i;
    }
  }
}

}  // namespace
}  // namespace tb::async_ilu
