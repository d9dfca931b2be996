// The multicolour kernel of kernels.hpp on OpenMP against its sequential twin
// kernels::ref, on small random inputs in both precisions and block sizes on
// both sides of the compile-time sizes (1..8, then a run-time loop). Rows of
// one colour are independent and each runs relax_row, so the result is bitwise
// the reference's for any thread count. The CUDA kernel is in
// test_multicolor_kernels_gpu.cpp.
#include <gtest/gtest.h>

#include <vector>

#include "kernel_inputs.hpp"
#include "solvers/core/error.hpp"
#include "solvers/multicolor/cuda/kernels.hpp"

namespace tb::multicolor {
namespace {

template <class R>
struct OmpKernels {
  using Real = R;
  static std::vector<double> sweep(const test::RelaxInputs& in) {
    std::vector<double> x = in.x;
    const RelaxView<Real> m = test::host_view<Real>(in);
    for (index_t k = 0; k < in.pattern.num_colours(); ++k)
      kernels::omp::relax_colour(m, in.pattern.colour_begin[k], in.pattern.colour_begin[k + 1], in.b.data(), x.data());
    return x;
  }
};

template <class K>
class MulticolorKernels : public ::testing::Test {};
using Backends = ::testing::Types<OmpKernels<float>, OmpKernels<double>>;
TYPED_TEST_SUITE(MulticolorKernels, Backends);

TYPED_TEST(MulticolorKernels, RelaxColourEqualsRefBitwise) {
  using Real = typename TypeParam::Real;
  for (index_t nb : {1, 3, 5, 8, 9, 12}) {
    const test::RelaxInputs in = test::small_relax_inputs(nb, test::precision_of<Real>(), unsigned(nb));
    const std::vector<double> want = test::ref_sweep<Real>(in);
    ASSERT_NE(want, in.x);
    EXPECT_EQ(TypeParam::sweep(in), want) << "nb = " << nb;
  }
}

TYPED_TEST(MulticolorKernels, RelaxColourOnThreadsEqualsRefBitwise) {
  using Real = typename TypeParam::Real;
  // A scalar 7-point grid of 52^3 rows: two colours of about 70,000 rows each.
  Stencil7Params p;
  p.nx = p.ny = p.nz = 52, p.block_size = 1, p.seed = 17;
  const test::RelaxInputs in = test::relax_inputs(generate_stencil7(p), test::precision_of<Real>(), 17);
  ASSERT_GE(long(test::widest_colour(in.pattern)), openmp_min_length);  // the threaded path runs
  EXPECT_EQ(TypeParam::sweep(in), test::ref_sweep<Real>(in));
}

TEST(MulticolorKernelDispatch, FollowsTheKernelSelectorAndRefusesCudaOnlyKernels) {
  const test::RelaxInputs in = test::small_relax_inputs(3, Precision::fp64, 23);
  const RelaxView<double> m = test::host_view<double>(in);
  const index_t begin = in.pattern.colour_begin[0], end = in.pattern.colour_begin[1];
  std::vector<double> want = in.x, by_ref = in.x, by_tuned = in.x;
  kernels::ref::relax_colour(m, begin, end, in.b.data(), want.data());
  kernels::relax_colour(Kernel::ref, m, begin, end, in.b.data(), by_ref.data());
  kernels::relax_colour(Kernel::tuned, m, begin, end, in.b.data(), by_tuned.data());
  EXPECT_EQ(by_ref, want);
  EXPECT_EQ(by_tuned, want);
  for (Kernel k : {Kernel::library, Kernel::fused, Kernel::automatic})
    EXPECT_THROW(kernels::relax_colour(k, m, begin, end, in.b.data(), by_ref.data()), Error) << int(k);
}

// The library baseline's cuSPARSE and cuBLAS are opened on first use, not
// linked: every function it calls must be found in the libraries the build
// was configured with. Needs no GPU.
TEST(MulticolorLibraryBaseline, VendorLibrariesOpenWithEveryFunction) {
#ifdef TB_WITH_CUDA
  EXPECT_NO_THROW(kernels::cuda::check_vendor_libraries());
#else
  GTEST_SKIP() << "built without CUDA: no library baseline";
#endif
}

}  // namespace
}  // namespace tb::multicolor
