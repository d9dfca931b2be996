// The asynchronous ILU kernels of kernels.hpp on CUDA (one thread per block
// row, block sizes 1..8) against their sequential twin kernels::ref, on the
// inputs of test_async_ilu_kernels.cpp. The synchronous schedule is bitwise
// (cuda/kernels.cu is compiled without FMA contraction); the asynchronous one
// races by design, so after 60 sweeps within 1e-10 of ref's exact sweep. Skips
// with the reason when no device is visible.
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
  static index_t factor_sweeps(const FactorView& f, FactorState s, int sweeps, Schedule schedule, int chunk) {
    return TB_CUDA_CALL(kernels::cuda::factor_sweeps(f, s, sweeps, schedule, chunk));
  }
  static void triangular_sweeps(const FactorView& f, const ApplyState& s, const double* r, double* z, int sweeps,
                                Schedule schedule, int chunk) {
    TB_CUDA_CALL(kernels::cuda::triangular_sweeps(f, s, r, z, sweeps, schedule, chunk));
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
    const test::Factors want = test::run_factor<test::RefKernels>(in, 3, Schedule::synchronous, 1);
    const test::Factors got = test::run_factor<TypeParam>(in, 3, Schedule::synchronous, 1);
    EXPECT_EQ(got.bad_row, -1);
    EXPECT_EQ(got.lu, want.lu) << "b = " << b;
    EXPECT_EQ(got.dinv, want.dinv) << "b = " << b;
    EXPECT_EQ(test::run_solve<TypeParam>(in, want, 3, Schedule::synchronous, 1),
              test::run_solve<test::RefKernels>(in, want, 3, Schedule::synchronous, 1))
        << "b = " << b;
  }
}

TYPED_TEST(AsyncIluKernelsGpu, AsynchronousSweepsReachRefsFixedPoint) {
  const test::AsyncIluInputs in = test::async_ilu_inputs(8, 6, 5, 3, 21);
  const test::Factors exact = test::run_factor<test::RefKernels>(in, 1, Schedule::asynchronous, 1);
  const test::Factors got = test::run_factor<TypeParam>(in, 60, Schedule::asynchronous, 1);
  EXPECT_LT(max_rel_diff(got.lu, exact.lu), 1e-10);
  EXPECT_LT(max_rel_diff(got.dinv, exact.dinv), 1e-10);
  const std::vector<double> z_exact = test::run_solve<test::RefKernels>(in, exact, 1, Schedule::asynchronous, 1);
  EXPECT_LT(max_rel_diff(test::run_solve<TypeParam>(in, exact, 60, Schedule::asynchronous, 1), z_exact), 1e-10);
}

}  // namespace
}  // namespace tb::async_ilu
