// bsrilu02 and bsrsv2 are deprecated in CUDA 12/13 but are the only cuSPARSE
// BSR ILU(0) and BSR triangular solve: the issue names them as the baseline, so
// their deprecation warnings are switched off here and only here.
#define DISABLE_CUSPARSE_DEPRECATED
#include <cuda_runtime.h>
#include <cusparse.h>

#include <algorithm>
#include <limits>
#include <string>

#include "cusparse_bilu0.hpp"
#include "solvers/core/cuda/error_check.cuh"

namespace tb::bench::gpu {

namespace {

void check(cusparseStatus_t s, const char* what) {
  if (s != CUSPARSE_STATUS_SUCCESS)
    throw Error(std::string("cuSPARSE ") + what + " failed: " + cusparseGetErrorString(s));
}

template <class T>
struct DeviceArray {
  explicit DeviceArray(std::size_t n) {
    cuda_error::throw_if(cudaMalloc(&p, std::max<std::size_t>(n, 1) * sizeof(T)), "cudaMalloc");
  }
  ~DeviceArray() { cudaFree(p); }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;
  T* p = nullptr;
};

// Milliseconds of f() between two events.
template <class F>
float event_ms(F&& f) {
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  cudaEventRecord(start);
  f();
  cudaEventRecord(stop);
  cudaEventSynchronize(stop);
  float ms = 0.0f;
  cudaEventElapsedTime(&ms, start, stop);
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  return ms;
}

}  // namespace

CusparseBilu0Seconds cusparse_bilu0_seconds(const BsrMatrix& a, int reps) {
  const int mb = a.block_rows, nnzb = a.nnz_blocks(), bs = a.block_size;
  const std::size_t nval = a.values.size(), n = std::size_t(a.rows());
  DeviceArray<int> row_ptr(a.row_ptr.size()), col_idx(a.col_idx.size());
  DeviceArray<double> original(nval), lu(nval), x(n), y(n), z(n);
  cuda_error::throw_if(cudaMemcpy(row_ptr.p, a.row_ptr.data(), a.row_ptr.size() * sizeof(int), cudaMemcpyHostToDevice),
                       "cudaMemcpy");
  cuda_error::throw_if(cudaMemcpy(col_idx.p, a.col_idx.data(), a.col_idx.size() * sizeof(int), cudaMemcpyHostToDevice),
                       "cudaMemcpy");
  cuda_error::throw_if(cudaMemcpy(original.p, a.values.data(), nval * sizeof(double), cudaMemcpyHostToDevice),
                       "cudaMemcpy");
  cuda_error::throw_if(cudaMemset(x.p, 0, n * sizeof(double)), "cudaMemset");

  cusparseHandle_t h;
  check(cusparseCreate(&h), "create");
  cusparseMatDescr_t dm, dl, du;
  cusparseCreateMatDescr(&dm);
  cusparseCreateMatDescr(&dl);
  cusparseSetMatFillMode(dl, CUSPARSE_FILL_MODE_LOWER);
  cusparseSetMatDiagType(dl, CUSPARSE_DIAG_TYPE_UNIT);
  cusparseCreateMatDescr(&du);
  cusparseSetMatFillMode(du, CUSPARSE_FILL_MODE_UPPER);
  cusparseSetMatDiagType(du, CUSPARSE_DIAG_TYPE_NON_UNIT);
  bsrilu02Info_t ilu;
  bsrsv2Info_t il, iu;
  cusparseCreateBsrilu02Info(&ilu);
  cusparseCreateBsrsv2Info(&il);
  cusparseCreateBsrsv2Info(&iu);
  // The project's blocks are row-major.
  const cusparseDirection_t dir = CUSPARSE_DIRECTION_ROW;
  const cusparseOperation_t op = CUSPARSE_OPERATION_NON_TRANSPOSE;
  const cusparseSolvePolicy_t pol = CUSPARSE_SOLVE_POLICY_USE_LEVEL;
  int b1 = 0, b2 = 0, b3 = 0;
  check(cusparseDbsrilu02_bufferSize(h, dir, mb, nnzb, dm, lu.p, row_ptr.p, col_idx.p, bs, ilu, &b1),
        "bsrilu02_bufferSize");
  check(cusparseDbsrsv2_bufferSize(h, dir, op, mb, nnzb, dl, lu.p, row_ptr.p, col_idx.p, bs, il, &b2),
        "bsrsv2_bufferSize");
  check(cusparseDbsrsv2_bufferSize(h, dir, op, mb, nnzb, du, lu.p, row_ptr.p, col_idx.p, bs, iu, &b3),
        "bsrsv2_bufferSize");
  DeviceArray<char> buffer(std::size_t(std::max({b1, b2, b3})));
  cuda_error::throw_if(cudaMemcpy(lu.p, original.p, nval * sizeof(double), cudaMemcpyDeviceToDevice), "cudaMemcpy");
  check(cusparseDbsrilu02_analysis(h, dir, mb, nnzb, dm, lu.p, row_ptr.p, col_idx.p, bs, ilu, pol, buffer.p),
        "bsrilu02_analysis");
  check(cusparseDbsrsv2_analysis(h, dir, op, mb, nnzb, dl, lu.p, row_ptr.p, col_idx.p, bs, il, pol, buffer.p),
        "bsrsv2_analysis");
  check(cusparseDbsrsv2_analysis(h, dir, op, mb, nnzb, du, lu.p, row_ptr.p, col_idx.p, bs, iu, pol, buffer.p),
        "bsrsv2_analysis");

  CusparseBilu0Seconds best{std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity()};
  const double one = 1.0;
  for (int r = 0; r <= std::max(reps, 1); ++r) {  // r = 0: warm-up
    cudaMemcpy(lu.p, original.p, nval * sizeof(double), cudaMemcpyDeviceToDevice);
    const float f = event_ms([&] {
      check(cusparseDbsrilu02(h, dir, mb, nnzb, dm, lu.p, row_ptr.p, col_idx.p, bs, ilu, pol, buffer.p), "bsrilu02");
    });
    const float s = event_ms([&] {
      check(cusparseDbsrsv2_solve(h, dir, op, mb, nnzb, &one, dl, lu.p, row_ptr.p, col_idx.p, bs, il, x.p, y.p, pol,
                                  buffer.p),
            "bsrsv2_solve L");
      check(cusparseDbsrsv2_solve(h, dir, op, mb, nnzb, &one, du, lu.p, row_ptr.p, col_idx.p, bs, iu, y.p, z.p, pol,
                                  buffer.p),
            "bsrsv2_solve U");
    });
    if (r > 0) {
      best.factor = std::min(best.factor, 1e-3 * f);
      best.solve = std::min(best.solve, 1e-3 * s);
    }
  }
  cusparseDestroyBsrsv2Info(iu);
  cusparseDestroyBsrsv2Info(il);
  cusparseDestroyBsrilu02Info(ilu);
  cusparseDestroyMatDescr(du);
  cusparseDestroyMatDescr(dl);
  cusparseDestroyMatDescr(dm);
  cusparseDestroy(h);
  return best;
}

}  // namespace tb::bench::gpu
