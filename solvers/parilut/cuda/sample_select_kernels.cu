// Sampleselect's sample and filter kernels (seed 003 §III). The positions,
// quantiles and tree layout are the host's (splitter_tree.hpp), so the device
// picks the same splitters as pick_splitters.
#include <cuda_runtime.h>

#include <algorithm>

#include "sample_select_kernels.hpp"
#include "solvers/core/cuda/counted_copy.cuh"
#include "solvers/core/cuda/error_check.cuh"
#include "solvers/parilut/splitter_tree.hpp"

namespace tb::parilut::cuda {

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

}  // namespace tb::parilut::cuda
