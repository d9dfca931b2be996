// CUDA twins of the banded kernels (kernels.hpp): one thread per row running
// the host's row bodies (row_kernels.hpp) in grid-stride loops. Reductions
// give each block three sums and a maximum in a fixed order, then the last
// block to finish combines the block results in the same launch
// (cuda_reduction::last_block): no atomics on the values, so results are
// reproducible.
#include <cuda_runtime.h>

#include <algorithm>
#include <mutex>

#include "solvers/banded/kernels.hpp"
#include "solvers/core/cuda/counted_copy.cuh"
#include "solvers/core/cuda/error_check.cuh"
#include "solvers/core/cuda/reduction.cuh"

namespace tb::banded::kernels::cuda {

namespace {

constexpr int threads = 256;
// Also the number of partial results: fixed, so the summation order depends on n only.
constexpr int max_blocks = 1024;

// Results per block the scratch holds: four for Partials, seven for BicgMergedDots.
constexpr int scratch_slots = 8;

int blocks_for(index_t n) { return int(std::min<long>((long(n) + threads - 1) / threads, max_blocks)); }

__device__ __forceinline__ index_t first_index() { return index_t(blockIdx.x * blockDim.x + threadIdx.x); }
__device__ __forceinline__ index_t grid_stride() { return index_t(gridDim.x * blockDim.x); }

// Four block results, each reduced with __syncthreads between (block_sum
// reuses its shared array).
__device__ void store_block(double s0, double s1, double s2, double m, double* partial) {
  s0 = cuda_reduction::block_sum<threads>(s0);
  __syncthreads();
  s1 = cuda_reduction::block_sum<threads>(s1);
  __syncthreads();
  s2 = cuda_reduction::block_sum<threads>(s2);
  __syncthreads();
  m = cuda_reduction::block_max<threads>(m);
  if (threadIdx.x == 0) {
    partial[4 * blockIdx.x + 0] = s0;
    partial[4 * blockIdx.x + 1] = s1;
    partial[4 * blockIdx.x + 2] = s2;
    partial[4 * blockIdx.x + 3] = m;
  }
}

template <class Body>
__global__ void __launch_bounds__(threads)
    reduce_rows(index_t n, Body body, double* partial, unsigned* ticket, double* result) {
  double s0 = 0.0, s1 = 0.0, s2 = 0.0, m = 0.0;
  for (index_t i = first_index(); i < n; i += grid_stride()) body(i, s0, s1, s2, m);
  store_block(s0, s1, s2, m, partial);
  if (!cuda_reduction::last_block(ticket)) return;
  // The block results in block order, read from L2 (other blocks stored them).
  s0 = s1 = s2 = m = 0.0;
  for (unsigned b = threadIdx.x; b < gridDim.x; b += threads) {
    s0 += __ldcg(partial + 4 * b + 0);
    s1 += __ldcg(partial + 4 * b + 1);
    s2 += __ldcg(partial + 4 * b + 2);
    m = fmax(m, __ldcg(partial + 4 * b + 3));
  }
  s0 = cuda_reduction::block_sum<threads>(s0);
  __syncthreads();
  s1 = cuda_reduction::block_sum<threads>(s1);
  __syncthreads();
  s2 = cuda_reduction::block_sum<threads>(s2);
  __syncthreads();
  m = cuda_reduction::block_max<threads>(m);
  if (threadIdx.x == 0) result[0] = s0, result[1] = s1, result[2] = s2, result[3] = m;
}

// K sums in a fixed order over the rows, combined in the same launch:
// BicgMergedDots' seven inner products in one pass over the rows.
template <int K, class Body>
__global__ void __launch_bounds__(threads)
    reduce_sums(index_t n, Body body, double* partial, unsigned* ticket, double* result) {
  double s[K] = {};
  for (index_t i = first_index(); i < n; i += grid_stride()) body(i, s);
  cuda_reduction::store_and_combine<threads, K, false>(s, partial, ticket, result);
}

template <class Body>
__global__ void __launch_bounds__(threads) for_rows(index_t begin, index_t end, Body body) {
  for (index_t i = begin + first_index(); i < end; i += grid_stride()) body(i);
}

// Device memory for block results (cuda_reduction::allocate_scratch).
std::mutex scratch_mutex;
const cuda_reduction::Scratch& scratch() {
  static const cuda_reduction::Scratch s =
      cuda_reduction::allocate_scratch(scratch_slots * max_blocks + scratch_slots, "the banded scratch");
  return s;
}

template <class Body>
Partials run_reduction(index_t n, Body body, const char* name) {
  std::lock_guard lock(scratch_mutex);
  const cuda_reduction::Scratch& s = scratch();
  double* out = s.partial + 4 * max_blocks;
  reduce_rows<<<blocks_for(n), threads>>>(n, body, s.partial, s.ticket, out);
  cuda_error::check_launch(name);
  double r[4];
  cuda_error::throw_if(cuda_copy::memcpy(r, out, sizeof r, cudaMemcpyDeviceToHost),
                       std::string("cudaMemcpy of the ") + name + " result");
  Partials p;
  p.sum[0] = r[0], p.sum[1] = r[1], p.sum[2] = r[2], p.max_abs = r[3];
  return p;
}

template <int K, class Body>
void run_sums(index_t n, Body body, double* result, const char* name) {
  static_assert(K <= scratch_slots, "the scratch holds scratch_slots results per block");
  std::lock_guard lock(scratch_mutex);
  const cuda_reduction::Scratch& s = scratch();
  double* out = s.partial + K * max_blocks;
  reduce_sums<K><<<blocks_for(n), threads>>>(n, body, s.partial, s.ticket, out);
  cuda_error::check_launch(name);
  cuda_error::throw_if(cuda_copy::memcpy(result, out, K * sizeof(double), cudaMemcpyDeviceToHost),
                       std::string("cudaMemcpy of the ") + name + " result");
}

template <class Body>
void run_rows(index_t begin, index_t end, Body body, const char* name) {
  for_rows<<<blocks_for(end - begin), threads>>>(begin, end, body);
  cuda_error::check_launch(name);
}

template <int N>
struct DiaRows {
  DiaView a;
  const double* x_ext;
  double* y;
  __device__ void operator()(index_t i) const { y[i] = dia_row<N>(a, i, x_ext); }
};
struct StencilRows {
  StencilSlab a;
  const double* x_ext;
  double* y;
  __device__ void operator()(index_t i) const { y[i] = stencil_row(a, i, x_ext); }
};
struct JacobiRows {
  const double* dinv;
  const double* r;
  double* z;
  __device__ void operator()(index_t i) const { z[i] = dinv[i] * r[i]; }
};
struct StencilDiagonalRows {
  StencilSlab a;
  double* dinv;
  __device__ void operator()(index_t i) const { dinv[i] = 1.0 / stencil_diagonal(a.c, a.first_row + i); }
};
struct DirectionRows {
  double beta, omega;
  BicgVectors w;
  __device__ void operator()(index_t i) const {
    const double p = w.r[i] + beta * (w.p[i] - omega * w.v[i]);
    w.p[i] = p;
    w.y[i] = w.dinv[i] * p;
  }
};
struct HalfStepRows {
  double alpha;
  BicgVectors w;
  __device__ void operator()(index_t i) const {
    const double s = w.r[i] - alpha * w.v[i];
    w.s[i] = s;
    w.z[i] = w.dinv[i] * s;
  }
};
struct CgDirectionRows {
  double beta;
  const double* z;
  double* p;
  __device__ void operator()(index_t i) const { p[i] = z[i] + beta * p[i]; }
};
struct CgRecurrenceUpdate {
  double alpha, beta;
  CgRecurrenceVectors v;
  __device__ void operator()(index_t i, double& s0, double& s1, double&, double& m) const {
    cg_recurrence_row(i, alpha, beta, v, s0, s1, m);
  }
};
struct StabiliserDots {
  BicgVectors w;
  __device__ void operator()(index_t i, double& s0, double& s1, double&, double&) const {
    const double kt = w.dinv[i] * w.t[i];
    s0 += kt * w.z[i];
    s1 += kt * kt;
  }
};
struct MergedDots {
  BicgVectors w;
  __device__ void operator()(index_t i, double* s) const { bicg_merged_row(i, w, s); }
};
struct SolutionUpdate {
  double alpha, omega;
  BicgVectors w;
  __device__ void operator()(index_t i, double& s0, double& s1, double&, double& m) const {
    w.x[i] += alpha * w.y[i] + omega * w.z[i];
    const double r = w.s[i] - omega * w.t[i];
    w.r[i] = r;
    s0 += w.r0hat[i] * r;
    s1 += r * r;
    m = fmax(m, fabs(r));
  }
};
struct CgUpdate {
  double alpha;
  const double *dinv, *p, *q;
  double *x, *r, *z;
  __device__ void operator()(index_t i, double& s0, double& s1, double&, double& m) const {
    x[i] += alpha * p[i];
    const double ri = r[i] - alpha * q[i];
    r[i] = ri;
    const double zi = dinv[i] * ri;
    z[i] = zi;
    s0 += ri * zi;
    s1 += ri * ri;
    m = fmax(m, fabs(ri));
  }
};
struct DotsAndMax {
  const double *x0, *x1, *x2, *y0, *y1, *y2, *m;
  __device__ void operator()(index_t i, double& s0, double& s1, double& s2, double& mx) const {
    if (x0) s0 += x0[i] * y0[i];
    if (x1) s1 += x1[i] * y1[i];
    if (x2) s2 += x2[i] * y2[i];
    if (m) mx = fmax(mx, fabs(m[i]));
  }
};

}  // namespace

void dia_spmv(const DiaView& a, index_t begin, index_t end, const double* x_ext, double* y) {
  if (a.ndiag == 7)
    run_rows(begin, end, DiaRows<7>{a, x_ext, y}, "dia_spmv");
  else
    run_rows(begin, end, DiaRows<0>{a, x_ext, y}, "dia_spmv");
}
void stencil_spmv(const StencilSlab& a, index_t begin, index_t end, const double* x_ext, double* y) {
  run_rows(begin, end, StencilRows{a, x_ext, y}, "stencil_spmv");
}
void jacobi_apply(index_t n, const double* dinv, const double* r, double* z) {
  run_rows(0, n, JacobiRows{dinv, r, z}, "jacobi_apply");
}
void stencil_inverse_diagonal(const StencilSlab& a, index_t n, double* dinv) {
  run_rows(0, n, StencilDiagonalRows{a, dinv}, "stencil_inverse_diagonal");
}
void bicg_direction(index_t n, double beta, double omega, const BicgVectors& w) {
  run_rows(0, n, DirectionRows{beta, omega, w}, "bicg_direction");
}
void bicg_half_step(index_t n, double alpha, const BicgVectors& w) {
  run_rows(0, n, HalfStepRows{alpha, w}, "bicg_half_step");
}
Partials bicg_stabiliser_dots(index_t n, const BicgVectors& w) {
  return run_reduction(n, StabiliserDots{w}, "bicg_stabiliser_dots");
}
BicgMergedDots bicg_merged_dots(index_t n, const BicgVectors& w) {
  BicgMergedDots d;
  run_sums<BicgMergedDots::count>(n, MergedDots{w}, d.sum, "bicg_merged_dots");
  return d;
}
Partials bicg_solution_update(index_t n, double alpha, double omega, const BicgVectors& w) {
  return run_reduction(n, SolutionUpdate{alpha, omega, w}, "bicg_solution_update");
}
Partials cg_solution_update(index_t n, double alpha, const double* dinv, const double* p, const double* q, double* x,
                            double* r, double* z) {
  return run_reduction(n, CgUpdate{alpha, dinv, p, q, x, r, z}, "cg_solution_update");
}
void cg_direction(index_t n, double beta, const double* z, double* p) {
  run_rows(0, n, CgDirectionRows{beta, z, p}, "cg_direction");
}
Partials cg_recurrence_update(index_t n, double alpha, double beta, const CgRecurrenceVectors& v) {
  return run_reduction(n, CgRecurrenceUpdate{alpha, beta, v}, "cg_recurrence_update");
}
Partials dots_and_max(index_t n, int k, const double* const* x, const double* const* y, const double* m) {
  DotsAndMax body{k > 0 ? x[0] : nullptr,
                  k > 1 ? x[1] : nullptr,
                  k > 2 ? x[2] : nullptr,
                  k > 0 ? y[0] : nullptr,
                  k > 1 ? y[1] : nullptr,
                  k > 2 ? y[2] : nullptr,
                  m};
  return run_reduction(n, body, "dots_and_max");
}

}  // namespace tb::banded::kernels::cuda
