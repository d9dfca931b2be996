// Element-parallel ParILUT kernels (seed 003). The loop bodies are the host's
// (fixed_point.hpp, splitter_tree.hpp), so the GPU runs the arithmetic the CPU
// tests check.
#include <cuda_runtime.h>

#include <algorithm>

#include "parilut_kernels.hpp"
#include "solvers/core/cuda/error_check.cuh"
#include "solvers/parilut/splitter_tree.hpp"

namespace tb::parilut::cuda {

namespace {

constexpr int threads = 256;          // the paper's default block size
constexpr int select_threads = 1024;  // §V-A: the selection uses the largest block for its shared atomics

unsigned blocks_for(std::size_t work, int per_block) { return unsigned((work + per_block - 1) / per_block); }

__global__ void sweep_l_kernel(FactorView v, const index_t* l_row, index_t l_nnz) {
  const index_t p = index_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (p >= l_nnz) return;
  const index_t i = l_row[p], j = v.l_col[p];
  if (j != i) v.l_val[p] = l_entry(v, i, j, PlainLoad{});  // L's unit diagonal stays
}

__global__ void sweep_u_kernel(FactorView v, const index_t* u_row, index_t u_nnz) {
  const index_t p = index_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (p >= u_nnz) return;
  v.u_val[p] = u_entry(v, u_row[p], v.u_col[p], PlainLoad{});
}

__global__ void residual_kernel(FactorView v, const index_t* c_row, const index_t* c_col, index_t nnz, double* r) {
  const index_t p = index_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (p >= nnz) return;
  const index_t i = c_row[p], j = c_col[p];
  r[p] = a_value(v, i, j) - lu_dot(v, i, j, (i < j ? i : j) + 1, PlainLoad{});
}

// Each block counts into shared memory, then adds its counts to the global
// ones: one global atomic per bucket and block instead of one per element.
__global__ void classify_kernel(const double* data, std::size_t n, const double* tree, std::uint8_t* oracles,
                                unsigned long long* counts) {
  __shared__ double shared_tree[tree_splitters];
  __shared__ unsigned int local[select_buckets];
  for (int t = threadIdx.x; t < tree_splitters; t += blockDim.x) shared_tree[t] = tree[t];
  for (int b = threadIdx.x; b < select_buckets; b += blockDim.x) local[b] = 0;
  __syncthreads();
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x) {
    const int b = bucket_of(shared_tree, data[i]);
    oracles[i] = std::uint8_t(b);
    atomicAdd(&local[b], 1u);
  }
  __syncthreads();
  for (int b = threadIdx.x; b < select_buckets; b += blockDim.x)
    if (local[b]) atomicAdd(&counts[b], (unsigned long long)local[b]);
}

}  // namespace

void sweep(const FactorView& v, const index_t* l_row, index_t l_nnz, const index_t* u_row, index_t u_nnz) {
  if (l_nnz > 0) sweep_l_kernel<<<blocks_for(std::size_t(l_nnz), threads), threads>>>(v, l_row, l_nnz);
  cuda_error::check_launch("parilut sweep_l_kernel");
  if (u_nnz > 0) sweep_u_kernel<<<blocks_for(std::size_t(u_nnz), threads), threads>>>(v, u_row, u_nnz);
  cuda_error::check_launch("parilut sweep_u_kernel");
}

void candidate_residuals(const FactorView& v, const index_t* c_row, const index_t* c_col, index_t nnz, double* r) {
  if (nnz == 0) return;
  residual_kernel<<<blocks_for(std::size_t(nnz), threads), threads>>>(v, c_row, c_col, nnz, r);
  cuda_error::check_launch("parilut residual_kernel");
}

void classify(const double* data, std::size_t n, const double* tree, std::uint8_t* oracles,
              unsigned long long* counts) {
  cuda_error::throw_if(cudaMemset(counts, 0, select_buckets * sizeof(unsigned long long)), "cudaMemset");
  if (n == 0) return;
  // Enough blocks to fill the device a few times over; each strides through the data.
  const unsigned blocks = std::min(blocks_for(n, select_threads), 1024u);
  classify_kernel<<<blocks, select_threads>>>(data, n, tree, oracles, counts);
  cuda_error::check_launch("parilut classify_kernel");
}

}  // namespace tb::parilut::cuda
