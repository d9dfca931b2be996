// CUDA vector kernels against their sequential host twins (kernels::ref), on
// random vectors of sizes that hit the edge cases of the launch shapes: empty,
// one element, less than one block, and more than max_blocks * threads so the
// grid-stride loops wrap. Skips with the reason when no device is visible.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "../../common/random.hpp"
#include "solvers/core/array.hpp"
#include "solvers/core/backend.hpp"
#include "solvers/core/error.hpp"
#include "solvers/core/kernels.hpp"

namespace tb {
namespace {

constexpr double eps = std::numeric_limits<double>::epsilon();

using test::random_vector;

Vector on_device(const std::vector<double>& h) { return Vector(Backend::cuda, std::span<const double>(h)); }

// Worst-case rounding of an n-term sum of products in any order (Higham, Eq. 3.4).
double dot_tolerance(const std::vector<double>& x, const std::vector<double>& y) {
  double s = 0.0;
  for (std::size_t i = 0; i < x.size(); ++i) s += std::abs(x[i] * y[i]);
  return double(x.size() + 1) * eps * s + 1e-300;
}

class CudaVectorKernel : public ::testing::TestWithParam<std::size_t> {
 protected:
  void SetUp() override {
    if (const std::string why = cuda_unavailable_reason(); !why.empty()) GTEST_SKIP() << why;
  }
};

TEST_P(CudaVectorKernel, DotMatchesRef) {
  const std::size_t n = GetParam();
  const auto hx = random_vector(n, 1), hy = random_vector(n, 2);
  const Vector x = on_device(hx), y = on_device(hy);
  EXPECT_NEAR(kernels::dot(x, y), kernels::ref::dot(hx.data(), hy.data(), n), dot_tolerance(hx, hy));
}

// The two-stage reduction has a fixed order for a given n: repeated calls
// must agree to the last bit, which is what makes GPU Krylov runs repeatable.
TEST_P(CudaVectorKernel, DotIsBitwiseReproducible) {
  const std::size_t n = GetParam();
  const Vector x = on_device(random_vector(n, 3)), y = on_device(random_vector(n, 4));
  const double first = kernels::dot(x, y);
  for (int rep = 0; rep < 5; ++rep) {
    const double again = kernels::dot(x, y);
    EXPECT_EQ(std::memcmp(&first, &again, sizeof(double)), 0) << first << " then " << again;
  }
}

TEST_P(CudaVectorKernel, AxpbyMatchesRef) {
  const std::size_t n = GetParam();
  const auto hx = random_vector(n, 5);
  auto hy = random_vector(n, 6);
  const Vector x = on_device(hx);
  Vector y = on_device(hy);
  kernels::axpby(0.7, x, -1.3, y);
  kernels::ref::axpby(0.7, hx.data(), -1.3, hy.data(), n);
  const auto got = y.to_host();
  for (std::size_t i = 0; i < n; ++i) ASSERT_NEAR(got[i], hy[i], 4 * eps * 2.0) << "entry " << i;
}

TEST_P(CudaVectorKernel, AxpbypczMatchesRef) {
  const std::size_t n = GetParam();
  const auto hx = random_vector(n, 7), hy = random_vector(n, 8);
  auto hz = random_vector(n, 9);
  const Vector x = on_device(hx), y = on_device(hy);
  Vector z = on_device(hz);
  kernels::axpbypcz(0.5, x, 2.0, y, -0.25, z);
  kernels::ref::axpbypcz(0.5, hx.data(), 2.0, hy.data(), -0.25, hz.data(), n);
  const auto got = z.to_host();
  for (std::size_t i = 0; i < n; ++i) ASSERT_NEAR(got[i], hz[i], 4 * eps * 3.0) << "entry " << i;
}

TEST_P(CudaVectorKernel, ScaleMatchesHost) {
  const std::size_t n = GetParam();
  const auto h = random_vector(n, 10);
  Vector x = on_device(h);
  kernels::scale(-3.0, x);
  const auto got = x.to_host();
  for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(got[i], -3.0 * h[i]) << "entry " << i;
}

TEST_P(CudaVectorKernel, FillSetsEveryEntry) {
  const std::size_t n = GetParam();
  Vector x = on_device(random_vector(n, 11));
  kernels::fill(x, 2.25);
  EXPECT_EQ(x.to_host(), std::vector<double>(n, 2.25));
}

TEST_P(CudaVectorKernel, AllFiniteFindsNanAndInfAnywhere) {
  const std::size_t n = GetParam();
  auto h = random_vector(n, 12);
  EXPECT_TRUE(kernels::all_finite(on_device(h)));
  if (n == 0) return;
  for (std::size_t pos : {std::size_t(0), n / 2, n - 1}) {
    for (double bad : {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity()}) {
      const double keep = h[pos];
      h[pos] = bad;
      EXPECT_FALSE(kernels::all_finite(on_device(h))) << bad << " at " << pos;
      h[pos] = keep;
    }
  }
}

TEST_P(CudaVectorKernel, CopiesRoundTripThroughTheDevice) {
  const std::size_t n = GetParam();
  const auto h = random_vector(n, 13);
  const Vector a = on_device(h);
  Vector b(Backend::cuda, n);
  b.copy_from(a);  // device to device
  Vector c(Backend::host, n);
  c.copy_from(b);  // device to host through Array
  EXPECT_EQ(c.to_host(), h);
  Vector d(Backend::cuda, n);
  d.copy_from(c);  // host to device
  EXPECT_EQ(d.to_host(), h);
  d.set_zero();
  EXPECT_EQ(d.to_host(), std::vector<double>(n, 0.0));
}

INSTANTIATE_TEST_SUITE_P(Sizes, CudaVectorKernel, ::testing::Values(0, 1, 255, 257, 1000, 1000003));

class CudaVectorDispatch : public ::testing::Test {
 protected:
  void SetUp() override {
    if (const std::string why = cuda_unavailable_reason(); !why.empty()) GTEST_SKIP() << why;
  }
};

TEST_F(CudaVectorDispatch, MixedBackendsAreRefused) {
  const Vector d(Backend::cuda, 4), h(Backend::host, 4);
  EXPECT_THROW(kernels::dot(d, h), Error);
  Vector y(Backend::host, 4);
  EXPECT_THROW(kernels::axpby(1.0, d, 1.0, y), Error);
}

TEST_F(CudaVectorDispatch, Norm2OfKnownVector) {
  const Vector x = on_device(std::vector<double>(10000, -2.0));
  EXPECT_DOUBLE_EQ(kernels::norm2(x), 200.0);
}

}  // namespace
}  // namespace tb
