// Backend dispatch of the banded kernels: OpenMP on the host, CUDA otherwise
// (TB_CUDA_CALL throws "built without CUDA" in host-only builds).
#include "kernels.hpp"

#include "solvers/core/cuda_call.hpp"

namespace tb::banded::kernels {

namespace {
bool on_cuda(Backend b) { return b == Backend::cuda; }
}  // namespace

void dia_spmv(Backend b, const DiaView& a, index_t begin, index_t end, const double* x_ext, double* y) {
  if (begin >= end) return;
  if (on_cuda(b)) return TB_CUDA_CALL(cuda::dia_spmv(a, begin, end, x_ext, y));
  omp::dia_spmv(a, begin, end, x_ext, y);
}

void stencil_spmv(Backend b, const StencilSlab& a, index_t begin, index_t end, const double* x_ext, double* y) {
  if (begin >= end) return;
  if (on_cuda(b)) return TB_CUDA_CALL(cuda::stencil_spmv(a, begin, end, x_ext, y));
  omp::stencil_spmv(a, begin, end, x_ext, y);
}

void jacobi_apply(Backend b, index_t n, const double* dinv, const double* r, double* z) {
  if (n <= 0) return;
  if (on_cuda(b)) return TB_CUDA_CALL(cuda::jacobi_apply(n, dinv, r, z));
  omp::jacobi_apply(n, dinv, r, z);
}

void stencil_inverse_diagonal(Backend b, const StencilSlab& a, index_t n, double* dinv) {
  if (n <= 0) return;
  if (on_cuda(b)) return TB_CUDA_CALL(cuda::stencil_inverse_diagonal(a, n, dinv));
  omp::stencil_inverse_diagonal(a, n, dinv);
}

void bicg_direction(Backend b, index_t n, double beta, double omega, const BicgVectors& w) {
  if (n <= 0) return;
  if (on_cuda(b)) return TB_CUDA_CALL(cuda::bicg_direction(n, beta, omega, w));
  omp::bicg_direction(n, beta, omega, w);
}

void bicg_half_step(Backend b, index_t n, double alpha, const BicgVectors& w) {
  if (n <= 0) return;
  if (on_cuda(b)) return TB_CUDA_CALL(cuda::bicg_half_step(n, alpha, w));
  omp::bicg_half_step(n, alpha, w);
}

Partials bicg_stabiliser_dots(Backend b, index_t n, const BicgVectors& w) {
  if (n <= 0) return {};
  if (on_cuda(b)) return TB_CUDA_CALL(cuda::bicg_stabiliser_dots(n, w));
  return omp::bicg_stabiliser_dots(n, w);
}

BicgMergedDots bicg_merged_dots(Backend b, index_t n, const BicgVectors& w) {
  if (n <= 0) return {};
  if (on_cuda(b)) return TB_CUDA_CALL(cuda::bicg_merged_dots(n, w));
  return omp::bicg_merged_dots(n, w);
}

Partials bicg_solution_update(Backend b, index_t n, double alpha, double omega, const BicgVectors& w) {
  if (n <= 0) return {};
  if (on_cuda(b)) return TB_CUDA_CALL(cuda::bicg_solution_update(n, alpha, omega, w));
  return omp::bicg_solution_update(n, alpha, omega, w);
}

Partials cg_solution_update(Backend b, index_t n, double alpha, const double* dinv, const double* p, const double* q,
                            double* x, double* r, double* z) {
  if (n <= 0) return {};
  if (on_cuda(b)) return TB_CUDA_CALL(cuda::cg_solution_update(n, alpha, dinv, p, q, x, r, z));
  return omp::cg_solution_update(n, alpha, dinv, p, q, x, r, z);
}

void cg_direction(Backend b, index_t n, double beta, const double* z, double* p) {
  if (n <= 0) return;
  if (on_cuda(b)) return TB_CUDA_CALL(cuda::cg_direction(n, beta, z, p));
  omp::cg_direction(n, beta, z, p);
}

Partials cg_recurrence_update(Backend b, index_t n, double alpha, double beta, const CgRecurrenceVectors& v) {
  if (n <= 0) return {};
  if (on_cuda(b)) return TB_CUDA_CALL(cuda::cg_recurrence_update(n, alpha, beta, v));
  return omp::cg_recurrence_update(n, alpha, beta, v);
}

Partials dots_and_max(Backend b, index_t n, int k, const double* const* x, const double* const* y, const double* m) {
  if (n <= 0) return {};
  if (on_cuda(b)) return TB_CUDA_CALL(cuda::dots_and_max(n, k, x, y, m));
  return omp::dots_and_max(n, k, x, y, m);
}

}  // namespace tb::banded::kernels
