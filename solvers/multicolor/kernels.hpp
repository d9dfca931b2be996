#pragma once
// The device step of the multicolour point-implicit solver that every backend
// has (seed 002 §III steps 1-3 over the rows of one colour, relax_row), declared
// once: ref:: is the sequential twin, omp:: splits the rows over threads,
// cuda:: runs one thread per block row. Pointers live on the backend named;
// blocks are row-major on the host and column-major on CUDA (the paper's
// layout, cuda/kernels.cu).
//
// The tuned CUDA kernels (Table I SpMV and the warp-per-block substitution),
// the fused sweep and the cuSPARSE + cuBLAS baseline are CUDA-only variants
// with no host counterpart: cuda/kernels.hpp declares them and
// DeviceSplit chooses among them by Options::kernel.
#include "options.hpp"
#include "relax_colour.hpp"

namespace tb::multicolor {

#define TB_MULTICOLOR_KERNELS                                                                              \
  /* steps 1-3 for the block rows begin <= i < end of one colour: x_i = U_i^{-1} L_i^{-1} (b_i - O_i x) */ \
  void relax_colour(const RelaxView<float>& m, index_t begin, index_t end, const double* b, double* x);    \
  void relax_colour(const RelaxView<double>& m, index_t begin, index_t end, const double* b, double* x);

namespace kernels::ref {
TB_MULTICOLOR_KERNELS
}
namespace kernels::omp {
TB_MULTICOLOR_KERNELS
}
namespace kernels::cuda {
TB_MULTICOLOR_KERNELS
}

namespace kernels {
// Dispatch on host arrays by the room's kernel selector: Kernel::ref runs
// ref::, Kernel::tuned omp::. The CUDA-only kernels (library, fused) and an
// unresolved `automatic` throw tb::Error naming the kernel.
void relax_colour(Kernel k, const RelaxView<float>& m, index_t begin, index_t end, const double* b, double* x);
void relax_colour(Kernel k, const RelaxView<double>& m, index_t begin, index_t end, const double* b, double* x);
}  // namespace kernels

}  // namespace tb::multicolor
