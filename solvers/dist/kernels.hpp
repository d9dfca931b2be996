#pragma once
// The device steps of the distributed product on a backend (docs/distributed.md,
// "On a backend"), declared once: ref:: is the sequential twin the tests compare
// omp:: against bit for bit; cuda:: (cuda/kernels.cu) runs the same row bodies
// (halo_rows.hpp), one thread per item or row. The dispatching kernels take the
// backend the pointers live on. No MPI or CUDA header here.
#include "solvers/core/backend.hpp"
#include "solvers/matrix/bsr.hpp"

#define TB_DIST_KERNELS                                                                                         \
  /* out[s * width + c] = src[items[s] * width + c] for s < count: a halo exchange's send items packed in the   \
     plan's order */                                                                                            \
  void gather_items(const double* src, const index_t* items, index_t count, index_t width, double* out);        \
  /* dst[items[s] * width + c] = in[s * width + c] for s < count: a halo exchange's received items put in their \
     local places (distinct items) */                                                                           \
  void scatter_items(const double* in, const index_t* items, index_t count, index_t width, double* dst);        \
  /* y[rows[k]] += (off x)[rows[k]] for k < count: the off-rank block's product added on the rows that hold its \
     blocks (distinct rows), each summed as block_row_product sums a row */                                     \
  void add_rows_product(const BsrView& off, const index_t* rows, index_t count, const double* x, double* y);

namespace tb::dist::kernels {
namespace ref {
TB_DIST_KERNELS
}  // namespace ref
namespace omp {
TB_DIST_KERNELS
}  // namespace omp
namespace cuda {
TB_DIST_KERNELS
// Waits for the device's kernels: MPI reads a packed buffer on the device
// (CUDA-aware transport) only once its gather has finished.
void finish_kernels();
}  // namespace cuda

// Dispatch: the backend the pointers live on (host runs omp::).
void gather_items(Backend b, const double* src, const index_t* items, index_t count, index_t width, double* out);
void scatter_items(Backend b, const double* in, const index_t* items, index_t count, index_t width, double* dst);
void add_rows_product(Backend b, const BsrView& off, const index_t* rows, index_t count, const double* x, double* y);
// The backend's kernels finished (nothing to wait for on the host).
void finish_kernels(Backend b);
}  // namespace tb::dist::kernels
