// Dispatch of the BSR product on the backend the pointers live on
// (TB_CUDA_CALL throws "built without CUDA" in host-only builds).
#include "kernels.hpp"

#include "solvers/core/cuda_call.hpp"

namespace tb::kernels {

void bsr_spmv(Backend b, const BsrView& a, const double* x, double* y) {
  if (b == Backend::cuda) return TB_CUDA_CALL(cuda::bsr_spmv(a, x, y));
  omp::bsr_spmv(a, x, y);
}

}  // namespace tb::kernels
