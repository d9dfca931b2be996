// The core room's CUDA kernels (TB_CORE_KERNELS) against their sequential
// twins; the checks and their tolerances are in kernel_checks.hpp. Skips with
// the reason when no device is visible.
#include <gtest/gtest.h>

#include <string>

#include "kernel_checks.hpp"
#include "solvers/core/backend.hpp"
#include "solvers/core/cuda_call.hpp"

namespace tb {
namespace {

struct CudaKernels {
  static constexpr Backend backend = Backend::cuda;
  static double dot(const double* x, const double* y, std::size_t n) {
    return TB_CUDA_CALL(kernels::cuda::dot(x, y, n));
  }
  static void axpby(double a, const double* x, double b, double* y, std::size_t n) {
    TB_CUDA_CALL(kernels::cuda::axpby(a, x, b, y, n));
  }
  static void axpbypcz(double a, const double* x, double b, const double* y, double c, double* z, std::size_t n) {
    TB_CUDA_CALL(kernels::cuda::axpbypcz(a, x, b, y, c, z, n));
  }
  static void scale(double a, double* x, std::size_t n) { TB_CUDA_CALL(kernels::cuda::scale(a, x, n)); }
  static void fill(double* x, double v, std::size_t n) { TB_CUDA_CALL(kernels::cuda::fill(x, v, n)); }
  static bool all_finite(const double* x, std::size_t n) { return TB_CUDA_CALL(kernels::cuda::all_finite(x, n)); }
  static void multi_dot(const double* const* v, int k, const double* w, double* out, std::size_t n) {
    TB_CUDA_CALL(kernels::cuda::multi_dot(v, k, w, out, n));
  }
  static void multi_axpy(const double* alpha, const double* const* v, int k, double* w, std::size_t n) {
    TB_CUDA_CALL(kernels::cuda::multi_axpy(alpha, v, k, w, n));
  }
};

template <class K>
class CoreKernelsGpu : public ::testing::Test {
 protected:
  void SetUp() override {
    if (const std::string why = cuda_unavailable_reason(); !why.empty()) GTEST_SKIP() << why;
  }
};
using Backends = ::testing::Types<CudaKernels>;
TYPED_TEST_SUITE(CoreKernelsGpu, Backends);

TYPED_TEST(CoreKernelsGpu, EveryKernelEqualsRef) {
  for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(1000), std::size_t(300'007)})
    test::check_core_kernels<TypeParam>(n);
}

// The kernels GMRES queues with its scalars on the device (gmres_on_backend.cpp).
TYPED_TEST(CoreKernelsGpu, ScalarPlaceStepsGiveTheBitsOfTheirTwinsWithHostScalars) {
  for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(1000), std::size_t(300'007)})
    test::check_scalar_place_kernels(TypeParam::backend, n);
}

// The fused multi_dot and multi_axpy give the bits of one dot / axpby per vector.
TYPED_TEST(CoreKernelsGpu, FusedGroupsGiveTheBitsOfOneCallPerVector) {
  const std::size_t n = 300'007;
  std::vector<Vector> v;
  std::vector<const double*> p;
  for (unsigned i = 0; i < 4; ++i)
    v.emplace_back(Backend::cuda, std::span<const double>(test::random_vector(n, 40 + i)));
  for (const Vector& x : v) p.push_back(x.data());
  const Vector w(Backend::cuda, std::span<const double>(test::random_vector(n, 50)));
  for (int k = 1; k <= 4; ++k) {
    double fused[4];
    TypeParam::multi_dot(p.data(), k, w.data(), fused, n);
    for (int i = 0; i < k; ++i) EXPECT_EQ(fused[i], TypeParam::dot(p[std::size_t(i)], w.data(), n)) << k << " " << i;
    const double alpha[4] = {0.5, -1.25, 2.0, 0.125};
    Vector a(Backend::cuda, std::span<const double>(test::random_vector(n, 60))), b(Backend::cuda, n);
    b.copy_from(a);
    TypeParam::multi_axpy(alpha, p.data(), k, a.data(), n);
    for (int i = 0; i < k; ++i) TypeParam::axpby(alpha[i], p[std::size_t(i)], 1.0, b.data(), n);
    EXPECT_EQ(a.to_host(), b.to_host()) << k;
  }
}

}  // namespace
}  // namespace tb
