// Element-parallel ParILUT kernels and Sampleselect's sample and filter kernels
// (seed 003). The loop bodies, positions, quantiles and tree layout are the
// host's (fixed_point.hpp, splitter_tree.hpp), so the GPU runs the arithmetic
// the CPU tests check and picks the splitters pick_splitters picks.
#include <cuda_runtime.h>

#include <algorithm>

#include "solvers/core/cuda/counted_copy.cuh"
#include "solvers/core/cuda/error_check.cuh"
#include "solvers/parilut/cuda/kernels.hpp"
#include "solvers/parilut/splitter_tree.hpp"

namespace tb::parilut::kernels::cuda {

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

}  // namespace tb::parilut::kernels::cuda

// Sampleselect (§III, Fig. 3).
namespace tb::parilut::kernels::cuda {

namespace {

constexpr int warp = 32;
constexpr int filter_threads = 256;
constexpr int filter_warps = filter_threads / warp;
// One thread per sample element: the whole sample sorts in one block.
constexpr int sample_threads = int(select_sample);
static_assert(sample_threads <= 1024 && (sample_threads & (sample_threads - 1)) == 0,
              "the bitonic sort needs a power-of-two sample that fits one block");

__global__ void pick_splitters_kernel(const double* data, std::size_t n, double* tree, double* splitters) {
  __shared__ double sample[sample_threads];
  const int t = int(threadIdx.x);
  sample[t] = data[sample_position(n, std::size_t(t))];
  __syncthreads();
  // Bitonic sort: stage `size` merges sorted runs of size/2 into runs of size,
  // ascending where bit `size` of the index is clear.
  for (int size = 2; size <= sample_threads; size <<= 1)
    for (int stride = size / 2; stride > 0; stride >>= 1) {
      const int partner = t ^ stride;
      if (partner > t) {
        const double a = sample[t], b = sample[partner];
        const bool ascending = (t & size) == 0;
        if ((a > b) == ascending) {
          sample[t] = b;
          sample[partner] = a;
        }
      }
      __syncthreads();
    }
  if (t < tree_splitters) {
    splitters[t] = sample[quantile_position(t)];
    tree[t] = sample[quantile_position(splitter_rank(t))];
  }
}

// Block b of the filter owns elements [b chunk, (b + 1) chunk).
struct Chunk {
  std::size_t begin, end;
};
__device__ Chunk chunk_of_block(std::size_t n, std::size_t chunk) {
  const std::size_t begin = std::size_t(blockIdx.x) * chunk;
  return {begin, begin + chunk < n ? begin + chunk : n};
}

__global__ void count_bucket_kernel(const std::uint8_t* oracles, std::size_t n, std::size_t chunk, int bucket,
                                    unsigned long long* block_counts) {
  __shared__ unsigned int total;
  if (threadIdx.x == 0) total = 0;
  __syncthreads();
  const Chunk c = chunk_of_block(n, chunk);
  unsigned int mine = 0;
  for (std::size_t i = c.begin + threadIdx.x; i < c.end; i += blockDim.x) mine += oracles[i] == bucket;
  atomicAdd(&total, mine);
  __syncthreads();
  if (threadIdx.x == 0) block_counts[blockIdx.x] = total;
}

// One block: in-place exclusive scan of `count` (<= blockDim.x) values.
__global__ void exclusive_scan_kernel(unsigned long long* values, int count) {
  __shared__ unsigned long long sums[filter_block_limit];
  const int t = int(threadIdx.x);
  const unsigned long long mine = t < count ? values[t] : 0;
  sums[t] = mine;
  __syncthreads();
  for (int d = 1; d < int(blockDim.x); d <<= 1) {
    const unsigned long long add = t >= d ? sums[t - d] : 0;
    __syncthreads();
    sums[t] += add;
    __syncthreads();
  }
  if (t < count) values[t] = sums[t] - mine;
}

// Each block walks its chunk in tiles of filter_threads elements; a kept
// element's place is the block's offset, the kept elements of earlier tiles,
// of earlier warps in this tile (shared counts) and of lower lanes (ballot).
__global__ void scatter_bucket_kernel(const double* data, const std::uint8_t* oracles, std::size_t n, std::size_t chunk,
                                      int bucket, const unsigned long long* offsets, double* out) {
  __shared__ unsigned int warp_counts[filter_warps];
  const Chunk c = chunk_of_block(n, chunk);
  const int lane = int(threadIdx.x) % warp, w = int(threadIdx.x) / warp;
  unsigned long long written = offsets[blockIdx.x];
  // The loop bounds are the same for every thread of the block, so all reach
  // the ballot and the barriers.
  for (std::size_t tile = c.begin; tile < c.end; tile += filter_threads) {
    const std::size_t i = tile + threadIdx.x;
    const bool keep = i < c.end && oracles[i] == bucket;
    const unsigned int ballot = __ballot_sync(0xffffffffu, keep);
    if (lane == 0) warp_counts[w] = unsigned(__popc(ballot));
    __syncthreads();
    unsigned int before = unsigned(__popc(ballot & ((1u << lane) - 1u)));
    unsigned int tile_total = 0;
    for (int v = 0; v < filter_warps; ++v) {
      if (v < w) before += warp_counts[v];
      tile_total += warp_counts[v];
    }
    if (keep) out[written + before] = data[i];
    written += tile_total;
    __syncthreads();  // warp_counts is rewritten by the next tile
  }
}

}  // namespace

void pick_splitters(const double* data, std::size_t n, double* tree, double* splitters) {
  if (n == 0) throw Error("cuda::pick_splitters: no data to sample");
  pick_splitters_kernel<<<1, sample_threads>>>(data, n, tree, splitters);
  cuda_error::check_launch("parilut pick_splitters_kernel");
}

void extract_bucket(const double* data, const std::uint8_t* oracles, std::size_t n, int bucket, double* out,
                    unsigned long long* block_scratch) {
  if (n == 0) return;
  const std::size_t blocks = std::min<std::size_t>((n + filter_threads - 1) / filter_threads, filter_block_limit);
  const std::size_t chunk = (n + blocks - 1) / blocks;
  count_bucket_kernel<<<unsigned(blocks), filter_threads>>>(oracles, n, chunk, bucket, block_scratch);
  cuda_error::check_launch("parilut count_bucket_kernel");
  exclusive_scan_kernel<<<1, filter_block_limit>>>(block_scratch, int(blocks));
  cuda_error::check_launch("parilut exclusive_scan_kernel");
  scatter_bucket_kernel<<<unsigned(blocks), filter_threads>>>(data, oracles, n, chunk, bucket, block_scratch, out);
  cuda_error::check_launch("parilut scatter_bucket_kernel");
}

void copy_to_host(const double* data, std::size_t n, double* host_out) {
  if (n == 0) return;
  cuda_error::throw_if(cuda_copy::memcpy(host_out, data, n * sizeof(double), cudaMemcpyDeviceToHost),
                       "cudaMemcpy of the selection's remainder to the host");
}

}  // namespace tb::parilut::kernels::cuda
