// CUDA twin of invert_diagonal (kernels.hpp): one thread per block row running
// the host's row body (diagonal_inverse.hpp); the first bad row by atomicMin
// on a device flag, read back in one small copy.
#include <cuda_runtime.h>

#include <climits>

#include "solvers/core/cuda/counted_copy.cuh"
#include "solvers/core/cuda/error_check.cuh"
#include "solvers/precond/diagonal_inverse.hpp"
#include "solvers/precond/kernels.hpp"

namespace tb::precond::kernels::cuda {

namespace {

constexpr int threads = 128;

__global__ void invert_rows(BsrView a, const index_t* diagonal, bool whole_blocks, double* inverse, index_t* bad) {
  const index_t i = index_t(blockIdx.x * blockDim.x + threadIdx.x);
  if (i >= a.block_rows) return;
  if (!invert_diagonal_row(a, diagonal, whole_blocks, inverse, i)) atomicMin(bad, i);
}

}  // namespace

index_t invert_diagonal(const BsrView& a, const index_t* diagonal, bool whole_blocks, double* inverse, index_t* flag) {
  if (a.block_rows == 0) return -1;
  const index_t none = INT_MAX;
  cuda_error::throw_if(cuda_copy::memcpy(flag, &none, sizeof(index_t), cudaMemcpyHostToDevice), "cudaMemcpy");
  invert_rows<<<(a.block_rows + threads - 1) / threads, threads>>>(a, diagonal, whole_blocks, inverse, flag);
  cuda_error::check_launch("invert_diagonal");
  index_t bad = none;
  cuda_error::throw_if(cuda_copy::memcpy(&bad, flag, sizeof(index_t), cudaMemcpyDeviceToHost), "cudaMemcpy");
  return bad == none ? -1 : bad;
}

}  // namespace tb::precond::kernels::cuda
