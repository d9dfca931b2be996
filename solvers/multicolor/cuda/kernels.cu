// The multicolour point-implicit solver on the GPU (seed 002 §IV).
//
// Layout. D and O keep the paper's column-major blocks: in both SpMV kernels
// consecutive lanes take consecutive rows k of one block column (Fig. 8-9), and
// in the triangular kernel lane r reads row r of column j (Fig. 10-12), so each
// warp load is one contiguous run of doubles (or floats). x and q are read
// through the read-only data path (__ldg), as the paper does.
#include <cuda_runtime.h>

#include <string>
#include <vector>

#include "solvers/core/block_size_dispatch.hpp"
#include "solvers/core/cuda/counted_copy.cuh"
#include "solvers/core/cuda/error_check.cuh"
#include "solvers/core/cuda/stage_order.cuh"
#include "solvers/core/error.hpp"
#include "solvers/multicolor/cuda/kernels.hpp"
#include "solvers/multicolor/kernels.hpp"
#include "solvers/multicolor/options.hpp"
#include "vendor_libraries.hpp"

namespace tb::multicolor::kernels::cuda {

namespace {

constexpr int warp = 32;
constexpr unsigned full_mask = 0xffffffffu;

std::size_t blocks_for(long long work, int per_block) { return std::size_t((work + per_block - 1) / per_block); }

// ---- reference: the host loop body, one thread per block row ----------------

template <class Real>
__global__ void relax_ref_kernel(RelaxView<Real> m, index_t begin, index_t end, const double* b, double* x) {
  const index_t i = begin + index_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < end) relax_row<0, true>(m, i, b, x);
}

template <class Real>
void relax_ref(const RelaxView<Real>& m, index_t begin, index_t end, const double* b, double* x) {
  if (end <= begin) return;
  constexpr int threads = 128;
  relax_ref_kernel<<<blocks_for(end - begin, threads), threads>>>(m, begin, end, b, x);
  cuda_error::check_launch("multicolor relax_ref_kernel");
}

// ---- kernel=fused: a whole sweep in one launch ---------------------------------

// A group of nb consecutive lanes takes one block row, lane r its scalar row r:
// the thread-per-scalar-row layout of the BSR SpMV (the faster mapping for
// nb <= 8, solvers/matrix/cuda/kernels.cu). Step 1 reads column c of each block as nb
// consecutive entries (column-major blocks); steps 2-3 go column by column,
// the solved entry passed to the group by a shuffle. The workgroups take the
// colours in order (solvers/core/cuda/stage_order.cuh); x of other rows is
// written during the launch, so it is read from L2. The sums run in
// relax_row's order except the back substitution's, which goes column by
// column from the bottom: the same result to round-off.
template <int N, class Real>
__global__ void relax_sweep_fused_kernel(RelaxView<Real> m, StageGroupsView g, const double* b, double* x) {
  const stage_order::GroupSlot slot = stage_order::take_group(g, false);
  const int n = N > 0 ? N : m.block_size;
  const int lane = int(threadIdx.x) % warp, per_warp = warp / n;
  const int group = lane / n, r = lane % n, base = group * n;
  const index_t i = slot.first + index_t(threadIdx.x / warp) * per_warp + group;
  const bool active = group < per_warp && i < slot.end;
  const std::size_t bb = std::size_t(n) * n;
  index_t k_begin = 0, k_end = 0;
  double b_r = 0.0;
  if (active) {  // independent of the colours before: loaded before the wait
    k_begin = m.ia[i], k_end = m.ia[i + 1];
    b_r = b[std::size_t(i) * n + r];
  }
  stage_order::wait_for_stages_before(g, slot.stage, false);
  double q = 0.0;
  // Not unrolled: four blocks' loads in flight help the smallest nb and cost
  // the larger ones more than that.
  for (index_t k = k_begin; k < k_end; ++k) {
    const Real* blk = m.o + std::size_t(k) * bb;
    const double* xj = x + std::size_t(m.ja[k]) * n;
    for (int c = 0; c < n; ++c) q += double(blk[c * n + r]) * __ldcg(xj + c);
  }
  q = b_r - q;
  const double* lu = active ? m.d + std::size_t(i) * bb : nullptr;
  for (int c = 0; c + 1 < n; ++c) {  // L y = q, unit lower triangle
    const double y_c = __shfl_sync(full_mask, q, base + c);
    if (active && r > c) q -= lu[c * n + r] * y_c;
  }
  for (int c = n - 1; c >= 0; --c) {  // U x = y
    const double mine = active && r == c ? q / lu[c * n + c] : 0.0;
    const double x_c = __shfl_sync(full_mask, mine, base + c);
    if (r == c)
      q = x_c;
    else if (active && r < c)
      q -= lu[c * n + r] * x_c;
  }
  if (active) x[std::size_t(i) * n + r] = q;
  stage_order::publish_group(g, slot.stage);
}

template <class Real>
void relax_sweep_fused_any(const RelaxView<Real>& m, const StageGroupsView& g, const double* b, double* x) {
  static_assert(fused_max_block_size <= warp);
  if (m.block_size > fused_max_block_size)
    throw Error("multicolor kernel=fused: block size above " + std::to_string(fused_max_block_size) +
                " (one warp per block row at most)");
  if (g.groups == 0) return;
  stage_order::zero_counters(g, "the multicolor fused sweep");
  with_block_size(m.block_size, [&]<int N>() {
    relax_sweep_fused_kernel<N, Real><<<unsigned(g.groups), unsigned(fused_threads)>>>(m, g, b, x);
  });
  cuda_error::check_launch("multicolor relax_sweep_fused_kernel");
}

// ---- step 1 for nb <= 16: Table I ---------------------------------------------

// nw warps take one block row and walk it nbk blocks at a time; a CTA holds
// nrbk block rows. Chosen in the paper so that nb * nb * nbk <= 32 * nw.
struct WorkSplit {
  int nw, nbk, nrbk;
};
__host__ __device__ constexpr WorkSplit table_one(int nb) {
  constexpr WorkSplit t[17] = {{1, 1, 1}, {1, 2, 4}, {1, 8, 4}, {1, 3, 4}, {1, 2, 4}, {1, 1, 4},
                               {2, 1, 2}, {2, 1, 2}, {2, 1, 2}, {4, 1, 1}, {4, 1, 1}, {4, 1, 1},
                               {5, 1, 1}, {6, 1, 1}, {7, 1, 1}, {8, 1, 1}, {8, 1, 1}};
  return t[nb];
}

// Thread t of a row's group multiplies entry e = t mod nb^2 (row k = e mod nb,
// column l = e / nb) of the (t / nb^2)-th block of each step of nbk blocks
// (Fig. 8); the partial products are summed over l and the nbk blocks through
// shared memory by nb threads of the group.
template <int NB, class Real>
__global__ void matvec_kernel_1_16(RelaxView<Real> m, index_t begin, index_t end, const double* b, const double* x,
                                   double* q) {
  constexpr WorkSplit w = table_one(NB);
  constexpr int group = warp * w.nw;
  constexpr int used = NB * NB * w.nbk;
  static_assert(used <= group, "Table I: nb * nb * nbk <= 32 * nw");
  __shared__ double partial[w.nrbk][used];
  const int t = threadIdx.x % group;
  const int local_row = threadIdx.x / group;
  const index_t i = begin + index_t(blockIdx.x) * w.nrbk + local_row;
  if (t < used) {
    double fk = 0.0;
    if (i < end) {
      const int e = t % (NB * NB), l = e / NB;
      for (index_t j = m.ia[i] + t / (NB * NB); j < m.ia[i + 1]; j += w.nbk)
        fk += double(m.o[std::size_t(j) * NB * NB + e]) * __ldg(x + std::size_t(__ldg(m.ja + j)) * NB + l);
    }
    partial[local_row][t] = fk;
  }
  __syncthreads();
  if (i < end && t < NB) {
    double s = 0.0;
    for (int blk = 0; blk < w.nbk; ++blk)
      for (int l = 0; l < NB; ++l) s += partial[local_row][blk * NB * NB + l * NB + t];
    q[std::size_t(i) * NB + t] = b[std::size_t(i) * NB + t] - s;
  }
}

// ---- step 1 for 17 <= nb <= 64 (Fig. 9) ---------------------------------------

// A CTA of (32 nw) x 4 threads takes one block row: warp group y handles blocks
// y, y+4, ...; lane k accumulates row k of each block; one group sums the four
// partial results.
template <class Real>
__global__ void matvec_kernel_17_64(RelaxView<Real> m, index_t begin, const double* b, const double* x, double* q) {
  __shared__ double partial[4][64];
  const int nb = m.block_size;
  const int k = threadIdx.x, y = threadIdx.y;
  const index_t i = begin + index_t(blockIdx.x);
  double fk = 0.0;
  if (k < nb) {
    for (index_t j = m.ia[i] + y; j < m.ia[i + 1]; j += 4) {
      const Real* blk = m.o + std::size_t(j) * nb * nb;
      const double* xj = x + std::size_t(__ldg(m.ja + j)) * nb;
      for (int c = 0; c < nb; ++c) fk += double(blk[c * nb + k]) * __ldg(xj + c);
    }
  }
  partial[y][k] = fk;
  __syncthreads();
  if (y == 0 && k < nb)
    q[std::size_t(i) * nb + k] =
        b[std::size_t(i) * nb + k] - (partial[0][k] + partial[1][k] + partial[2][k] + partial[3][k]);
}

template <int NB, class Real>
void launch_1_16(const RelaxView<Real>& m, index_t begin, index_t end, const double* b, const double* x, double* q) {
  constexpr WorkSplit w = table_one(NB);
  matvec_kernel_1_16<NB><<<blocks_for(end - begin, w.nrbk), warp * w.nw * w.nrbk>>>(m, begin, end, b, x, q);
  cuda_error::check_launch("multicolor matvec_kernel_1_16");
}

template <class Real>
void matvec(const RelaxView<Real>& m, index_t begin, index_t end, const double* b, const double* x, double* q) {
  if (end <= begin) return;
  const int nb = m.block_size;
  if (nb > 16) {
    const int nw = (nb - 1) / warp + 1;
    matvec_kernel_17_64<<<unsigned(end - begin), dim3(warp * nw, 4)>>>(m, begin, b, x, q);
    cuda_error::check_launch("multicolor matvec_kernel_17_64");
    return;
  }
  switch (nb) {
    case 1:
      launch_1_16<1>(m, begin, end, b, x, q);
      break;
    case 2:
      launch_1_16<2>(m, begin, end, b, x, q);
      break;
    case 3:
      launch_1_16<3>(m, begin, end, b, x, q);
      break;
    case 4:
      launch_1_16<4>(m, begin, end, b, x, q);
      break;
    case 5:
      launch_1_16<5>(m, begin, end, b, x, q);
      break;
    case 6:
      launch_1_16<6>(m, begin, end, b, x, q);
      break;
    case 7:
      launch_1_16<7>(m, begin, end, b, x, q);
      break;
    case 8:
      launch_1_16<8>(m, begin, end, b, x, q);
      break;
    case 9:
      launch_1_16<9>(m, begin, end, b, x, q);
      break;
    case 10:
      launch_1_16<10>(m, begin, end, b, x, q);
      break;
    case 11:
      launch_1_16<11>(m, begin, end, b, x, q);
      break;
    case 12:
      launch_1_16<12>(m, begin, end, b, x, q);
      break;
    case 13:
      launch_1_16<13>(m, begin, end, b, x, q);
      break;
    case 14:
      launch_1_16<14>(m, begin, end, b, x, q);
      break;
    case 15:
      launch_1_16<15>(m, begin, end, b, x, q);
      break;
    default:
      launch_1_16<16>(m, begin, end, b, x, q);
      break;
  }
}

// ---- steps 2-3: one warp per diagonal block (Fig. 10-13) ----------------------

// Lane r holds row r (and row r + 32 when Halves = 2, nb > 32: the paper's split
// of the triangle into two triangles and a rectangle is the same arithmetic,
// each lane doing its rows of the current column). The column a step needs is
// loaded one step ahead (Fig. 11's prefetching).
template <int Halves>
__global__ void forward_backward_kernel(index_t nb, const double* d, index_t begin, index_t end, const double* q,
                                        double* x) {
  const index_t i = begin + index_t(blockIdx.x) * blockDim.y + threadIdx.y;
  if (i >= end) return;  // the whole warp shares i, so the shuffles below see every lane
  const int lane = threadIdx.x;
  const double* lu = d + std::size_t(i) * nb * nb;
  double f[Halves], col[Halves], next[Halves];
#pragma unroll
  for (int h = 0; h < Halves; ++h) {
    const int r = lane + warp * h;
    f[h] = r < nb ? __ldg(q + std::size_t(i) * nb + r) : 0.0;
    next[h] = r < nb ? lu[r] : 0.0;
  }
  // Forward, L y = q with unit L: column j updates the rows below it.
  for (int j = 0; j + 1 < nb; ++j) {
#pragma unroll
    for (int h = 0; h < Halves; ++h) {
      const int r = lane + warp * h;
      col[h] = next[h];
      next[h] = r < nb ? lu[(j + 1) * nb + r] : 0.0;
    }
    const double yj = __shfl_sync(full_mask, (Halves == 1 || j < warp) ? f[0] : f[Halves - 1], j % warp);
#pragma unroll
    for (int h = 0; h < Halves; ++h) {
      const int r = lane + warp * h;
      if (r > j && r < nb) f[h] -= col[h] * yj;
    }
  }
  // Backward, U x = y: the owner of row j divides by the pivot, then column j
  // updates the rows above it.
#pragma unroll
  for (int h = 0; h < Halves; ++h) {
    const int r = lane + warp * h;
    next[h] = r < nb ? lu[(nb - 1) * nb + r] : 0.0;
  }
  for (int j = nb - 1; j >= 0; --j) {
#pragma unroll
    for (int h = 0; h < Halves; ++h) {
      const int r = lane + warp * h;
      col[h] = next[h];
      next[h] = (j > 0 && r < nb) ? lu[(j - 1) * nb + r] : 0.0;
      if (r == j) f[h] /= col[h];
    }
    const double xj = __shfl_sync(full_mask, (Halves == 1 || j < warp) ? f[0] : f[Halves - 1], j % warp);
#pragma unroll
    for (int h = 0; h < Halves; ++h) {
      const int r = lane + warp * h;
      if (r < j) f[h] -= col[h] * xj;
    }
  }
#pragma unroll
  for (int h = 0; h < Halves; ++h) {
    const int r = lane + warp * h;
    if (r < nb) x[std::size_t(i) * nb + r] = f[h];
  }
}

__global__ void gather_kernel(const index_t* new_to_old, long long entries, index_t n, const double* from, double* to,
                              bool scatter) {
  const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (e >= entries) return;
  const index_t row = index_t(e / n), r = index_t(e % n);
  const std::size_t other = std::size_t(new_to_old[row]) * n + r;
  if (scatter)
    to[other] = from[e];
  else
    to[e] = from[other];
}

void permute_blocks(const index_t* new_to_old, index_t block_rows, index_t n, const double* from, double* to,
                    bool scatter) {
  const long long entries = (long long)block_rows * n;
  if (entries == 0) return;
  constexpr int threads = 256;
  gather_kernel<<<blocks_for(entries, threads), threads>>>(new_to_old, entries, n, from, to, scatter);
  cuda_error::check_launch("multicolor gather_kernel");
}

}  // namespace

void relax_sweep_fused(const RelaxView<float>& m, const StageGroupsView& g, const double* b, double* x) {
  relax_sweep_fused_any(m, g, b, x);
}
void relax_sweep_fused(const RelaxView<double>& m, const StageGroupsView& g, const double* b, double* x) {
  relax_sweep_fused_any(m, g, b, x);
}
void matvec_colour(const RelaxView<float>& m, index_t begin, index_t end, const double* b, const double* x, double* q) {
  matvec(m, begin, end, b, x, q);
}
void matvec_colour(const RelaxView<double>& m, index_t begin, index_t end, const double* b, const double* x,
                   double* q) {
  matvec(m, begin, end, b, x, q);
}

void forward_backward_colour(index_t block_size, const double* d, index_t begin, index_t end, const double* q,
                             double* x) {
  if (end <= begin) return;
  constexpr int warps_per_cta = 4;  // the paper's 32 x 4 CTA
  const dim3 threads(warp, warps_per_cta);
  const std::size_t ctas = blocks_for(end - begin, warps_per_cta);
  if (block_size <= warp) {
    forward_backward_kernel<1><<<ctas, threads>>>(block_size, d, begin, end, q, x);
    cuda_error::check_launch("multicolor forward_backward_kernel");
    return;
  }
  forward_backward_kernel<2><<<ctas, threads>>>(block_size, d, begin, end, q, x);
  cuda_error::check_launch("multicolor forward_backward_kernel (two halves)");
}

void gather_blocks(const index_t* new_to_old, index_t block_rows, index_t n, const double* from, double* to) {
  permute_blocks(new_to_old, block_rows, n, from, to, false);
}
void scatter_blocks(const index_t* new_to_old, index_t block_rows, index_t n, const double* from, double* to) {
  permute_blocks(new_to_old, block_rows, n, from, to, true);
}

// ---- the library baseline -----------------------------------------------------

namespace {
const VendorLibraries& lib() { return vendor_libraries(); }

void check_sparse(cusparseStatus_t s, const char* what) {
  if (s != CUSPARSE_STATUS_SUCCESS)
    throw Error(std::string("cuSPARSE ") + what + " failed: " + lib().cusparseGetErrorString(s));
}
void check_blas(cublasStatus_t s, const char* what) {
  if (s != CUBLAS_STATUS_SUCCESS)
    throw Error(std::string("cuBLAS ") + what + " failed with status " + std::to_string(int(s)));
}
}  // namespace

struct LibraryColourSolver {
  RelaxView<double> m;
  std::vector<index_t> colour_begin, ia;
  index_t block_rows = 0;
  double* q = nullptr;
  cusparseHandle_t sparse = nullptr;
  cusparseMatDescr_t descr = nullptr;
  cublasHandle_t blas = nullptr;
  // One pointer per block row to its diagonal block and its slice of q, as
  // cublasDtrsmBatched takes them; built once per pattern.
  const double** d_blocks = nullptr;
  double** q_blocks = nullptr;
  // bsrmv takes block sizes above 1 only; for nb = 1 each colour's rows of O
  // are a CSR matrix for the generic cusparseSpMV, its row offsets rebased to
  // zero. All descriptors are made once per pattern: each colour's slice of q
  // is fixed, x is re-pointed per call (cusparseDnVecSetValues).
  std::vector<cusparseSpMatDescr_t> colour_csr;
  std::vector<cusparseDnVecDescr_t> colour_q;
  cusparseDnVecDescr_t x_vec = nullptr;
  index_t* rebased_offsets = nullptr;
  void* spmv_buffer = nullptr;

  ~LibraryColourSolver() {
    for (cusparseSpMatDescr_t d : colour_csr)
      if (d) lib().cusparseDestroySpMat(d);
    for (cusparseDnVecDescr_t d : colour_q)
      if (d) lib().cusparseDestroyDnVec(d);
    if (x_vec) lib().cusparseDestroyDnVec(x_vec);
    cudaFree(rebased_offsets);
    cudaFree(spmv_buffer);
    cudaFree(d_blocks);
    cudaFree(q_blocks);
    if (descr) lib().cusparseDestroyMatDescr(descr);
    if (sparse) lib().cusparseDestroy(sparse);
    if (blas) lib().cublasDestroy(blas);
  }
};

namespace {
static_assert(sizeof(index_t) == 4, "the CSR descriptors below declare 32-bit indices");

cusparseDnVecDescr_t dense_vector(index_t size, double* values) {
  cusparseDnVecDescr_t v = nullptr;
  check_sparse(lib().cusparseCreateDnVec(&v, size, values, CUDA_R_64F), "cusparseCreateDnVec");
  return v;
}

void describe_colour_csr(LibraryColourSolver& s) {
  const index_t colours = index_t(s.colour_begin.size()) - 1;
  std::vector<index_t> rebased(s.ia.size() + std::size_t(colours));
  std::vector<std::size_t> first(static_cast<std::size_t>(colours));
  for (index_t k = 0, at = 0; k < colours; ++k) {
    first[std::size_t(k)] = std::size_t(at);
    for (index_t i = s.colour_begin[k]; i <= s.colour_begin[k + 1]; ++i)
      rebased[std::size_t(at++)] = s.ia[i] - s.ia[s.colour_begin[k]];
  }
  const std::size_t bytes = rebased.size() * sizeof(index_t);
  cuda_error::throw_if(cudaMalloc(reinterpret_cast<void**>(&s.rebased_offsets), bytes), "cudaMalloc");
  cuda_error::throw_if(cuda_copy::memcpy(s.rebased_offsets, rebased.data(), bytes, cudaMemcpyHostToDevice),
                       "cudaMemcpy");
  std::size_t buffer_bytes = 0;
  s.x_vec = dense_vector(s.block_rows, s.q);
  const double minus_one = -1.0, one = 1.0;
  for (index_t k = 0; k < colours; ++k) {
    const index_t begin = s.colour_begin[k], rows = s.colour_begin[k + 1] - begin;
    const index_t nnz = s.ia[begin + rows] - s.ia[begin];
    cusparseSpMatDescr_t m = nullptr;
    check_sparse(
        lib().cusparseCreateCsr(&m, rows, s.block_rows, nnz, s.rebased_offsets + first[std::size_t(k)],
                                const_cast<index_t*>(s.m.ja) + s.ia[begin], const_cast<double*>(s.m.o) + s.ia[begin],
                                CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F),
        "cusparseCreateCsr");
    s.colour_csr.push_back(m);
    s.colour_q.push_back(dense_vector(rows, s.q + begin));
    std::size_t b = 0;
    check_sparse(lib().cusparseSpMV_bufferSize(s.sparse, CUSPARSE_OPERATION_NON_TRANSPOSE, &minus_one, m, s.x_vec, &one,
                                               s.colour_q.back(), CUDA_R_64F, CUSPARSE_SPMV_ALG_DEFAULT, &b),
                 "cusparseSpMV_bufferSize");
    buffer_bytes = std::max(buffer_bytes, b);
  }
  cuda_error::throw_if(cudaMalloc(&s.spmv_buffer, std::max<std::size_t>(buffer_bytes, 1)), "cudaMalloc");
}

// q_k = q_k - O_k x for nb = 1 through the generic API.
void colour_csr_spmv(LibraryColourSolver& s, index_t colour, const double* x) {
  const double minus_one = -1.0, one = 1.0;
  check_sparse(lib().cusparseDnVecSetValues(s.x_vec, const_cast<double*>(x)), "cusparseDnVecSetValues");
  check_sparse(lib().cusparseSpMV(s.sparse, CUSPARSE_OPERATION_NON_TRANSPOSE, &minus_one,
                                  s.colour_csr[std::size_t(colour)], s.x_vec, &one, s.colour_q[std::size_t(colour)],
                                  CUDA_R_64F, CUSPARSE_SPMV_ALG_DEFAULT, s.spmv_buffer),
               "cusparseSpMV");
}
}  // namespace

std::shared_ptr<LibraryColourSolver> make_library_colour_solver(const RelaxView<double>& m,
                                                                const index_t* colour_begin_host, index_t num_colours,
                                                                const index_t* ia_host, index_t block_rows, double* q) {
  auto solver = std::make_shared<LibraryColourSolver>();
  LibraryColourSolver& s = *solver;
  s.m = m;
  s.colour_begin.assign(colour_begin_host, colour_begin_host + num_colours + 1);
  s.ia.assign(ia_host, ia_host + block_rows + 1);
  s.block_rows = block_rows;
  s.q = q;
  check_sparse(lib().cusparseCreate(&s.sparse), "cusparseCreate");
  check_sparse(lib().cusparseCreateMatDescr(&s.descr), "cusparseCreateMatDescr");
  check_blas(lib().cublasCreate(&s.blas), "cublasCreate");
  const index_t nb = m.block_size;
  std::vector<const double*> d_host(static_cast<std::size_t>(block_rows));
  std::vector<double*> q_host(static_cast<std::size_t>(block_rows));
  for (index_t i = 0; i < block_rows; ++i) {
    d_host[i] = m.d + std::size_t(i) * nb * nb;
    q_host[i] = q + std::size_t(i) * nb;
  }
  const std::size_t bytes = std::size_t(block_rows) * sizeof(double*);
  cuda_error::throw_if(cudaMalloc(reinterpret_cast<void**>(&s.d_blocks), bytes), "cudaMalloc");
  cuda_error::throw_if(cudaMalloc(reinterpret_cast<void**>(&s.q_blocks), bytes), "cudaMalloc");
  cuda_error::throw_if(cuda_copy::memcpy(s.d_blocks, d_host.data(), bytes, cudaMemcpyHostToDevice), "cudaMemcpy");
  cuda_error::throw_if(cuda_copy::memcpy(s.q_blocks, q_host.data(), bytes, cudaMemcpyHostToDevice), "cudaMemcpy");
  if (nb == 1) describe_colour_csr(s);
  return solver;
}

// q_k = b_k - O_k x by bsrmv (alpha = -1, beta = 1 on q = b), then the unit
// lower and the upper triangular solves in place, then x_k = q_k.
void relax_colour_library(LibraryColourSolver& s, index_t colour, const double* b, double* x) {
  const index_t begin = s.colour_begin[colour], rows = s.colour_begin[colour + 1] - begin;
  if (rows == 0) return;
  const index_t nb = s.m.block_size;
  const std::size_t bytes = std::size_t(rows) * nb * sizeof(double);
  double* q = s.q + std::size_t(begin) * nb;
  cuda_error::throw_if(cuda_copy::memcpy(q, b + std::size_t(begin) * nb, bytes, cudaMemcpyDeviceToDevice),
                       "cudaMemcpy");
  const double minus_one = -1.0, one = 1.0;
  const index_t nnzb = s.ia[begin + rows] - s.ia[begin];
  if (nnzb > 0 && nb == 1)
    colour_csr_spmv(s, colour, x);
  else if (nnzb > 0)
    check_sparse(
        lib().cusparseDbsrmv(s.sparse, CUSPARSE_DIRECTION_COLUMN, CUSPARSE_OPERATION_NON_TRANSPOSE, rows, s.block_rows,
                             nnzb, &minus_one, s.descr, s.m.o, s.m.ia + begin, s.m.ja, nb, x, &one, q),
        "cusparseDbsrmv");
  check_blas(lib().cublasDtrsmBatched(s.blas, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, CUBLAS_DIAG_UNIT,
                                      nb, 1, &one, s.d_blocks + begin, nb, s.q_blocks + begin, nb, rows),
             "cublasDtrsmBatched (lower)");
  check_blas(
      lib().cublasDtrsmBatched(s.blas, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_N, CUBLAS_DIAG_NON_UNIT, nb,
                               1, &one, s.d_blocks + begin, nb, s.q_blocks + begin, nb, rows),
      "cublasDtrsmBatched (upper)");
  cuda_error::throw_if(cuda_copy::memcpy(x + std::size_t(begin) * nb, q, bytes, cudaMemcpyDeviceToDevice),
                       "cudaMemcpy");
}

// relax_colour (kernels.hpp): one thread per block row running relax_row.
void relax_colour(const RelaxView<float>& m, index_t begin, index_t end, const double* b, double* x) {
  relax_ref(m, begin, end, b, x);
}
void relax_colour(const RelaxView<double>& m, index_t begin, index_t end, const double* b, double* x) {
  relax_ref(m, begin, end, b, x);
}

}  // namespace tb::multicolor::kernels::cuda
