// Host side of the core room: OpenMP vector kernels against their sequential
// twins, Array ownership and copies, backend names, and what CUDA memory does
// on a machine that may have no device.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "../../common/random.hpp"
#include "solvers/core/array.hpp"
#include "solvers/core/backend.hpp"
#include "solvers/core/error.hpp"
#include "solvers/core/kernels.hpp"
#include "solvers/core/types.hpp"

namespace tb {
namespace {

using test::random_vector;

// Rounding bound for a sum of n products: n * eps * sum |x_i y_i|, the
// classical worst case (Higham, Accuracy and Stability, Eq. 3.4), so any
// summation order passes and a wrong term does not.
double dot_tolerance(const std::vector<double>& x, const std::vector<double>& y) {
  double s = 0.0;
  for (std::size_t i = 0; i < x.size(); ++i) s += std::abs(x[i] * y[i]);
  return double(x.size() + 1) * std::numeric_limits<double>::epsilon() * s + 1e-300;
}

constexpr double eps = std::numeric_limits<double>::epsilon();

class OmpKernel : public ::testing::TestWithParam<std::size_t> {};

TEST_P(OmpKernel, DotMatchesRef) {
  const std::size_t n = GetParam();
  const auto x = random_vector(n, 1), y = random_vector(n, 2);
  EXPECT_NEAR(kernels::omp::dot(x.data(), y.data(), n), kernels::ref::dot(x.data(), y.data(), n), dot_tolerance(x, y));
}

TEST_P(OmpKernel, AxpbyMatchesRef) {
  const std::size_t n = GetParam();
  const auto x = random_vector(n, 3);
  auto y = random_vector(n, 4), y_ref = y;
  kernels::omp::axpby(0.7, x.data(), -1.3, y.data(), n);
  kernels::ref::axpby(0.7, x.data(), -1.3, y_ref.data(), n);
  for (std::size_t i = 0; i < n; ++i) ASSERT_NEAR(y[i], y_ref[i], 4 * eps * 2.0) << "entry " << i;
}

TEST_P(OmpKernel, AxpbypczMatchesRef) {
  const std::size_t n = GetParam();
  const auto x = random_vector(n, 5), y = random_vector(n, 6);
  auto z = random_vector(n, 7), z_ref = z;
  kernels::omp::axpbypcz(0.5, x.data(), 2.0, y.data(), -0.25, z.data(), n);
  kernels::ref::axpbypcz(0.5, x.data(), 2.0, y.data(), -0.25, z_ref.data(), n);
  for (std::size_t i = 0; i < n; ++i) ASSERT_NEAR(z[i], z_ref[i], 4 * eps * 3.0) << "entry " << i;
}

TEST_P(OmpKernel, ScaleMultipliesEveryEntry) {
  const std::size_t n = GetParam();
  const auto x0 = random_vector(n, 8);
  auto x = x0;
  kernels::omp::scale(-3.0, x.data(), n);
  for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(x[i], -3.0 * x0[i]) << "entry " << i;
}

TEST_P(OmpKernel, AllFiniteFindsNanAndInf) {
  const std::size_t n = GetParam();
  auto x = random_vector(n, 9);
  EXPECT_TRUE(kernels::omp::all_finite(x.data(), n));
  if (n == 0) return;
  x[n - 1] = std::numeric_limits<double>::quiet_NaN();
  EXPECT_FALSE(kernels::omp::all_finite(x.data(), n));
  x[n - 1] = 0.0;
  x[n / 2] = -std::numeric_limits<double>::infinity();
  EXPECT_FALSE(kernels::omp::all_finite(x.data(), n));
}

TEST_P(OmpKernel, MultiDotAndMultiAxpyMatchRef) {
  const std::size_t n = GetParam();
  for (int k = 1; k <= 4; ++k) {
    std::vector<std::vector<double>> v;
    std::vector<const double*> p;
    for (int i = 0; i < k; ++i) v.push_back(random_vector(n, 20 + i));
    for (const auto& e : v) p.push_back(e.data());
    const auto w = random_vector(n, 30);
    double got[4], want[4];
    kernels::omp::multi_dot(p.data(), k, w.data(), got, n);
    kernels::ref::multi_dot(p.data(), k, w.data(), want, n);
    for (int i = 0; i < k; ++i) EXPECT_NEAR(got[i], want[i], dot_tolerance(v[i], w)) << "k=" << k << " i=" << i;
    const double alpha[4] = {0.5, -1.25, 2.0, 0.125};
    auto y = random_vector(n, 40), y_ref = y;
    kernels::omp::multi_axpy(alpha, p.data(), k, y.data(), n);
    kernels::ref::multi_axpy(alpha, p.data(), k, y_ref.data(), n);
    for (std::size_t i = 0; i < n; ++i) ASSERT_NEAR(y[i], y_ref[i], 16 * eps * 5.0) << "k=" << k << " entry " << i;
  }
}

TEST(VectorDispatch, MultiDotOverManyVectorsEqualsSingleDots) {
  const std::size_t n = 5003;
  std::vector<Vector> v;
  std::vector<const Vector*> p;
  for (int i = 0; i < 11; ++i) v.emplace_back(Backend::host, std::span<const double>(random_vector(n, 50 + i)));
  for (const auto& e : v) p.push_back(&e);
  const Vector w(Backend::host, std::span<const double>(random_vector(n, 70)));
  std::vector<double> got(11);
  kernels::multi_dot(p.data(), 11, w, got.data());
  for (int i = 0; i < 11; ++i) EXPECT_NEAR(got[i], kernels::dot(v[i], w), 1e-12) << i;
  std::vector<double> alpha(11);
  for (int i = 0; i < 11; ++i) alpha[i] = 0.1 * (i + 1);
  Vector y(Backend::host, std::span<const double>(random_vector(n, 80)));
  std::vector<double> expect = y.to_host();
  for (int i = 0; i < 11; ++i)
    for (std::size_t r = 0; r < n; ++r) expect[r] += alpha[i] * v[i][r];
  kernels::multi_axpy(alpha.data(), p.data(), 11, y);
  for (std::size_t r = 0; r < n; ++r) ASSERT_NEAR(y[r], expect[r], 1e-13) << r;
}

INSTANTIATE_TEST_SUITE_P(Sizes, OmpKernel, ::testing::Values(0, 1, 7, 1000, 1000003));

TEST(VectorDispatch, HostVectorsReachTheOmpKernels) {
  const auto hx = random_vector(1001, 10), hy = random_vector(1001, 11);
  const Vector x(Backend::host, std::span<const double>(hx));
  Vector y(Backend::host, std::span<const double>(hy));
  EXPECT_NEAR(kernels::dot(x, y), kernels::ref::dot(hx.data(), hy.data(), hx.size()), dot_tolerance(hx, hy));
  EXPECT_NEAR(kernels::norm2(x), std::sqrt(kernels::ref::dot(hx.data(), hx.data(), hx.size())), 1e-12);
  kernels::axpy(2.0, x, y);
  for (std::size_t i = 0; i < hx.size(); ++i) ASSERT_NEAR(y[i], 2.0 * hx[i] + hy[i], 8 * eps);
  kernels::fill(y, 4.5);
  for (std::size_t i = 0; i < hx.size(); ++i) ASSERT_EQ(y[i], 4.5);
  kernels::copy(x, y);
  EXPECT_EQ(y.to_host(), hx);
}

TEST(VectorDispatch, MismatchedSizesAreRefused) {
  Vector a(Backend::host, 3), b(Backend::host, 4);
  EXPECT_THROW(kernels::dot(a, b), Error);
  EXPECT_THROW(kernels::axpby(1.0, a, 1.0, b), Error);
  Vector c(Backend::host, 3);
  EXPECT_THROW(kernels::axpbypcz(1.0, a, 1.0, c, 1.0, b), Error);
}

TEST(ArrayHost, CopiesRoundTrip) {
  const std::vector<double> h = {1.0, -2.0, 3.5};
  Array<double> a(Backend::host, std::span<const double>(h));
  EXPECT_EQ(a.size(), 3u);
  EXPECT_EQ(a.backend(), Backend::host);
  EXPECT_EQ(a.to_host(), h);
  Array<double> b(Backend::host, 3);
  b.copy_from(a);
  EXPECT_EQ(b.to_host(), h);
  std::vector<double> out(3);
  b.copy_to_host(out);
  EXPECT_EQ(out, h);
  b.set_zero();
  EXPECT_EQ(b.to_host(), std::vector<double>(3, 0.0));
}

TEST(ArrayHost, SizeMismatchIsAnError) {
  Array<double> a(Backend::host, 3);
  Array<double> b(Backend::host, 4);
  EXPECT_THROW(a.copy_from(b), Error);
  std::vector<double> two(2);
  EXPECT_THROW(a.copy_from_host(two), Error);
  EXPECT_THROW(a.copy_to_host(two), Error);
}

TEST(ArrayHost, MoveTransfersOwnership) {
  const std::vector<index_t> h = {4, 5, 6};
  Array<index_t> a(Backend::host, std::span<const index_t>(h));
  const index_t* p = a.data();
  Array<index_t> b(std::move(a));
  EXPECT_EQ(b.data(), p);
  EXPECT_TRUE(a.empty());  // NOLINT(bugprone-use-after-move): the moved-from state is specified
  Array<index_t> c;
  c = std::move(b);
  EXPECT_EQ(c.data(), p);
  EXPECT_EQ(c.to_host(), h);
}

TEST(ArrayHost, EmptyArrayOwnsNothing) {
  Array<double> a(Backend::host, 0);
  EXPECT_TRUE(a.empty());
  EXPECT_EQ(a.data(), nullptr);
  EXPECT_TRUE(a.to_host().empty());
  a.set_zero();
}

TEST(ArrayHost, StorageIsCacheLineAligned) {
  Array<double> a(Backend::host, 5);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(a.data()) % 64, 0u);
}

TEST(BackendName, ParsesAndPrints) {
  EXPECT_EQ(parse_backend("host"), Backend::host);
  EXPECT_EQ(parse_backend("cuda"), Backend::cuda);
  EXPECT_EQ(to_string(Backend::host), "host");
  EXPECT_EQ(to_string(Backend::cuda), "cuda");
}

TEST(BackendName, UnknownNameSaysWhatIsAllowed) {
  for (const char* bad : {"gpu", "", "Host", "cuda "}) {
    try {
      parse_backend(bad);
      ADD_FAILURE() << "'" << bad << "' was accepted";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("expected host or cuda"), std::string::npos) << e.what();
    }
  }
}

TEST(CudaAvailability, ReasonIsGivenExactlyWhenNoDeviceCanRun) {
  const std::string reason = cuda_unavailable_reason();
  const bool usable = cuda_compiled() && cuda_device_count() > 0;
  EXPECT_EQ(reason.empty(), usable) << reason;
  EXPECT_EQ(cuda_device_name().empty(), !usable);
  if (!cuda_compiled()) {
    EXPECT_EQ(cuda_device_count(), 0);
  }
}

// On a GPU machine the allocation works; anywhere else it must be a tb::Error
// that says why (built without CUDA, or CUDA's own "no device" message), never
// a crash or a null pointer.
TEST(CudaMemory, AllocatesOrRefusesClearly) {
  const bool usable = cuda_unavailable_reason().empty();
  try {
    Array<double> a(Backend::cuda, 1000);
    EXPECT_TRUE(usable) << "allocation succeeded although: " << cuda_unavailable_reason();
    EXPECT_NE(a.data(), nullptr);
    a.set_zero();
    EXPECT_EQ(a.to_host(), std::vector<double>(1000, 0.0));
  } catch (const Error& e) {
    EXPECT_FALSE(usable) << e.what();
    EXPECT_NE(std::string(e.what()).find("CUDA"), std::string::npos) << e.what();
  }
}

TEST(CudaMemory, ZeroSizedArrayNeedsNoDevice) {
  Array<double> a(Backend::cuda, 0);
  EXPECT_TRUE(a.empty());
  EXPECT_TRUE(a.to_host().empty());
}

}  // namespace
}  // namespace tb
