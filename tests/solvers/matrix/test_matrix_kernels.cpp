// The matrix room's kernel (kernels.hpp, bsr_spmv) on OpenMP against its
// sequential twin kernels::ref, on small random matrices: irregular patterns
// (empty rows, long rows) and every block size with a compile-time kernel
// (1..8) and the run-time loop (9, 13). For block size 1 both sum a row in one
// chain: bitwise. Above it omp:: sums each block's products first, ref:: one
// chain over the row, so each row within the rounding bound of a sum of
// products in any order (row_tolerance). The CUDA kernel is in
// test_matrix_kernels_gpu.cpp.
#include <gtest/gtest.h>

#include <vector>

#include "../../common/random.hpp"
#include "solvers/matrix/kernels.hpp"
#include "spmv_inputs.hpp"

namespace tb {
namespace {

struct OmpKernels {
  static std::vector<double> bsr_spmv(const BsrMatrix& a, const std::vector<double>& x) {
    std::vector<double> y(std::size_t(a.rows()), 99.0);  // every entry must be overwritten
    kernels::omp::bsr_spmv(view(a), x.data(), y.data());
    return y;
  }
};

template <class K>
class MatrixKernels : public ::testing::Test {};
using Backends = ::testing::Types<OmpKernels>;
TYPED_TEST_SUITE(MatrixKernels, Backends);

std::vector<double> ref_product(const BsrMatrix& a, const std::vector<double>& x) {
  std::vector<double> y(std::size_t(a.rows()), -99.0);
  kernels::ref::bsr_spmv(view(a), x.data(), y.data());
  return y;
}

void expect_within(const std::vector<double>& got, const std::vector<double>& want, const std::vector<double>& tol,
                   index_t bs) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < got.size(); ++i) ASSERT_NEAR(got[i], want[i], tol[i]) << "bs " << bs << ", row " << i;
}

TYPED_TEST(MatrixKernels, BsrSpmvEqualsRef) {
  for (index_t bs : {1, 2, 3, 4, 5, 6, 7, 8, 9, 13}) {
    for (const BsrMatrix& a : {test::random_bsr(bs > 8 ? 60 : 200, bs, unsigned(40 + bs)), test::stencil(bs)}) {
      const std::vector<double> x = test::random_vector(std::size_t(a.cols()), unsigned(bs));
      const std::vector<double> want = ref_product(a, x), got = TypeParam::bsr_spmv(a, x);
      if (bs == 1)
        EXPECT_EQ(got, want);
      else
        expect_within(got, want, test::row_tolerance(a, x), bs);
    }
  }
}

// Above openmp_min_length rows the product runs threaded; rows are
// independent, so each stays within its bound of ref::.
TYPED_TEST(MatrixKernels, BsrSpmvOnThreadsEqualsRef) {
  Stencil7Params p;
  p.nx = 32, p.ny = 32, p.nz = 24, p.block_size = 3, p.seed = 5;
  const BsrMatrix a = generate_stencil7(p);
  ASSERT_GE(long(a.rows()), openmp_min_length);
  const std::vector<double> x = test::random_vector(std::size_t(a.cols()), 6);
  expect_within(TypeParam::bsr_spmv(a, x), ref_product(a, x), test::row_tolerance(a, x), 3);
}

TEST(MatrixKernelDispatch, HostRunsOmp) {
  const BsrMatrix a = test::stencil(4);
  const std::vector<double> x = test::random_vector(std::size_t(a.cols()), 7);
  std::vector<double> y(x.size()), y_omp(x.size());
  kernels::bsr_spmv(Backend::host, view(a), x.data(), y.data());
  kernels::omp::bsr_spmv(view(a), x.data(), y_omp.data());
  EXPECT_EQ(y, y_omp);
}

}  // namespace
}  // namespace tb
