// The asynchronous ILU kernels of kernels.hpp on OpenMP against their
// sequential twin kernels::ref, on small random block systems (block sizes 1,
// 3, 5 and 9, the last a run-time loop). The synchronous schedule reads only
// the previous sweep: bitwise for any thread count and chunk. The asynchronous
// one is bitwise on one thread (Gauss-Seidel in natural order); on two threads
// its reads race by design (Alg. 4, no synchronisation), so only its fixed
// point is fixed: after 60 sweeps within 1e-10 of ref's one exact sweep. The
// CUDA kernels are in test_async_ilu_kernels_gpu.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "kernel_runs.hpp"
#include "thread_count.hpp"

namespace tb::async_ilu {
namespace {

struct OmpKernels {
  static constexpr Backend backend = Backend::host;
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

}  // namespace
}  // namespace tb::async_ilu
