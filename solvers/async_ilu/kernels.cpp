// Backend dispatch of the asynchronous ILU kernels (TB_CUDA_CALL throws
// "built without CUDA" in host-only builds).
#include "kernels.hpp"

#include <string>

#include "group_row_kernels.hpp"
#include "solvers/core/cuda_call.hpp"
#include "solvers/core/error.hpp"
#include "solvers/core/transfers.hpp"

namespace tb::async_ilu {

GpuRows resolve_gpu_rows(GpuRows requested, index_t n) {
  if (n < 1 || n > max_group_block)
    throw Unsupported("async_ilu: the CUDA kernels take block sizes 1.." + std::to_string(max_group_block) + ", not " +
                      std::to_string(n));
  if (requested == GpuRows::automatic) return n <= 8 ? GpuRows::thread : GpuRows::group;
  if (requested == GpuRows::thread && n > 8)
    throw Unsupported(
        "async_ilu: gpu_rows=thread takes block sizes 1..8 (a block row in one thread's registers), not " +
        std::to_string(n) + "; use gpu_rows=group or auto");
  return requested;
}

index_t group_width(index_t n) {
  index_t w = 1;
  while (w < n) w *= 2;
  return w;
}

namespace kernels {

void initial_guess(Backend b, const FactorView& f, double* lu, double* dinv) {
  if (b == Backend::cuda) return TB_CUDA_CALL(cuda::initial_guess(f, lu, dinv));
  omp::initial_guess(f, lu, dinv);
}

index_t factor_sweeps(Backend b, const FactorView& f, FactorState s, int sweeps, Schedule schedule,
                      const SweepSplit& split) {
  if (b == Backend::cuda) return TB_CUDA_CALL(cuda::factor_sweeps(f, s, sweeps, schedule, split));
  // The first singular row, which a device reads back after the sweeps.
  transfers::count_twin_result(sizeof(index_t));
  return omp::factor_sweeps(f, s, sweeps, schedule, split);
}

void triangular_sweeps(Backend b, const FactorView& f, const ApplyState& s, const double* r, double* z, int sweeps,
                       Schedule schedule, const SweepSplit& split) {
  if (b == Backend::cuda) return TB_CUDA_CALL(cuda::triangular_sweeps(f, s, r, z, sweeps, schedule, split));
  omp::triangular_sweeps(f, s, r, z, sweeps, schedule, split);
}

}  // namespace kernels
}  // namespace tb::async_ilu
