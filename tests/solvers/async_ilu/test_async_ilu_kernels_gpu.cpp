// The asynchronous ILU kernels of kernels.hpp on CUDA (a thread per block row
// for block sizes 1..8, a group of lanes per block row for 1..32) against
// their sequential twin kernels::ref, on the inputs of
// test_async_ilu_kernels.cpp. The synchronous schedule is bitwise
// (cuda/kernels.cu is compiled without FMA contraction); the asynchronous one
// races by design, so after 60 sweeps within 1e-10 of ref's exact sweep. The
// initial guess bitwise for block sizes 1..32. Skips with the reason when no
// device is visible.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "kernel_runs.hpp"
#include "solvers/core/backend.hpp"
#include "solvers/core/cuda_call.hpp"

namespace tb::async_ilu {
namespace {

struct CudaKernels {
  static constexpr Backend backend = Backend::cuda;
  static void initial_guess(const FactorView& f, double* lu, double* dinv) {
    TB_CUDA_CALL(kernels::cuda::initial_guess(f, lu, dinv));
  }
  static index_t factor_sweeps(const FactorView& f, FactorState s, int sweeps, Schedule schedule,
                               const SweepSplit& split) {
    return TB_CUDA_CALL(kernels::cuda::factor_sweeps(f, s, sweeps, schedule, split));
  }
  static void triangular_sweeps(const FactorView& f, const ApplyState& s, const double* r, double* z, int sweeps,
                                Schedule schedule, const SweepSplit& split) {
    TB_CUDA_CALL(kernels::cuda::triangular_sweeps(f, s, r, z, sweeps, schedule, split));
  }
};

template <class K>
class AsyncIluKernelsGpu : public ::testing::Test {
 protected:
  void SetUp() override {
    if (const std::string why = cuda_unavailable_reason(); !why.empty()) GTEST_SKIP() << why;
  }
};
using Backends = ::testing::Types<CudaKernels>;
TYPED_TEST_SUITE(AsyncIluKernelsGpu, Backends);

using test::max_rel_diff;

TYPED_TEST(AsyncIluKernelsGpu, SynchronousSweepsEqualRefBitwise) {
  for (index_t b : {1, 3, 5, 8}) {
    const test::AsyncIluInputs in = test::async_ilu_inputs(6, 5, 4, b, unsigned(b));
    const test::Factors want = test::run_factor<test::RefKernels>(in, 3, Schedule::synchronous, {1});
    const test::Factors got = test::run_factor<TypeParam>(in, 3, Schedule::synchronous, {1});
    EXPECT_EQ(got.bad_row, -1);
    EXPECT_EQ(got.lu, want.lu) << "b = " << b;
    EXPECT_EQ(got.dinv, want.dinv) << "b = " << b;
    EXPECT_EQ(test::run_solve<TypeParam>(in, want, 3, Schedule::synchronous, {1}),
              test::run_solve<test::RefKernels>(in, want, 3, Schedule::synchronous, {1}))
        << "b = " << b;
  }
}

// The initial guess (x0 = A; A_ii^{-1}, the identity where A_ii is singular):
// a thread per block row, compile-time blocks up to 8 and the runtime size
// above, both ref's bits.
TYPED_TEST(AsyncIluKernelsGpu, InitialGuessEqualsRefBitwise) {
  for (index_t b : {1, 3, 4, 8, 9, 12, 32}) {
    test::AsyncIluInputs in = test::async_ilu_inputs(5, 4, 3, b, unsigned(60 + b));
    const std::size_t nb = std::size_t(b) * std::size_t(b);
    double* a5 = in.a.values.data() + std::size_t(in.pattern.diag[5]) * nb;
    std::fill(a5, a5 + nb, 0.0);
    const test::Factors want = test::run_initial_guess<test::RefKernels>(in);
    const test::Factors got = test::run_initial_guess<TypeParam>(in);
    EXPECT_EQ(got.lu, want.lu) << "b = " << b;
    EXPECT_EQ(got.dinv, want.dinv) << "b = " << b;
    EXPECT_EQ(want.dinv[5 * nb], 1.0) << "b = " << b;  // the identity stands in for the singular A_55
  }
}

TYPED_TEST(AsyncIluKernelsGpu, GroupRowsEqualRefBitwiseForEveryBlockSize) {
  for (index_t b = 1; b <= 32; ++b) {
    const test::AsyncIluInputs in = test::async_ilu_inputs(5, 4, 3, b, unsigned(40 + b));
    const SweepSplit group{1, GpuRows::group};
    const test::Factors want = test::run_factor<test::RefKernels>(in, 3, Schedule::synchronous, {});
    const test::Factors got = test::run_factor<TypeParam>(in, 3, Schedule::synchronous, group);
    ASSERT_EQ(want.bad_row, -1) << "b = " << b;
    EXPECT_EQ(got.bad_row, -1) << "b = " << b;
    EXPECT_EQ(got.lu, want.lu) << "b = " << b;
    EXPECT_EQ(got.dinv, want.dinv) << "b = " << b;
    EXPECT_EQ(test::run_solve<TypeParam>(in, want, 3, Schedule::synchronous, group),
              test::run_solve<test::RefKernels>(in, want, 3, Schedule::synchronous, {}))
        << "b = " << b;
  }
}

TYPED_TEST(AsyncIluKernelsGpu, GroupRowsReportASingularDiagonalBlock) {
  for (index_t b : {4, 12, 32}) {
    test::AsyncIluInputs in = test::async_ilu_inputs(4, 3, 3, b, 5);
    const std::size_t nb = std::size_t(b) * std::size_t(b);
    double* a00 = in.a.values.data() + std::size_t(in.pattern.diag[0]) * nb;
    for (std::size_t e = 0; e < nb; ++e) a00[e] = 0.0;
    const test::Factors got = test::run_factor<TypeParam>(in, 1, Schedule::synchronous, {1, GpuRows::group});
    EXPECT_EQ(got.bad_row, 0) << "b = " << b;
  }
}

TYPED_TEST(AsyncIluKernelsGpu, AsynchronousGroupRowsReachRefsFixedPoint) {
  for (index_t b : {12, 32}) {
    const test::AsyncIluInputs in = test::async_ilu_inputs(6, 5, 4, b, 23);
    const test::Factors exact = test::run_factor<test::RefKernels>(in, 1, Schedule::asynchronous, {});
    const test::Factors got = test::run_factor<TypeParam>(in, 60, Schedule::asynchronous, {});
    EXPECT_LT(max_rel_diff(got.lu, exact.lu), 1e-10) << "b = " << b;
    EXPECT_LT(max_rel_diff(got.dinv, exact.dinv), 1e-10) << "b = " << b;
    const std::vector<double> z_exact = test::run_solve<test::RefKernels>(in, exact, 1, Schedule::asynchronous, {});
    EXPECT_LT(max_rel_diff(test::run_solve<TypeParam>(in, exact, 60, Schedule::asynchronous, {}), z_exact), 1e-10)
        << "b = " << b;
  }
}

TYPED_TEST(AsyncIluKernelsGpu, AsynchronousSweepsReachRefsFixedPoint) {
  const test::AsyncIluInputs in = test::async_ilu_inputs(8, 6, 5, 3, 21);
  const test::Factors exact = test::run_factor<test::RefKernels>(in, 1, Schedule::asynchronous, {1});
  const test::Factors got = test::run_factor<TypeParam>(in, 60, Schedule::asynchronous, {1});
  EXPECT_LT(max_rel_diff(got.lu, exact.lu), 1e-10);
  EXPECT_LT(max_rel_diff(got.dinv, exact.dinv), 1e-10);
  const std::vector<double> z_exact = test::run_solve<test::RefKernels>(in, exact, 1, Schedule::asynchronous, {1});
  EXPECT_LT(max_rel_diff(test::run_solve<TypeParam>(in, exact, 60, Schedule::asynchronous, {1}), z_exact), 1e-10);
}

}  // namespace
}  // namespace tb::async_ilu
