// FGBILU on the GPU (seed 000). ACC style (Algorithms 4-6): one launch per
// paper "kernel", bodies shared with the host (element_kernels.hpp). CL style
// (Algorithms 8-10): one fused launch per hyperplane; each workgroup holds L
// grid points of n*n threads, exchanges partial results in shared memory and
// synchronises with __syncthreads instead of kernel boundaries. Every launch
// goes to launch_stream(): the default stream, or the recorder's while a
// solve is recorded as a CUDA graph (fgbilu(graph=true)).
#include <cuda_runtime.h>

#include <climits>

#include "solvers/core/cuda/counted_copy.cuh"
#include "solvers/core/cuda/error_check.cuh"
#include "solvers/core/cuda/graph_capture.cuh"
#include "solvers/core/cuda/stage_order.cuh"
#include "solvers/fgbilu/kernels.hpp"

namespace tb::fgbilu::kernels::cuda {

namespace {

constexpr int threads = 256;

cuda_graph::Recorder recorder("fgbilu");
cudaStream_t launch_stream() { return recorder.launch_stream(); }

unsigned blocks_for(long long work) { return unsigned((work + threads - 1) / threads); }

__global__ void factor_product_kernel(Stencil7View a, const double* d, PlaneScratch s, index_t begin, index_t np) {
  const long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  const index_t nn = a.n * a.n;
  if (t >= (long long)np * nn) return;
  const index_t ql = index_t(t / nn), e = index_t(t % nn);
  factor_product_element(a, d, s, ql, begin + ql, e / a.n, e % a.n);
}

__global__ void factor_update_kernel(Stencil7View a, double* d, PlaneScratch s, index_t begin, index_t np) {
  const long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  const index_t nn = a.n * a.n;
  if (t >= (long long)np * nn) return;
  const index_t ql = index_t(t / nn), e = index_t(t % nn);
  factor_update_element(a, d, s, ql, begin + ql, e / a.n, e % a.n);
}

__global__ void gj_scale_kernel(double* d, index_t n, index_t r, index_t begin, index_t np) {
  const long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  const index_t per = 2 * (n - 1);
  if (t >= (long long)np * per) return;
  gj_scale_element(d + (std::size_t(begin) + t / per) * n * n, n, r, index_t(t % per));
}

__global__ void gj_update_kernel(double* d, index_t n, index_t r, index_t begin, index_t np) {
  const long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  const index_t per = (n - 1) * (n - 1);
  if (t >= (long long)np * per) return;
  const index_t e = index_t(t % per);
  gj_update_element(d + (std::size_t(begin) + t / per) * n * n, n, r, e / (n - 1), e % (n - 1));
}

__global__ void gj_pivot_kernel(double* d, index_t n, index_t r, index_t begin, index_t np) {
  const index_t t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= np) return;
  gj_pivot_element(d + (std::size_t(begin) + t) * n * n, n, r);
}

__global__ void forward_gather_kernel(Stencil7View a, const double* b, const double* x, double* z, index_t begin,
                                      index_t np) {
  const long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (t >= (long long)np * a.n) return;
  z[t] = forward_gather_element(a, b, x, begin + index_t(t / a.n), index_t(t % a.n));
}

__global__ void backward_gather_kernel(Stencil7View a, const double* x, double* z, index_t begin, index_t np) {
  const long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (t >= (long long)np * a.n) return;
  z[t] = backward_gather_element(a, x, begin + index_t(t / a.n), index_t(t % a.n));
}

// sign = 0: x = d z (forward); sign = 1: x -= d z (backward).
__global__ void apply_diagonal_kernel(Stencil7View a, const double* d, const double* z, double* x, index_t begin,
                                      index_t np, int subtract) {
  const long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (t >= (long long)np * a.n) return;
  const index_t ql = index_t(t / a.n), u = index_t(t % a.n);
  const double v = block_row_dot(d, a.n, begin + ql, u, z + std::size_t(ql) * a.n);
  double* xi = x + std::size_t(a.natural[begin + ql]) * a.n + u;
  *xi = subtract ? *xi - v : v;
}

__global__ void residual_kernel(Stencil7View a, const double* b, const double* x, double* r) {
  const long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (t >= (long long)a.cells * a.n) return;
  const index_t q = index_t(t / a.n), u = index_t(t % a.n);
  r[std::size_t(a.natural[q]) * a.n + u] = residual_element(a, b, x, q, u);
}

__global__ void gather_kernel(const index_t* map, index_t nb, const double* values, double* coef, long long n) {
  const long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (t < n) coef[t] = gathered_entry(map, nb, values, t);
}

__global__ void first_bad_kernel(const double* d, index_t cells, index_t n, index_t* bad) {
  const long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (t >= (long long)cells * n * n) return;
  if (!isfinite(d[t])) atomicMin(bad, index_t(t / (n * n)));
}

// Algorithm 8: (I_G, I_T) -> (q, u, v, q_w), 0-based; the workgroup's points
// start at wavefront position first and stop at the plane's end.
struct ClIndex {
  index_t qw, q, u, v;
  bool active;
};
__device__ inline ClIndex cl_index_from(index_t n, index_t first, index_t end) {
  ClIndex c;
  const index_t t = threadIdx.x;
  c.qw = t / (n * n);
  c.q = first + c.qw;
  c.u = (t / n) % n;
  c.v = t % n;
  c.active = c.q < end;
  return c;
}
// One launch per plane: workgroup I_G holds points I_G * L .. I_G * L + L - 1 of the plane.
__device__ inline ClIndex cl_index(index_t n, index_t points, index_t begin, index_t end) {
  return cl_index_from(n, begin + blockIdx.x * points, end);
}

// Algorithm 5 on the entry (u, v) each thread holds in `mine`, returned
// inverted: row and column r of pivot r go through two alternating buffers of
// the point's n*n entries, at `buffers` and `buffers + stride`, so one barrier
// per pivot suffices. Every thread of the workgroup calls it.
__device__ inline double cl_gauss_jordan(const ClIndex& c, index_t n, double mine, double* buffers, index_t stride) {
  for (index_t r = 0; r < n; ++r) {
    double* st = buffers + (r % 2) * stride;
    const double ea = c.u == r ? 1.0 : 0.0, eb = c.v == r ? 1.0 : 0.0, ec = (1.0 - ea) * (1.0 - eb);
    if (c.active && ec == 0.0) st[c.u * n + c.v] = mine;
    __syncthreads();
    if (c.active)
      mine = (ea * eb + (ea - eb) * mine - ec * st[c.u * n + r] * st[r * n + c.v]) / st[r * n + r] + ec * mine;
  }
  return mine;
}

// Algorithm 10 after the gather: `part` is this thread's sum over the lower
// (forward) or upper (backward) neighbours; z = rhs - (row sums) forward, the
// row sums backward; then x_q = d z forward, x_q = rhs - d z backward, rhs
// being b_q or x_q (read by the v = 0 threads). s: the point's n*n partial
// products, z: its n entries. Every thread of the workgroup calls it.
__device__ inline void cl_sweep_finish(const ClIndex& c, index_t n, double part, double d_uv, double rhs, bool backward,
                                       double* s, double* z, double* x_q) {
  if (c.active) s[c.u * n + c.v] = part;
  __syncthreads();
  if (c.active && c.v == 0) {
    double sum = 0.0;
    for (index_t w = 0; w < n; ++w) sum += s[c.u * n + w];
    z[c.u] = backward ? sum : rhs - sum;
  }
  __syncthreads();
  if (c.active) s[c.u * n + c.v] = d_uv * z[c.v];
  __syncthreads();
  if (c.active && c.v == 0) {
    double sum = 0.0;
    for (index_t w = 0; w < n; ++w) sum += s[c.u * n + w];
    x_q[c.u] = backward ? rhs - sum : sum;
  }
}

// Algorithm 9. Shared memory: s[3][L][n*n]. Each thread keeps its own d^{u,v}
// in a register through the Gauss-Jordan r-loop; s_1 and s_2 become the two
// alternating read buffers, so one barrier per pivot suffices.
__global__ void cl_factor_kernel(Stencil7View a, double* d, index_t begin, index_t end, index_t points) {
  extern __shared__ double shm[];
  const index_t n = a.n, nn = n * n;
  const ClIndex c = cl_index(n, points, begin, end);
  const index_t slot = points * nn;
  const PlaneScratch sc{shm, slot};
  if (c.active) factor_product_element(a, d, sc, c.qw, c.q, c.u, c.v);
  __syncthreads();
  double mine = 0.0;
  if (c.active) {
    factor_update_element(a, d, sc, c.qw, c.q, c.u, c.v);
    mine = d[std::size_t(c.q) * nn + c.u * n + c.v];
  }
  __syncthreads();
  mine = cl_gauss_jordan(c, n, mine, shm + c.qw * nn, slot);
  if (c.active) d[std::size_t(c.q) * nn + c.u * n + c.v] = mine;
}

// Algorithm 10. Shared memory: s[L][n*n], z[L][n].
__global__ void cl_sweep_kernel(Stencil7View a, const double* d, index_t begin, index_t end, index_t points,
                                const double* b, double* x, int backward) {
  extern __shared__ double shm[];
  const index_t n = a.n, nn = n * n;
  const ClIndex c = cl_index(n, points, begin, end);
  double* s = shm + c.qw * nn;
  double* z = shm + points * nn + c.qw * n;
  double* xq = c.active ? x + std::size_t(a.natural[c.q]) * n : nullptr;
  double part = 0.0, d_uv = 0.0, rhs = 0.0;
  if (c.active) {
    for (int dir = backward ? 3 : 0; dir < (backward ? 6 : 3); ++dir) {
      const index_t nq = neighbour_of(a, dir, c.q);
      if (nq < 0) continue;
      part += coef_block(a, dir < 3 ? dir : dir + 1, c.q)[c.u * n + c.v] * x[std::size_t(a.natural[nq]) * n + c.v];
    }
    d_uv = d[std::size_t(c.q) * nn + c.u * n + c.v];
    if (c.v == 0) rhs = backward ? xq[c.u] : b[std::size_t(a.natural[c.q]) * n + c.u];
  }
  cl_sweep_finish(c, n, part, d_uv, rhs, backward != 0, s, z, xq);
}

// ---- Algorithms 9 and 10 in one launch per sweep (launch=sweep) ----
// One launch per hyperplane costs a kernel boundary per plane: at 65^3 the
// 2 x 193 sweep launches, not their arithmetic, set the time (docs/fgbilu.md).
// Here one launch covers every plane, the planes being the stages of
// solvers/core/cuda/stage_order.cuh. What does not depend on the previous
// plane (coefficients, d, b, indices) is loaded before the wait; values
// written during the launch are read with __ldcg.

using stage_order::GroupSlot;

// Algorithm 9 for one group. Shared memory: six regions of L*n*n doubles,
// first the lower blocks and the neighbours' d (kernel #1 of Algorithm 4),
// then the products s_t and the neighbours' upper blocks back to the cell
// (kernel #2, Eq. 1), then two alternating Gauss-Jordan buffers. Each thread
// loads one entry of each block, so all its loads are independent.
__global__ void cl_factor_sweep_kernel(Stencil7View a, double* d, StageGroupsView g, index_t* first_bad) {
  extern __shared__ double shm[];
  const GroupSlot slot = stage_order::take_group(g, false);
  const index_t n = a.n, nn = n * n, region = g.points * nn;
  const ClIndex c = cl_index_from(n, slot.first, slot.end);
  const index_t e = c.u * n + c.v;
  double* own = shm + c.qw * nn;  // region 0 of this point; region r at own + r * region
  index_t nq[3] = {-1, -1, -1};
  double lower[3] = {0.0, 0.0, 0.0}, upper_back[3] = {0.0, 0.0, 0.0};
  double mine = 0.0;
  if (c.active) {
    mine = coef_block(a, 3, c.q)[e];
    for (int t = 0; t < 3; ++t) {
      nq[t] = neighbour_of(a, t, c.q);
      if (nq[t] < 0) continue;
      lower[t] = coef_block(a, t, c.q)[e];
      upper_back[t] = coef_block(a, upper_coefficient_back(t), nq[t])[e];
    }
  }
  stage_order::wait_for_stages_before(g, slot.stage, false);
  if (c.active)
    for (int t = 0; t < 3; ++t) {
      own[t * region + e] = lower[t];
      own[(3 + t) * region + e] = nq[t] < 0 ? 0.0 : __ldcg(d + std::size_t(nq[t]) * nn + e);
    }
  __syncthreads();
  double product[3] = {0.0, 0.0, 0.0};
  if (c.active)
    for (int t = 0; t < 3; ++t)
      for (index_t w = 0; w < n; ++w) product[t] += own[t * region + c.u * n + w] * own[(3 + t) * region + w * n + c.v];
  __syncthreads();
  if (c.active)
    for (int t = 0; t < 3; ++t) {
      own[t * region + e] = product[t];
      own[(3 + t) * region + e] = upper_back[t];
    }
  __syncthreads();
  if (c.active)
    for (int t = 0; t < 3; ++t) {
      if (nq[t] < 0) continue;
      double dot = 0.0;
      for (index_t w = 0; w < n; ++w) dot += own[t * region + c.u * n + w] * own[(3 + t) * region + w * n + c.v];
      mine -= dot;
    }
  __syncthreads();
  mine = cl_gauss_jordan(c, n, mine, own, region);
  if (c.active) {
    d[std::size_t(c.q) * nn + e] = mine;
    // The check of first_non_finite_block, here rather than in a second pass over d.
    if (!isfinite(mine)) atomicMin(first_bad, c.q);
  }
  stage_order::publish_group(g, slot.stage);
}

// Algorithm 10 for one group. Shared memory: s[L][n*n], z[L][n].
__global__ void cl_sweep_sweep_kernel(Stencil7View a, const double* d, StageGroupsView g, const double* b, double* x,
                                      int backward) {
  extern __shared__ double shm[];
  const GroupSlot slot = stage_order::take_group(g, backward != 0);
  const index_t n = a.n, nn = n * n;
  const ClIndex c = cl_index_from(n, slot.first, slot.end);
  double* s = shm + c.qw * nn;
  double* z = shm + g.points * nn + c.qw * n;
  std::size_t self = 0;
  long long from[3] = {-1, -1, -1};  // x entries of the neighbours this thread reads
  double coef[3] = {0.0, 0.0, 0.0}, d_uv = 0.0, rhs = 0.0;
  if (c.active) {
    self = std::size_t(a.natural[c.q]) * n;
    for (int t = 0; t < 3; ++t) {
      const int dir = backward ? 3 + t : t;
      const index_t nq = neighbour_of(a, dir, c.q);
      if (nq < 0) continue;
      from[t] = (long long)a.natural[nq] * n + c.v;
      coef[t] = coef_block(a, backward ? dir + 1 : dir, c.q)[c.u * n + c.v];
    }
    d_uv = d[std::size_t(c.q) * nn + c.u * n + c.v];
    if (c.v == 0) rhs = backward ? __ldcg(x + self + c.u) : b[self + c.u];
  }
  stage_order::wait_for_stages_before(g, slot.stage, backward != 0);
  double part = 0.0;
  if (c.active)
    for (int t = 0; t < 3; ++t)
      if (from[t] >= 0) part += coef[t] * __ldcg(x + from[t]);
  cl_sweep_finish(c, n, part, d_uv, rhs, backward != 0, s, z, x + self);
  stage_order::publish_group(g, slot.stage);
}

void check_cl_size(index_t n) {
  if (n > 32) throw Error("fgbilu(variant=cl): block size " + std::to_string(n) + " > 32 (one thread per block entry)");
}

}  // namespace

index_t acc_factor_plane(const Stencil7View& a, double* d, index_t begin, index_t end, PlaneScratch s) {
  const index_t np = end - begin, n = a.n;
  factor_product_kernel<<<blocks_for((long long)np * n * n), threads, 0, launch_stream()>>>(a, d, s, begin, np);
  cuda_error::check_launch("fgbilu acc factor_product");
  factor_update_kernel<<<blocks_for((long long)np * n * n), threads, 0, launch_stream()>>>(a, d, s, begin, np);
  cuda_error::check_launch("fgbilu acc factor_update");
  for (index_t r = 0; r < n; ++r) {
    if (n > 1) {
      gj_scale_kernel<<<blocks_for((long long)np * 2 * (n - 1)), threads, 0, launch_stream()>>>(d, n, r, begin, np);
      cuda_error::check_launch("fgbilu acc gj_scale");
      gj_update_kernel<<<blocks_for((long long)np * (n - 1) * (n - 1)), threads, 0, launch_stream()>>>(d, n, r, begin,
                                                                                                       np);
      cuda_error::check_launch("fgbilu acc gj_update");
    }
    gj_pivot_kernel<<<blocks_for(np), threads, 0, launch_stream()>>>(d, n, r, begin, np);
    cuda_error::check_launch("fgbilu acc gj_pivot");
  }
  return -1;  // the blocks are checked once after the last plane (first_non_finite_block)
}

void acc_forward_plane(const Stencil7View& a, const double* d, index_t begin, index_t end, const double* b, double* x,
                       double* z) {
  const index_t np = end - begin;
  forward_gather_kernel<<<blocks_for((long long)np * a.n), threads, 0, launch_stream()>>>(a, b, x, z, begin, np);
  cuda_error::check_launch("fgbilu acc forward gather");
  apply_diagonal_kernel<<<blocks_for((long long)np * a.n), threads, 0, launch_stream()>>>(a, d, z, x, begin, np, 0);
  cuda_error::check_launch("fgbilu acc forward diagonal");
}

void acc_backward_plane(const Stencil7View& a, const double* d, index_t begin, index_t end, double* x, double* z) {
  const index_t np = end - begin;
  backward_gather_kernel<<<blocks_for((long long)np * a.n), threads, 0, launch_stream()>>>(a, x, z, begin, np);
  cuda_error::check_launch("fgbilu acc backward gather");
  apply_diagonal_kernel<<<blocks_for((long long)np * a.n), threads, 0, launch_stream()>>>(a, d, z, x, begin, np, 1);
  cuda_error::check_launch("fgbilu acc backward diagonal");
}

void cl_factor_plane(const Stencil7View& a, double* d, index_t begin, index_t end) {
  check_cl_size(a.n);
  const index_t points = cl_points(a.n), np = end - begin;
  const unsigned groups = unsigned((np + points - 1) / points);
  const std::size_t shared = 3 * std::size_t(points) * a.n * a.n * sizeof(double);
  cl_factor_kernel<<<groups, unsigned(points * a.n * a.n), shared, launch_stream()>>>(a, d, begin, end, points);
  cuda_error::check_launch("fgbilu cl factorisation");
}

namespace {
void cl_sweep(const Stencil7View& a, const double* d, index_t begin, index_t end, const double* b, double* x,
              int backward) {
  check_cl_size(a.n);
  const index_t points = cl_points(a.n), np = end - begin;
  const unsigned groups = unsigned((np + points - 1) / points);
  const std::size_t shared = std::size_t(points) * (a.n * a.n + a.n) * sizeof(double);
  cl_sweep_kernel<<<groups, unsigned(points * a.n * a.n), shared, launch_stream()>>>(a, d, begin, end, points, b, x,
                                                                                     backward);
  cuda_error::check_launch("fgbilu cl sweep");
}
}  // namespace

void cl_forward_plane(const Stencil7View& a, const double* d, index_t begin, index_t end, const double* b, double* x) {
  cl_sweep(a, d, begin, end, b, x, 0);
}

void cl_backward_plane(const Stencil7View& a, const double* d, index_t begin, index_t end, double* x) {
  cl_sweep(a, d, begin, end, nullptr, x, 1);
}

index_t cl_factor_sweep(const Stencil7View& a, double* d, const StageGroupsView& g, index_t* flag) {
  check_cl_size(a.n);
  const std::size_t shared = 6 * std::size_t(g.points) * a.n * a.n * sizeof(double);
  // n = 32: 48 KiB of dynamic shared memory plus the ticket, above the default limit.
  cuda_error::throw_if(
      cudaFuncSetAttribute(cl_factor_sweep_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(shared)),
      "cudaFuncSetAttribute for the fgbilu cl factorisation");
  stage_order::zero_counters(g, "the fgbilu cl factorisation", launch_stream());
  // Every byte 0x7f: a position above any grid's (cells < 2^31 - 1).
  constexpr index_t none = 0x7f7f7f7f;
  cuda_error::throw_if(cudaMemsetAsync(flag, 0x7f, sizeof(index_t), launch_stream()),
                       "cudaMemsetAsync of the fgbilu non-finite flag");
  cl_factor_sweep_kernel<<<unsigned(g.groups), unsigned(g.points * a.n * a.n), shared, launch_stream()>>>(a, d, g,
                                                                                                          flag);
  cuda_error::check_launch("fgbilu cl factorisation (one launch)");
  index_t bad = none;
  cuda_error::throw_if(cuda_copy::memcpy(&bad, flag, sizeof(index_t), cudaMemcpyDeviceToHost), "cudaMemcpy");
  return bad == none ? -1 : bad;
}

namespace {
void cl_sweep_once(const Stencil7View& a, const double* d, const StageGroupsView& g, const double* b, double* x,
                   int backward) {
  check_cl_size(a.n);
  const std::size_t shared = std::size_t(g.points) * (a.n * a.n + a.n) * sizeof(double);
  stage_order::zero_counters(g, "the fgbilu cl sweep", launch_stream());
  cl_sweep_sweep_kernel<<<unsigned(g.groups), unsigned(g.points * a.n * a.n), shared, launch_stream()>>>(a, d, g, b, x,
                                                                                                         backward);
  cuda_error::check_launch(backward ? "fgbilu cl backward sweep (one launch)" : "fgbilu cl forward sweep (one launch)");
}
}  // namespace

void cl_forward_sweep(const Stencil7View& a, const double* d, const StageGroupsView& g, const double* b, double* x) {
  cl_sweep_once(a, d, g, b, x, 0);
}

void cl_backward_sweep(const Stencil7View& a, const double* d, const StageGroupsView& g, double* x) {
  cl_sweep_once(a, d, g, nullptr, x, 1);
}

void residual(const Stencil7View& a, const double* b, const double* x, double* r) {
  residual_kernel<<<blocks_for((long long)a.cells * a.n), threads, 0, launch_stream()>>>(a, b, x, r);
  cuda_error::check_launch("fgbilu residual");
}

void gather_blocks(const index_t* map, index_t blocks, index_t nb, const double* values, double* coef) {
  const long long n = (long long)blocks * nb;
  if (n == 0) return;
  gather_kernel<<<blocks_for(n), threads, 0, launch_stream()>>>(map, nb, values, coef, n);
  cuda_error::check_launch("fgbilu gather_blocks");
}

index_t first_non_finite_block(const double* d, index_t cells, index_t n, index_t* flag) {
  const index_t none = INT_MAX;
  cuda_error::throw_if(cuda_copy::memcpy(flag, &none, sizeof(index_t), cudaMemcpyHostToDevice), "cudaMemcpy");
  first_bad_kernel<<<blocks_for((long long)cells * n * n), threads>>>(d, cells, n, flag);
  cuda_error::check_launch("fgbilu non-finite check");
  index_t bad = none;
  cuda_error::throw_if(cuda_copy::memcpy(&bad, flag, sizeof(index_t), cudaMemcpyDeviceToHost), "cudaMemcpy");
  return bad == none ? -1 : bad;
}

TB_RECORDED_GRAPH_FUNCTIONS(recorder)

}  // namespace tb::fgbilu::kernels::cuda
