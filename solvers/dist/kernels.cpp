// Dispatch of the distributed product's device steps on the backend the
// pointers live on (TB_CUDA_CALL throws "built without CUDA" in host-only builds).
#include "kernels.hpp"

#include "solvers/core/cuda_call.hpp"

namespace tb::dist::kernels {

void gather_items(Backend b, const double* src, const index_t* items, index_t count, index_t width, double* out) {
  if (count == 0) return;
  if (b == Backend::cuda) return TB_CUDA_CALL(cuda::gather_items(src, items, count, width, out));
  omp::gather_items(src, items, count, width, out);
}

void scatter_items(Backend b, const double* in, const index_t* items, index_t count, index_t width, double* dst) {
  if (count == 0) return;
  if (b == Backend::cuda) return TB_CUDA_CALL(cuda::scatter_items(in, items, count, width, dst));
  omp::scatter_items(in, items, count, width, dst);
}

void add_rows_product(Backend b, const BsrView& off, const index_t* rows, index_t count, const double* x, double* y) {
  if (count == 0) return;
  if (b == Backend::cuda) return TB_CUDA_CALL(cuda::add_rows_product(off, rows, count, x, y));
  omp::add_rows_product(off, rows, count, x, y);
}

void finish_kernels(Backend b) {
  if (b == Backend::cuda) TB_CUDA_CALL(cuda::finish_kernels());
}

}  // namespace tb::dist::kernels
