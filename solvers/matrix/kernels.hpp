#pragma once
// The device step of the matrix room, declared once: the BSR product. ref:: is
// the sequential twin the tests compare omp:: and cuda:: against; omp::
// compiles the block size in for 1..8 (a run-time loop above), cuda:: is the
// tuned CUDA kernel (cuda/kernels.cu; its simpler mappings, one thread per
// scalar row and the flat walk, are declared in cuda/kernels.hpp). The dispatching
// kernels::bsr_spmv takes the backend the pointers live on. Not bitwise across
// backends: ref:: sums a block row's products in one chain, omp:: and cuda::
// block by block.
#include "bsr.hpp"
#include "solvers/core/backend.hpp"

#define TB_MATRIX_KERNELS                                          \
  /* y = A x for block sizes 1..64; every entry of y is written */ \
  void bsr_spmv(const BsrView& a, const double* x, double* y);

namespace tb::kernels::ref {
TB_MATRIX_KERNELS
}
namespace tb::kernels::omp {
TB_MATRIX_KERNELS
}
namespace tb::kernels::cuda {
TB_MATRIX_KERNELS
}

namespace tb::kernels {
// Dispatch: the backend the pointers live on (host runs omp::).
void bsr_spmv(Backend b, const BsrView& a, const double* x, double* y);
}  // namespace tb::kernels
