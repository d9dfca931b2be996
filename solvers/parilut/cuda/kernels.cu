// Element-parallel ParILUT kernels and Sampleselect's sample and filter kernels
// (seed 003). The loop bodies, positions, quantiles and tree layout are the
// host's (fixed_point.hpp, splitter_tree.hpp), so the GPU runs the arithmetic
// the CPU tests check and picks the splitters pick_splitters picks.
#include <cuda_runtime.h>

#include <algorithm>

#include "solvers/core/cuda/counted_copy.cuh"
#include "solvers/core/cuda/error_check.cuh"
#include "solvers/parilut/cuda/kernels.hpp"
#include "solvers/parilut/kernels.hpp"
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
  if (l_nnz > 0) {
    sweep_l_kernel<<<blocks_for(std::size_t(l_nnz), threads), threads>>>(v, l_row, l_nnz);
    cuda_error::check_launch("parilut sweep_l_kernel");
  }
  if (u_nnz > 0) {
    sweep_u_kernel<<<blocks_for(std::size_t(u_nnz), threads), threads>>>(v, u_row, u_nnz);
    cuda_error::check_launch("parilut sweep_u_kernel");
  }
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

// The step pipeline (TB_PARILUT_STEP_KERNELS, kernels.hpp): a thread per row
// (or per entry, or per column) running the bodies of step_rows.hpp.
namespace tb::parilut::kernels::cuda {

namespace {

constexpr int scan_threads = 256;

__device__ index_t thread_index() { return index_t(blockIdx.x) * index_t(blockDim.x) + index_t(threadIdx.x); }

__global__ void candidates_kernel(StepView s, bool fill) {
  const index_t i = thread_index();
  if (i >= s.n) return;
  if (fill)
    candidate_row<true>(s, i);
  else
    s.c.ptr[i + 1] = candidate_row<false>(s, i);
}

__global__ void candidate_residuals_kernel(StepView s) {
  const index_t i = thread_index();
  if (i < s.n) candidate_residual_row(s, i);
}

__global__ void add_kernel(StepView s, bool fill) {
  const index_t i = thread_index();
  if (i >= s.n) return;
  if (fill) {
    add_row<true>(s, s.l, true, s.next_l, i);
    add_row<true>(s, s.u, false, s.next_u, i);
  } else {
    s.next_l.ptr[i + 1] = add_row<false>(s, s.l, true, s.next_l, i);
    s.next_u.ptr[i + 1] = add_row<false>(s, s.u, false, s.next_u, i);
  }
}

__global__ void column_count_kernel(StepView s, index_t u_nnz) {
  const index_t p = thread_index();
  if (p < u_nnz) atomicAdd(&s.uc_ptr[s.u.col[p] + 1], 1);
}

__global__ void column_cursor_kernel(StepView s) {
  const index_t j = thread_index();
  if (j < s.n) s.uc_next[j] = s.uc_ptr[j];
}

__global__ void column_place_kernel(StepView s, index_t u_nnz) {
  const index_t p = thread_index();
  if (p < u_nnz) place_column_entry(s, p, atomicAdd(&s.uc_next[s.u.col[p]], 1));
}

__global__ void column_sort_kernel(StepView s) {
  const index_t j = thread_index();
  if (j < s.n) sort_column(s, j);
}

__global__ void sweep_l_step_kernel(StepView s, index_t nnz) {
  const index_t p = thread_index();
  if (p < nnz) sweep_l_entry(s, p);
}

__global__ void sweep_u_step_kernel(StepView s, index_t nnz) {
  const index_t p = thread_index();
  if (p < nnz) sweep_u_entry(s, p);
}

__global__ void magnitudes_kernel(CsrView f, bool lower, index_t nnz, double* m) {
  const index_t p = thread_index();
  if (p < nnz) magnitude_entry(f, lower, p, m);
}

__global__ void ties_kernel(CsrView f, index_t n, double t, index_t* counts) {
  const index_t i = thread_index();
  if (i < n) counts[i + 1] = tie_row(f, t, i);
}

__global__ void prune_kernel(CsrView f, index_t n, DropRule rule, const index_t* first_tie, CsrView out, bool fill) {
  const index_t i = thread_index();
  if (i >= n) return;
  if (fill)
    prune_row<true>(f, rule.threshold, rule.drop_ties, first_tie[i], out, i);
  else
    out.ptr[i + 1] = prune_row<false>(f, rule.threshold, rule.drop_ties, first_tie[i], out, i);
}

__global__ void lower_solve_kernel(CsrView l, const index_t* rows, index_t count, const double* r, double* y) {
  const index_t k = thread_index();
  if (k < count) lower_solve_row(l, rows[k], r, y);
}

__global__ void upper_solve_kernel(CsrView u, const index_t* rows, index_t count, const double* y, double* z) {
  const index_t k = thread_index();
  if (k < count) upper_solve_row(u, rows[k], y, z);
}

// The scan of x[0, n) (x = v + 1) in three kernels: each block sums its chunk,
// one block scans the sums, each block scans its chunk tile by tile from its
// offset (Hillis-Steele in shared memory).
__global__ void chunk_sums_kernel(const index_t* x, index_t n, index_t chunk, index_t* sums) {
  __shared__ index_t total;
  if (threadIdx.x == 0) total = 0;
  __syncthreads();
  const index_t begin = index_t(blockIdx.x) * chunk, end = begin + chunk < n ? begin + chunk : n;
  index_t mine = 0;
  for (index_t i = begin + index_t(threadIdx.x); i < end; i += index_t(blockDim.x)) mine += x[i];
  atomicAdd(&total, mine);
  __syncthreads();
  if (threadIdx.x == 0) sums[blockIdx.x] = total;
}

__global__ void scan_sums_kernel(index_t* sums, int count) {
  __shared__ index_t s[scan_scratch_size];
  const int t = int(threadIdx.x);
  const index_t mine = t < count ? sums[t] : 0;
  s[t] = mine;
  __syncthreads();
  for (int d = 1; d < int(blockDim.x); d <<= 1) {
    const index_t add = t >= d ? s[t - d] : 0;
    __syncthreads();
    s[t] += add;
    __syncthreads();
  }
  if (t < count) sums[t] = s[t] - mine;
}

__global__ void chunk_scan_kernel(index_t* v, index_t n, index_t chunk, const index_t* offsets) {
  __shared__ index_t s[scan_threads];
  index_t* x = v + 1;
  if (blockIdx.x == 0 && threadIdx.x == 0) v[0] = 0;
  const index_t begin = index_t(blockIdx.x) * chunk, end = begin + chunk < n ? begin + chunk : n;
  const int t = int(threadIdx.x);
  index_t running = offsets[blockIdx.x];
  for (index_t tile = begin; tile < end; tile += scan_threads) {  // the same trip count for every thread
    const index_t i = tile + t;
    s[t] = i < end ? x[i] : 0;
    __syncthreads();
    for (int d = 1; d < scan_threads; d <<= 1) {
      const index_t add = t >= d ? s[t - d] : 0;
      __syncthreads();
      s[t] += add;
      __syncthreads();
    }
    if (i < end) x[i] = running + s[t];
    running += s[scan_threads - 1];
    __syncthreads();
  }
}

unsigned grid(index_t work) { return blocks_for(std::size_t(work), threads); }

template <class Kernel, class... Args>
void launch(const char* name, index_t work, Kernel kernel, Args... args) {
  if (work <= 0) return;
  kernel<<<grid(work), threads>>>(args...);
  cuda_error::check_launch(name);
}

}  // namespace

void candidates(const StepView& s, bool fill) { launch("parilut candidates_kernel", s.n, candidates_kernel, s, fill); }

void candidate_residuals(const StepView& s) {
  launch("parilut candidate_residuals_kernel", s.n, candidate_residuals_kernel, s);
}

void add(const StepView& s, bool fill) { launch("parilut add_kernel", s.n, add_kernel, s, fill); }

void sweep(const StepView& s, index_t l_nnz, index_t u_nnz) {
  launch("parilut sweep_l_step_kernel", l_nnz, sweep_l_step_kernel, s, l_nnz);
  launch("parilut sweep_u_step_kernel", u_nnz, sweep_u_step_kernel, s, u_nnz);
}

void magnitudes(const CsrView& f, bool lower, index_t nnz, double* m) {
  launch("parilut magnitudes_kernel", nnz, magnitudes_kernel, f, lower, nnz, m);
}

void ties(const CsrView& f, index_t n, double t, index_t* counts) {
  launch("parilut ties_kernel", n, ties_kernel, f, n, t, counts);
}

void prune(const CsrView& f, index_t n, DropRule rule, const index_t* first_tie, const CsrView& out, bool fill) {
  launch("parilut prune_kernel", n, prune_kernel, f, n, rule, first_tie, out, fill);
}

index_t scan(index_t* v, index_t n, index_t* scratch) {
  if (n == 0) {
    cuda_error::throw_if(cudaMemset(v, 0, sizeof(index_t)), "cudaMemset");
    return 0;
  }
  const index_t blocks = std::min<index_t>((n + scan_threads - 1) / scan_threads, scan_scratch_size);
  const index_t chunk = (n + blocks - 1) / blocks;
  chunk_sums_kernel<<<unsigned(blocks), scan_threads>>>(v + 1, n, chunk, scratch);
  cuda_error::check_launch("parilut chunk_sums_kernel");
  scan_sums_kernel<<<1, scan_scratch_size>>>(scratch, int(blocks));
  cuda_error::check_launch("parilut scan_sums_kernel");
  chunk_scan_kernel<<<unsigned(blocks), scan_threads>>>(v, n, chunk, scratch);
  cuda_error::check_launch("parilut chunk_scan_kernel");
  index_t total = 0;
  cuda_error::throw_if(cuda_copy::memcpy(&total, v + n, sizeof(index_t), cudaMemcpyDeviceToHost),
                       "cudaMemcpy of a scan's total");
  return total;
}

// Counts per column (atomics), their scan, a slot per entry from a cursor per
// column (atomics: any order), then each column sorted by row.
void upper_columns(const StepView& s, index_t u_nnz, index_t* scan_scratch) {
  cuda_error::throw_if(cudaMemset(s.uc_ptr, 0, (std::size_t(s.n) + 1) * sizeof(index_t)), "cudaMemset");
  launch("parilut column_count_kernel", u_nnz, column_count_kernel, s, u_nnz);
  scan(s.uc_ptr, s.n, scan_scratch);
  launch("parilut column_cursor_kernel", s.n, column_cursor_kernel, s);
  launch("parilut column_place_kernel", u_nnz, column_place_kernel, s, u_nnz);
  launch("parilut column_sort_kernel", s.n, column_sort_kernel, s);
}

void lower_solve(const CsrView& l, const index_t* rows, index_t count, const double* r, double* y) {
  launch("parilut lower_solve_kernel", count, lower_solve_kernel, l, rows, count, r, y);
}

void upper_solve(const CsrView& u, const index_t* rows, index_t count, const double* y, double* z) {
  launch("parilut upper_solve_kernel", count, upper_solve_kernel, u, rows, count, y, z);
}

void synchronize() { cuda_error::throw_if(cudaDeviceSynchronize(), "cudaDeviceSynchronize"); }

}  // namespace tb::parilut::kernels::cuda
