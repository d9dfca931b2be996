// The matrix room's kernel (kernels.hpp, bsr_spmv) on CUDA against its
// sequential twin kernels::ref, on the inputs of test_matrix_kernels.cpp: each
// row within the rounding bound of a sum of products in any order (the device
// groups the sums differently and contracts them into FMAs). Skips with the
// reason when no device is visible.
#include <gtest/gtest.h>

#include <span>
#include <string>
#include <vector>

#include "../../common/random.hpp"
#include "solvers/core/array.hpp"
#include "solvers/core/backend.hpp"
#include "solvers/core/cuda_call.hpp"
#include "solvers/matrix/kernels.hpp"
#include "spmv_inputs.hpp"

namespace tb {
namespace {

struct CudaKernels {
  static std::vector<double> bsr_spmv(const BsrMatrix& a, const std::vector<double>& x) {
    const Array<index_t> row_ptr(Backend::cuda, std::span<const index_t>(a.row_ptr));
    const Array<index_t> col_idx(Backend::cuda, std::span<const index_t>(a.col_idx));
    const Vector values(Backend::cuda, std::span<const double>(a.values));
    const Vector xd(Backend::cuda, std::span<const double>(x));
    Vector y(Backend::cuda, std::span<const double>(std::vector<double>(std::size_t(a.rows()), 99.0)));
    const BsrView v{a.block_size, a.block_rows, a.block_cols, row_ptr.data(), col_idx.data(), values.data()};
    TB_CUDA_CALL(kernels::cuda::bsr_spmv(v, xd.data(), y.data()));
    return y.to_host();
  }
};

template <class K>
class MatrixKernelsGpu : public ::testing::Test {
 protected:
  void SetUp() override {
    if (const std::string why = cuda_unavailable_reason(); !why.empty()) GTEST_SKIP() << why;
  }
};
using Backends = ::testing::Types<CudaKernels>;
TYPED_TEST_SUITE(MatrixKernelsGpu, Backends);

TYPED_TEST(MatrixKernelsGpu, BsrSpmvEqualsRef) {
  for (index_t bs : {1, 2, 3, 4, 5, 6, 7, 8, 9, 13, 32, 64}) {
    for (const BsrMatrix& a : {test::random_bsr(bs > 8 ? 60 : 200, bs, unsigned(40 + bs)), test::stencil(bs)}) {
      const std::vector<double> x = test::random_vector(std::size_t(a.cols()), unsigned(bs));
      std::vector<double> want(std::size_t(a.rows()));
      kernels::ref::bsr_spmv(view(a), x.data(), want.data());
      const std::vector<double> got = TypeParam::bsr_spmv(a, x), tol = test::row_tolerance(a, x);
      for (std::size_t i = 0; i < got.size(); ++i) ASSERT_NEAR(got[i], want[i], tol[i]) << "bs " << bs << ", row " << i;
    }
  }
}

}  // namespace
}  // namespace tb
