// CUDA twins of the immersed-boundary kernels (kernels.hpp): one thread per
// cell (ghost, surface point) running the host's bodies (cell_kernels.hpp) in
// grid-stride loops. Reductions give each block its sums or maxima in a fixed
// order, then one block combines the block results: no atomics, so results are
// reproducible for a given size. A reduction's result comes back in one small
// copy (counted with every other copy at solvers/core/transfers.hpp).
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <mutex>
#include <string>

#include "physics/immersed/kernels.hpp"
#include "solvers/core/cuda/counted_copy.cuh"
#include "solvers/core/cuda/error_check.cuh"
#include "solvers/core/cuda/reduction.cuh"

namespace tb::immersed::kernels::cuda {

namespace {

constexpr int threads = 256;
// Also the number of partial results: fixed, so the order of a sum depends on n only.
constexpr int max_blocks = 1024;
constexpr int max_results = 6;

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
                         "cudaMalloc of the immersed-boundary kernels' scratch");
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

struct MomentumRhsCells {
  GridView g;
  cell::MomentumView in;
  __device__ void operator()(index_t cell) const { cell::momentum_rhs(g, in, cell); }
};
struct GhostValues {
  const index_t* cells;
  const double* values;
  double* rhs;
  __device__ void operator()(index_t k) const { rhs[cells[k]] = values[k]; }
};
struct FaceVelocityCells {
  GridView g;
  SidesView sides;
  cell::ConstVelocityView u;
  FaceView faces;
  __device__ void operator()(index_t cell) const { cell::face_velocities(g, sides, u, faces, cell); }
};
struct PressureRhsCells {
  GridView g;
  ConstFaceView faces;
  double scale;
  double* rhs;
  __device__ void operator()(index_t cell) const { rhs[cell] = cell::pressure_rhs(g, faces, scale, cell); }
};
struct ProjectCells {
  GridView g;
  SidesView sides;
  double k;
  const double* p;
  FaceView faces;
  cell::VelocityView u;
  __device__ void operator()(index_t cell) const { cell::project(g, sides, k, p, faces, u, cell); }
};
struct MaximaCells {
  GridView g;
  cell::ConstVelocityView u, u_old;
  ConstFaceView faces;
  double dt;
  __device__ void operator()(index_t cell, double* m) const { cell::step_maxima(g, u, u_old, faces, dt, cell, m); }
};
struct SystemRows {
  GridView g;
  cell::RowsView rows;
  __device__ void operator()(index_t cell) const { cell::system_row(g, rows, cell); }
};
struct GhostRows {
  cell::StencilsView stencils;
  double* values;
  __device__ void operator()(index_t k) const { cell::ghost_row(stencils, values, k); }
};
struct SurfacePoints {
  cell::SurfaceView s;
  const double* p;
  cell::ConstVelocityView u;
  __device__ void operator()(index_t i, double* acc) const { cell::surface_force(s, p, u, i, acc); }
};

struct AbsMax {
  const double* v;
  __device__ void operator()(index_t i, double* m) const {
    if (isnan(v[i])) m[1] = 1.0;
    m[0] = fmax(m[0], fabs(v[i]));
  }
};

}  // namespace

void momentum_rhs(const GridView& g, const cell::MomentumView& in) {
  run_cells(g.owned_begin, g.owned_end, MomentumRhsCells{g, in}, "momentum_rhs");
}

void ghost_values(index_t n, const index_t* cells, const double* values, double* rhs) {
  run_cells(0, n, GhostValues{cells, values, rhs}, "ghost_values");
}

void face_velocities(const GridView& g, const SidesView& sides, const cell::ConstVelocityView& u,
                     const FaceView& faces) {
  run_cells(g.owned_begin, g.faces_end, FaceVelocityCells{g, sides, u, faces}, "face_velocities");
}

void pressure_rhs(const GridView& g, const ConstFaceView& faces, double scale, double* rhs) {
  run_cells(g.owned_begin, g.owned_end, PressureRhsCells{g, faces, scale, rhs}, "pressure_rhs");
}

void project(const GridView& g, const SidesView& sides, double k, const double* p, const FaceView& faces,
             const cell::VelocityView& u) {
  run_cells(g.owned_begin, g.faces_end, ProjectCells{g, sides, k, p, faces, u}, "project");
}

StepMaxima step_maxima(const GridView& g, const cell::ConstVelocityView& u, const cell::ConstVelocityView& u_old,
                       const ConstFaceView& faces, double dt) {
  double m[4] = {0.0, 0.0, 0.0, 0.0};
  if (g.owned_end > g.owned_begin)
    run_reduction<4, true>(g.owned_begin, g.owned_end, MaximaCells{g, u, u_old, faces, dt}, m, "step_maxima");
  return {m[0], m[1], m[2], m[3] == 0.0};
}

void system_rows(const GridView& g, const cell::RowsView& rows) {
  run_cells(g.owned_begin, g.owned_end, SystemRows{g, rows}, "system_rows");
}

void ghost_rows(const cell::StencilsView& stencils, double* values) {
  run_cells(0, stencils.count, GhostRows{stencils, values}, "ghost_rows");
}

ForceSums surface_force(const cell::SurfaceView& s, const double* p, const cell::ConstVelocityView& u) {
  double r[6] = {0.0, 0.0, 0.0, 0.0, 0.0, 0.0};
  if (s.pressure.count > 0) run_reduction<6, false>(0, s.pressure.count, SurfacePoints{s, p, u}, r, "surface_force");
  ForceSums f;
  for (int d = 0; d < 3; ++d) f.pressure[d] = r[d], f.viscous[d] = r[3 + d];
  return f;
}

double max_abs(index_t n, const double* v) {
  double m[2] = {0.0, 0.0};
  if (n > 0) run_reduction<2, true>(0, n, AbsMax{v}, m, "max_abs");
  return m[1] != 0.0 ? std::nan("") : m[0];
}

}  // namespace tb::immersed::kernels::cuda
