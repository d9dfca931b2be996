// The multicolour kernel of kernels.hpp on CUDA (one thread per block row)
// against the sequential twin kernels::ref, on the inputs of
// test_multicolor_kernels.cpp. The device holds the blocks column-major. Not
// bitwise: nvcc contracts relax_row's multiply-adds into FMAs, so a stated
// tolerance of 1e-12 relative. Skips with the reason when no device is visible.
#include <gtest/gtest.h>

#include <span>
#include <string>
#include <vector>

#include "../../common/systems.hpp"
#include "kernel_inputs.hpp"
#include "solvers/core/array.hpp"
#include "solvers/core/backend.hpp"
#include "solvers/core/cuda_call.hpp"

namespace tb::multicolor {
namespace {

template <class T>
std::vector<T> column_major(const std::vector<T>& row_major, index_t n) {
  std::vector<T> out(row_major.size());
  const std::size_t bb = std::size_t(n) * n;
  for (std::size_t k = 0; k < row_major.size(); k += bb)
    for (index_t r = 0; r < n; ++r)
      for (index_t c = 0; c < n; ++c) out[k + c * n + r] = row_major[k + r * n + c];
  return out;
}

template <class R>
struct CudaKernels {
  using Real = R;
  static std::vector<double> sweep(const test::RelaxInputs& in) {
    const index_t n = in.pattern.block_size;
    const Array<index_t> ia(Backend::cuda, std::span<const index_t>(in.pattern.ia));
    const Array<index_t> ja(Backend::cuda, std::span<const index_t>(in.pattern.ja));
    const std::vector<double> d_cm = column_major(in.values.d, n);
    const std::vector<Real> o_cm = column_major(test::off_diagonal<Real>(in.values), n);
    const Array<double> d(Backend::cuda, std::span<const double>(d_cm));
    const Array<Real> o(Backend::cuda, std::span<const Real>(o_cm));
    const Vector b(Backend::cuda, std::span<const double>(in.b));
    Vector x(Backend::cuda, std::span<const double>(in.x));
    const RelaxView<Real> m{n, ia.data(), ja.data(), d.data(), o.data()};
    for (index_t k = 0; k < in.pattern.num_colours(); ++k)
      TB_CUDA_CALL(kernels::cuda::relax_colour(m, in.pattern.colour_begin[k], in.pattern.colour_begin[k + 1], b.data(),
                                               x.data()));
    return x.to_host();
  }
};

template <class K>
class MulticolorKernelsGpu : public ::testing::Test {
 protected:
  void SetUp() override {
    if (const std::string why = cuda_unavailable_reason(); !why.empty()) GTEST_SKIP() << why;
  }
};
using Backends = ::testing::Types<CudaKernels<float>, CudaKernels<double>>;
TYPED_TEST_SUITE(MulticolorKernelsGpu, Backends);

TYPED_TEST(MulticolorKernelsGpu, RelaxColourEqualsRef) {
  using Real = typename TypeParam::Real;
  for (index_t nb : {1, 3, 5, 8, 9, 12, 33}) {
    const test::RelaxInputs in = test::small_relax_inputs(nb, test::precision_of<Real>(), unsigned(nb));
    const std::vector<double> want = test::ref_sweep<Real>(in);
    EXPECT_LT(test::max_abs_diff(TypeParam::sweep(in), want), 1e-12 * test::max_abs(want)) << "nb = " << nb;
  }
}

}  // namespace
}  // namespace tb::multicolor
