// The core room's OpenMP kernels (TB_CORE_KERNELS) against their sequential
// twins, on lengths below and above threading::stream_grain (serial and
// threaded paths); the checks and their tolerances are in kernel_checks.hpp.
// The steps with their scalars in the vectors' memory against their twins
// with host scalars. The CUDA kernels are in test_core_kernels_gpu.cpp.
#include <gtest/gtest.h>

#include "kernel_checks.hpp"
#include "solvers/core/backend.hpp"

namespace tb {
namespace {

struct OmpKernels {
  static constexpr Backend backend = Backend::host;
  static double dot(const double* x, const double* y, std::size_t n) { return kernels::omp::dot(x, y, n); }
  static void axpby(double a, const double* x, double b, double* y, std::size_t n) {
    kernels::omp::axpby(a, x, b, y, n);
  }
  static void axpbypcz(double a, const double* x, double b, const double* y, double c, double* z, std::size_t n) {
    kernels::omp::axpbypcz(a, x, b, y, c, z, n);
  }
  static void scale(double a, double* x, std::size_t n) { kernels::omp::scale(a, x, n); }
  static void fill(double* x, double v, std::size_t n) { kernels::omp::fill(x, v, n); }
  static bool all_finite(const double* x, std::size_t n) { return kernels::omp::all_finite(x, n); }
  static void multi_dot(const double* const* v, int k, const double* w, double* out, std::size_t n) {
    kernels::omp::multi_dot(v, k, w, out, n);
  }
  static void multi_axpy(const double* alpha, const double* const* v, int k, double* w, std::size_t n) {
    kernels::omp::multi_axpy(alpha, v, k, w, n);
  }
};

template <class K>
class CoreKernels : public ::testing::Test {};
using Backends = ::testing::Types<OmpKernels>;
TYPED_TEST_SUITE(CoreKernels, Backends);

TYPED_TEST(CoreKernels, EveryKernelEqualsRef) {
  for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(1000), std::size_t(300'007)})
    test::check_core_kernels<TypeParam>(n);
}

TEST(ScalarPlaceKernels, GiveTheBitsOfTheirTwinsWithHostScalars) {
  for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(1000), std::size_t(300'007)})
    test::check_scalar_place_kernels(Backend::host, n);
}

}  // namespace
}  // namespace tb
