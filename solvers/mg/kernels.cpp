// Backend dispatch of the multigrid kernels: OpenMP on the host, CUDA otherwise
// (TB_CUDA_CALL throws "built without CUDA" in host-only builds).
#include "kernels.hpp"

#include "solvers/core/cuda_call.hpp"

namespace tb::mg::kernels {

namespace {
bool on_cuda(Backend b) { return b == Backend::cuda; }
}  // namespace

void residual(Backend be, const StencilView& a, const double* b, const double* x, double* r) {
  if (on_cuda(be)) return TB_CUDA_CALL(cuda::residual(a, b, x, r));
  omp::residual(a, b, x, r);
}

void polynomial_step(Backend be, const StencilView& a, double alpha, double beta, const double* b, const double* x_in,
                     double* d, double* x_out) {
  if (on_cuda(be)) return TB_CUDA_CALL(cuda::polynomial_step(a, alpha, beta, b, x_in, d, x_out));
  omp::polynomial_step(a, alpha, beta, b, x_in, d, x_out);
}

void colour_sweep(Backend be, const StencilView& a, int colour, const double* b, double* x) {
  if (on_cuda(be)) return TB_CUDA_CALL(cuda::colour_sweep(a, colour, b, x));
  omp::colour_sweep(a, colour, b, x);
}

void rows_relax(Backend be, const StencilView& a, const index_t* rows, index_t count, const double* b, const double* x,
                double* t) {
  if (count <= 0) return;
  if (on_cuda(be)) return TB_CUDA_CALL(cuda::rows_relax(a, rows, count, b, x, t));
  omp::rows_relax(a, rows, count, b, x, t);
}

void rows_scatter(Backend be, const index_t* rows, index_t count, const double* t, double* x) {
  if (count <= 0) return;
  if (on_cuda(be)) return TB_CUDA_CALL(cuda::rows_scatter(rows, count, t, x));
  omp::rows_scatter(rows, count, t, x);
}

void rows_scale(Backend be, const index_t* rows, index_t count, const double* s, double* x) {
  if (count <= 0) return;
  if (on_cuda(be)) return TB_CUDA_CALL(cuda::rows_scale(rows, count, s, x));
  omp::rows_scale(rows, count, s, x);
}

void restrict_residual(Backend be, const TransferView& t, const double* r, double* bc) {
  if (on_cuda(be)) return TB_CUDA_CALL(cuda::restrict_residual(t, r, bc));
  omp::restrict_residual(t, r, bc);
}

void prolong_add(Backend be, const TransferView& t, const double* xc, double* x) {
  if (on_cuda(be)) return TB_CUDA_CALL(cuda::prolong_add(t, xc, x));
  omp::prolong_add(t, xc, x);
}

void dense_apply(Backend be, index_t n, const double* g, index_t row_stride, index_t col_stride, const double* b,
                 double* x) {
  if (on_cuda(be)) return TB_CUDA_CALL(cuda::dense_apply(n, g, row_stride, col_stride, b, x));
  omp::dense_apply(n, g, row_stride, col_stride, b, x);
}

void fill_zero(Backend be, index_t n, double* x) {
  if (n <= 0) return;
  if (on_cuda(be)) return TB_CUDA_CALL(cuda::fill_zero(n, x));
  omp::fill_zero(n, x);
}

void copy(Backend be, index_t n, const double* src, double* dst) {
  if (n <= 0) return;
  if (on_cuda(be)) return TB_CUDA_CALL(cuda::copy(n, src, dst));
  omp::copy(n, src, dst);
}

void add(Backend be, index_t n, const double* z, double* x) {
  if (n <= 0) return;
  if (on_cuda(be)) return TB_CUDA_CALL(cuda::add(n, z, x));
  omp::add(n, z, x);
}

}  // namespace tb::mg::kernels
