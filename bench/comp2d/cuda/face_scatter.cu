// The device side of tb-bench-face-sums (face_scatter.hpp).
#include <cuda_runtime.h>

#include "../face_scatter.hpp"
#include "solvers/core/cuda/error_check.cuh"

namespace tb::bench::face_scatter {

namespace {

constexpr int threads = 256;

int blocks_for(index_t n) { return int((n + threads - 1) / threads); }

__global__ void zero_kernel(double* x, index_t n) {
  const index_t i = index_t(blockIdx.x) * threads + index_t(threadIdx.x);
  if (i < n) x[i] = 0.0;
}

__global__ void atomic_kernel(index_t num_faces, const index_t* left, const index_t* right, int width,
                              const double* face, double* cell) {
  const index_t f = index_t(blockIdx.x) * threads + index_t(threadIdx.x);
  if (f >= num_faces) return;
  const index_t l = left[f], r = right[f];
  for (int k = 0; k < width; ++k) {
    const double v = face[std::size_t(width) * std::size_t(f) + std::size_t(k)];
    atomicAdd(cell + std::size_t(width) * std::size_t(l) + std::size_t(k), v);
    if (r >= 0) atomicAdd(cell + std::size_t(width) * std::size_t(r) + std::size_t(k), -v);
  }
}

__global__ void colour_kernel(const index_t* faces, index_t count, const index_t* left, const index_t* right, int width,
                              const double* face, double* cell) {
  const index_t i = index_t(blockIdx.x) * threads + index_t(threadIdx.x);
  if (i >= count) return;
  const index_t f = faces[i], l = left[f], r = right[f];
  for (int k = 0; k < width; ++k) {
    const double v = face[std::size_t(width) * std::size_t(f) + std::size_t(k)];
    cell[std::size_t(width) * std::size_t(l) + std::size_t(k)] += v;
    if (r >= 0) cell[std::size_t(width) * std::size_t(r) + std::size_t(k)] -= v;
  }
}

void zero(double* cell, index_t n) {
  if (n == 0) return;
  zero_kernel<<<blocks_for(n), threads>>>(cell, n);
  cuda_error::check_launch("face_scatter zero");
}

}  // namespace

void atomic(index_t num_cells, index_t num_faces, const index_t* left, const index_t* right, int width,
            const double* face, double* cell) {
  zero(cell, num_cells * width);
  if (num_faces == 0) return;
  atomic_kernel<<<blocks_for(num_faces), threads>>>(num_faces, left, right, width, face, cell);
  cuda_error::check_launch("face_scatter atomic");
}

void coloured(index_t num_cells, const index_t* colour_faces, const std::vector<index_t>& colour_ptr,
              const index_t* left, const index_t* right, int width, const double* face, double* cell) {
  zero(cell, num_cells * width);
  for (std::size_t c = 0; c + 1 < colour_ptr.size(); ++c) {
    const index_t count = colour_ptr[c + 1] - colour_ptr[c];
    if (count == 0) continue;
    colour_kernel<<<blocks_for(count), threads>>>(colour_faces + colour_ptr[c], count, left, right, width, face, cell);
    cuda_error::check_launch("face_scatter colour");
  }
}

}  // namespace tb::bench::face_scatter
