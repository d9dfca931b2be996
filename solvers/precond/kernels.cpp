// The dispatch of the room's kernels (kernels.hpp) on the backend the pointers
// live on: the host runs omp::.
#include "kernels.hpp"

#include "solvers/core/cuda_call.hpp"

namespace tb::precond::kernels {

index_t invert_diagonal(Backend b, const BsrView& a, const index_t* diagonal, bool whole_blocks, double* inverse,
                        index_t* flag) {
  if (b == Backend::cuda) return TB_CUDA_CALL(cuda::invert_diagonal(a, diagonal, whole_blocks, inverse, flag));
  return omp::invert_diagonal(a, diagonal, whole_blocks, inverse, flag);
}

}  // namespace tb::precond::kernels
