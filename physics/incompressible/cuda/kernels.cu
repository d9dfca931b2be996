// CUDA twins of the incompressible kernels (kernels.hpp): one thread per cell
// running the host's per-cell bodies (cell_kernels.hpp) in grid-stride loops.
// Reductions give each block its sums or maxima in a fixed order, then one
// block combines the block results: no atomics, so results are reproducible
// for a given size. A reduction's result comes back in one small copy (counted
// with every other copy at solvers/core/transfers.hpp).
#include <cuda_runtime.h>

#include <algorithm>
#include <mutex>
#include <string>

#include "physics/incompressible/kernels.hpp"
#include "solvers/core/cuda/counted_copy.cuh"
#include "solvers/core/cuda/error_check.cuh"
#include "solvers/core/cuda/reduction.cuh"

namespace tb::incompressible::kernels::cuda {

namespace {

constexpr int threads = 256;
// Also the number of partial results: fixed, so the order of a sum depends on n only.
constexpr int max_blocks = 1024;
constexpr int max_results = 4;

int blocks_for(index_t n) {
  return int(std::max<long>(1, std::min<long>((long(n) + threads - 1) / threads, max_blocks)));
}

__device__ __forceinline__ index_t first_index() { return index_t(blockIdx.x * blockDim.x + threadIdx.x); }
__device__ __forceinline__ index_t grid_stride() { return index_t(gridDim.x * blockDim.x); }

template <int K, bool Max, class Body>
__global__ void __launch_bounds__(threads) reduce_cells(index_t begin, index_t end, Body body, double* partial) {
  double v[K] = {};
  for (index_t i = begin + first_index(); i < end; i += grid_stride()) body(i, v);
  cuda_reduction::store_block<threads, K, Max>(v, partial + K * blockIdx.x);
}

template <int K, bool Max>
__global__ void __launch_bounds__(threads) combine_blocks(const double* partial, int blocks, double* result) {
  double v[K] = {};
  for (int b = threadIdx.x; b < blocks; b += threads)
    for (int k = 0; k < K; ++k) v[k] = Max ? fmax(v[k], partial[K * b + k]) : v[k] + partial[K * b + k];
  cuda_reduction::store_block<threads, K, Max>(v, result);
}

template <class Body>
__global__ void __launch_bounds__(threads) for_cells(index_t begin, index_t end, Body body) {
  for (index_t i = begin + first_index(); i < end; i += grid_stride()) body(i);
}

template <class Body>
void run_cells(index_t begin, index_t end, Body body, const char* name) {
  if (end <= begin) return;
  for_cells<<<blocks_for(end - begin), threads>>>(begin, end, body);
  cuda_error::check_launch(name);
}

// Device memory for block results, allocated once per process and never freed
// (static destructors may run after the CUDA context is gone).
std::mutex scratch_mutex;
double* scratch() {
  static double* p = nullptr;
  if (!p) {
    void* q = nullptr;
    cuda_error::throw_if(cudaMalloc(&q, (max_results * max_blocks + max_results) * sizeof(double)),
                         "cudaMalloc of the incompressible kernels' scratch");
    p = static_cast<double*>(q);
  }
  return p;
}

template <int K, bool Max, class Body>
void run_reduction(index_t begin, index_t end, Body body, double* result, const char* name) {
  static_assert(K <= max_results, "the scratch holds max_results per block");
  std::lock_guard lock(scratch_mutex);
  double* partial = scratch();
  const int blocks = blocks_for(end - begin);
  reduce_cells<K, Max><<<blocks, threads>>>(begin, end, body, partial);
  cuda_error::check_launch(name);
  combine_blocks<K, Max><<<1, threads>>>(partial, blocks, partial + K * max_blocks);
  cuda_error::check_launch("combine_blocks");
  cuda_error::throw_if(cuda_copy::memcpy(result, partial + K * max_blocks, K * sizeof(double), cudaMemcpyDeviceToHost),
                       std::string("cudaMemcpy of the ") + name + " result");
}

struct GradientCells {
  GridView g;
  const double* p;
  double* grad;
  __device__ void operator()(index_t cell) const { cell::pressure_gradient(g, p, grad, cell); }
};
struct RhieChowCells {
  GridView g;
  BoundaryView b;
  const double *u, *p, *grad_p;
  double dt;
  FaceView faces;
  __device__ void operator()(index_t cell) const { cell::rhie_chow(g, b, u, p, grad_p, dt, faces, cell); }
};
struct DivergenceCells {
  GridView g;
  ConstFaceView faces;
  double* div;
  __device__ void operator()(index_t cell) const { div[cell] = cell::divergence(g, faces, cell); }
};
struct ProjectCells {
  GridView g;
  const double* phi;
  double dt;
  const double* grad_phi;
  FaceView faces;
  double *u, *p;
  __device__ void operator()(index_t cell) const { cell::project(g, phi, dt, grad_phi, faces, u, p, cell); }
};
struct PoissonRhsCells {
  GridView g;
  ConstFaceView faces;
  double dt;
  double* rhs;
  __device__ void operator()(index_t cell) const { rhs[cell] = cell::poisson_rhs(g, faces, dt, cell); }
};
struct PoissonRows {
  GridView g;
  const index_t* position;
  BlockView a;
  __device__ void operator()(index_t cell) const { cell::poisson_row(g, position, a, cell); }
};
struct PoissonProductCells {
  GridView g;
  const index_t* position;
  ConstBlockView a;
  const double* p;
  double* out;
  __device__ void operator()(index_t cell) const {
    out[cell - g.owned_begin] += cell::poisson_product(g, position, a, p, cell);
  }
};
struct MomentumRows {
  GridView g;
  BoundaryView b;
  cell::MomentumView in;
  const index_t* position;
  BlockView a;
  double* rhs;
  __device__ void operator()(index_t cell, double* acc) const {
    cell::momentum_row(g, b, in, position, a, rhs, cell, acc);
  }
};
struct MaximaCells {
  GridView g;
  const double *u, *u_old, *div;
  double dt;
  __device__ void operator()(index_t cell, double* m) const { cell::step_maxima(g, u, u_old, div, dt, cell, m); }
};
struct AbsMax {
  const double* v;
  __device__ void operator()(index_t i, double* m) const {
    if (isnan(v[i])) m[1] = 1.0;
    m[0] = fmax(m[0], fabs(v[i]));
  }
};
struct ScaledAdd {
  double a;
  const double* x;
  double* y;
  __device__ void operator()(index_t i) const { y[i] += a * x[i]; }
};
struct WeightedSamples {
  const index_t* cells;
  const double *w, *f;
  int m, e;
  double* out;
  __device__ void operator()(index_t i) const { out[i] = cell::weighted_sample(cells, w, f, m, e, i); }
};

struct LineDeviations {
  cell::LineView l;
  const double* f;
  int m, e;
  __device__ void operator()(index_t i, double* acc) const {
    acc[0] = fmax(acc[0], cell::line_deviation(l, f, m, e, i));
  }
};

}  // namespace

void pressure_gradient(const GridView& g, const double* p, double* grad) {
  run_cells(0, g.num_cells(), GradientCells{g, p, grad}, "pressure_gradient");
}

void rhie_chow(const GridView& g, const BoundaryView& b, const double* u, const double* p, const double* grad_p,
               double dt, const FaceView& faces) {
  run_cells(0, g.num_cells(), RhieChowCells{g, b, u, p, grad_p, dt, faces}, "rhie_chow");
}

void divergence(const GridView& g, const ConstFaceView& faces, double* div) {
  run_cells(0, g.num_cells(), DivergenceCells{g, faces, div}, "divergence");
}

void project(const GridView& g, const double* phi, double dt, const double* grad_phi, const FaceView& faces, double* u,
             double* p) {
  run_cells(0, g.num_cells(), ProjectCells{g, phi, dt, grad_phi, faces, u, p}, "project");
}

void poisson_rhs(const GridView& g, const ConstFaceView& faces, double dt, double* rhs) {
  run_cells(0, g.num_cells(), PoissonRhsCells{g, faces, dt, rhs}, "poisson_rhs");
}

void poisson_rows(const GridView& g, const index_t* position, const BlockView& a) {
  run_cells(g.owned_begin, g.owned_end, PoissonRows{g, position, a}, "poisson_rows");
}

void add_poisson_product(const GridView& g, const index_t* position, const ConstBlockView& a, const double* p,
                         double* out) {
  run_cells(g.owned_begin, g.owned_end, PoissonProductCells{g, position, a, p, out}, "add_poisson_product");
}

MomentumSums momentum_rows(const GridView& g, const BoundaryView& b, const cell::MomentumView& in,
                           const index_t* position, const BlockView& a, double* rhs) {
  double r[2] = {0.0, 0.0};
  if (g.owned_end > g.owned_begin)
    run_reduction<2, false>(g.owned_begin, g.owned_end, MomentumRows{g, b, in, position, a, rhs}, r, "momentum_rows");
  return {r[0], r[1]};
}

StepMaxima step_maxima(const GridView& g, const double* u, const double* u_old, const double* div, double dt) {
  double m[4] = {0.0, 0.0, 0.0, 0.0};
  if (g.owned_end > g.owned_begin)
    run_reduction<4, true>(g.owned_begin, g.owned_end, MaximaCells{g, u, u_old, div, dt}, m, "step_maxima");
  return {m[0], m[1], m[2], m[3] == 0.0};
}

double max_abs(index_t n, const double* v) {
  double m[2] = {0.0, 0.0};
  if (n > 0) run_reduction<2, true>(0, n, AbsMax{v}, m, "max_abs");
  return m[1] != 0.0 ? std::nan("") : m[0];
}

void add_scaled(index_t n, double a, const double* x, double* y) { run_cells(0, n, ScaledAdd{a, x, y}, "add_scaled"); }

void weighted_samples(index_t n, const index_t* cells, const double* w, const double* f, int m, int e, double* out) {
  run_cells(0, n, WeightedSamples{cells, w, f, m, e, out}, "weighted_samples");
}

double max_line_deviation(index_t n, const cell::LineView& l, const double* f, int m, int e) {
  double d[1] = {0.0};
  if (n > 0) run_reduction<1, true>(0, n, LineDeviations{l, f, m, e}, d, "max_line_deviation");
  return d[0];
}

}  // namespace tb::incompressible::kernels::cuda
