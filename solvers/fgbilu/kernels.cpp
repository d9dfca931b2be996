// Dispatch of the FGBILU kernels on the backend (TB_CUDA_CALL throws "built
// without CUDA" in host-only builds).
#include "kernels.hpp"

#include "solvers/core/cuda_call.hpp"

namespace tb::fgbilu::kernels {

void residual(Backend b, const Stencil7View& a, const double* rhs, const double* x, double* r) {
  if (b == Backend::cuda) return TB_CUDA_CALL(cuda::residual(a, rhs, x, r));
  omp::residual(a, rhs, x, r);
}

void gather_blocks(Backend b, const index_t* map, index_t blocks, index_t nb, const double* values, double* coef) {
  if (b == Backend::cuda) return TB_CUDA_CALL(cuda::gather_blocks(map, blocks, nb, values, coef));
  omp::gather_blocks(map, blocks, nb, values, coef);
}

index_t acc_factor_plane(Backend b, const Stencil7View& a, double* d, index_t begin, index_t end, PlaneScratch s) {
  if (b == Backend::cuda) return TB_CUDA_CALL(cuda::acc_factor_plane(a, d, begin, end, s));
  return ref::acc_factor_plane(a, d, begin, end, s);
}

void acc_forward_plane(Backend b, const Stencil7View& a, const double* d, index_t begin, index_t end, const double* rhs,
                       double* x, double* z) {
  if (b == Backend::cuda) return TB_CUDA_CALL(cuda::acc_forward_plane(a, d, begin, end, rhs, x, z));
  ref::acc_forward_plane(a, d, begin, end, rhs, x, z);
}

void acc_backward_plane(Backend b, const Stencil7View& a, const double* d, index_t begin, index_t end, double* x,
                        double* z) {
  if (b == Backend::cuda) return TB_CUDA_CALL(cuda::acc_backward_plane(a, d, begin, end, x, z));
  ref::acc_backward_plane(a, d, begin, end, x, z);
}

}  // namespace tb::fgbilu::kernels
