// CUDA BSR SpMV (bsr_spmv, its one-thread-per-row twin bsr_spmv_ref and the
// flat walk bsr_spmv_flat) against the host reference spmv_ref, for every block size with
// a compile-time kernel (1..8) and the warp-per-block-row path (13, 32, 64).
// Skips with the reason when no device is visible.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "../../common/random.hpp"
#include "solvers/core/array.hpp"
#include "solvers/core/backend.hpp"
#include "solvers/core/cuda_call.hpp"
#include "solvers/core/error.hpp"
#include "solvers/matrix/bsr.hpp"
#include "solvers/matrix/bsr_operator.hpp"
#include "solvers/matrix/cuda/kernels.hpp"
#include "solvers/matrix/generate.hpp"
#include "solvers/matrix/kernels.hpp"
#include "spmv_inputs.hpp"

namespace tb {
namespace {

using test::random_bsr;
using test::random_vector;
using test::row_tolerance;
using test::stencil;

class CudaBsrSpmv : public ::testing::TestWithParam<int> {
 protected:
  void SetUp() override {
    if (const std::string why = cuda_unavailable_reason(); !why.empty()) GTEST_SKIP() << why;
  }

  // Runs both CUDA kernels on a and compares each with the host reference.
  static void expect_matches_host(const BsrMatrix& a, unsigned seed) {
    const auto hx = random_vector(std::size_t(a.cols()), seed);
    std::vector<double> expected(std::size_t(a.rows()));
    spmv_ref(a, hx.data(), expected.data());
    const auto tol = row_tolerance(a, hx);

    const BsrOperator op(a, Backend::cuda);
    const Vector x(Backend::cuda, std::span<const double>(hx));
    Vector y(Backend::cuda, std::size_t(a.rows()));
    kernels_fill_nan(y);
    op.apply(x, y);
    expect_close(y.to_host(), expected, tol, "bsr_spmv");

    kernels_fill_nan(y);
    TB_CUDA_CALL(kernels::cuda::bsr_spmv_ref(op.view(), x.data(), y.data()));
    expect_close(y.to_host(), expected, tol, "bsr_spmv_ref");

    if (a.block_size <= 8) {
      kernels_fill_nan(y);
      TB_CUDA_CALL(kernels::cuda::bsr_spmv_flat(op.view(), x.data(), y.data()));
      expect_close(y.to_host(), expected, tol, "bsr_spmv_flat");
    }
  }

  // Poisons the output so a row the kernel forgets to write cannot pass.
  static void kernels_fill_nan(Vector& y) {
    const std::vector<double> nan(y.size(), std::numeric_limits<double>::quiet_NaN());
    y.copy_from_host(nan);
  }

  static void expect_close(const std::vector<double>& got, const std::vector<double>& want,
                           const std::vector<double>& tol, const char* kernel) {
    ASSERT_EQ(got.size(), want.size());
    for (std::size_t r = 0; r < got.size(); ++r) ASSERT_NEAR(got[r], want[r], tol[r]) << kernel << ", row " << r;
  }
};

TEST_P(CudaBsrSpmv, Stencil7MatchesHostReference) { expect_matches_host(stencil(GetParam()), 21); }

TEST_P(CudaBsrSpmv, IrregularPatternMatchesHostReference) {
  const index_t bs = GetParam();
  expect_matches_host(random_bsr(bs > 8 ? 60 : 300, bs, unsigned(100 + bs)), 22);
}

TEST_P(CudaBsrSpmv, UpdatedValuesAreUsed) {
  const index_t bs = GetParam();
  BsrMatrix a = stencil(bs);
  BsrOperator op(a, Backend::cuda);
  for (double& v : a.values) v *= -2.0;
  op.update_values(a);
  const auto hx = random_vector(std::size_t(a.cols()), 23);
  std::vector<double> expected(std::size_t(a.rows()));
  spmv_ref(a, hx.data(), expected.data());
  const Vector x(Backend::cuda, std::span<const double>(hx));
  Vector y(Backend::cuda, std::size_t(a.rows()));
  op.apply(x, y);
  expect_close(y.to_host(), expected, row_tolerance(a, hx), "bsr_spmv after update_values");
}

INSTANTIATE_TEST_SUITE_P(BlockSizes, CudaBsrSpmv, ::testing::Values(1, 2, 3, 4, 5, 6, 7, 8, 13, 32, 64));

class CudaBsrSpmvEdges : public ::testing::Test {
 protected:
  void SetUp() override {
    if (const std::string why = cuda_unavailable_reason(); !why.empty()) GTEST_SKIP() << why;
  }
};

TEST_F(CudaBsrSpmvEdges, EmptyMatrixIsANoOp) {
  BsrMatrix a;
  a.block_size = 5;
  const BsrOperator op(a, Backend::cuda);
  const Vector x(Backend::cuda, 0);
  Vector y(Backend::cuda, 0);
  EXPECT_NO_THROW(op.apply(x, y));
}

TEST_F(CudaBsrSpmvEdges, BlockSizeOutOfRangeIsRefused) {
  BsrView v;
  v.block_size = max_block_size + 1;
  v.block_rows = 1;
  EXPECT_THROW(TB_CUDA_CALL(kernels::cuda::bsr_spmv(v, nullptr, nullptr)), Error);
  EXPECT_THROW(TB_CUDA_CALL(kernels::cuda::bsr_spmv_ref(v, nullptr, nullptr)), Error);
  EXPECT_THROW(TB_CUDA_CALL(kernels::cuda::bsr_spmv_flat(v, nullptr, nullptr)), Error);
}

}  // namespace
}  // namespace tb
