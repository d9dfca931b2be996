// Backend dispatch of the asynchronous ILU kernels (TB_CUDA_CALL throws
// "built without CUDA" in host-only builds).
#include "kernels.hpp"

#include "solvers/core/cuda_call.hpp"

namespace tb::async_ilu::kernels {

index_t factor_sweeps(Backend b, const FactorView& f, FactorState s, int sweeps, Schedule schedule, int chunk) {
  if (b == Backend::cuda) return TB_CUDA_CALL(cuda::factor_sweeps(f, s, sweeps, schedule, chunk));
  return omp::factor_sweeps(f, s, sweeps, schedule, chunk);
}

void triangular_sweeps(Backend b, const FactorView& f, const ApplyState& s, const double* r, double* z, int sweeps,
                       Schedule schedule, int chunk) {
  if (b == Backend::cuda) return TB_CUDA_CALL(cuda::triangular_sweeps(f, s, r, z, sweeps, schedule, chunk));
  omp::triangular_sweeps(f, s, r, z, sweeps, schedule, chunk);
}

}  // namespace tb::async_ilu::kernels
