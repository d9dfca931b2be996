// CUDA twins of the distributed product's device steps (kernels.hpp): one
// thread per send item or interface row, running the host's bodies
// (halo_rows.hpp). Compiled without FMA contraction, so a row's sum has the
// host's bits.
#include <cuda_runtime.h>

#include "solvers/core/cuda/error_check.cuh"
#include "solvers/dist/halo_rows.hpp"
#include "solvers/dist/kernels.hpp"

namespace tb::dist::kernels::cuda {

namespace {

constexpr int threads = 128;

int blocks_for(index_t n) { return int((n + threads - 1) / threads); }

__global__ void gather_kernel(const double* src, const index_t* items, index_t count, index_t width, double* out) {
  const index_t s = index_t(blockIdx.x * blockDim.x + threadIdx.x);
  if (s < count) gather_item(src, items, width, out, s);
}

__global__ void scatter_kernel(const double* in, const index_t* items, index_t count, index_t width, double* dst) {
  const index_t s = index_t(blockIdx.x * blockDim.x + threadIdx.x);
  if (s < count) scatter_item(in, items, width, dst, s);
}

__global__ void rows_product_kernel(BsrView off, const index_t* rows, index_t count, const double* x, double* y) {
  const index_t k = index_t(blockIdx.x * blockDim.x + threadIdx.x);
  if (k < count) add_row_product(off, rows, x, y, k);
}

}  // namespace

void gather_items(const double* src, const index_t* items, index_t count, index_t width, double* out) {
  gather_kernel<<<blocks_for(count), threads>>>(src, items, count, width, out);
  cuda_error::check_launch("gather_items");
}

void scatter_items(const double* in, const index_t* items, index_t count, index_t width, double* dst) {
  scatter_kernel<<<blocks_for(count), threads>>>(in, items, count, width, dst);
  cuda_error::check_launch("scatter_items");
}

void add_rows_product(const BsrView& off, const index_t* rows, index_t count, const double* x, double* y) {
  rows_product_kernel<<<blocks_for(count), threads>>>(off, rows, count, x, y);
  cuda_error::check_launch("add_rows_product");
}

void finish_kernels() { cuda_error::throw_if(cudaDeviceSynchronize(), "cudaDeviceSynchronize"); }

}  // namespace tb::dist::kernels::cuda
