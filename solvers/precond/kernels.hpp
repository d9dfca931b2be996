#pragma once
// The device steps of the precond room, one declared kernel each. BILU(0) here
// is the sequential block ILU(0) that every seed paper compares against, so it
// has only the ref:: twin: its parallel versions are the seed rooms' own
// (fgbilu's wavefronts, async_ilu's fixed-point sweeps, parilut's ParILU), each
// tested against these. Point and block Jacobi apply through the matrix room's
// bsr_spmv on any backend (basic.cpp); their numeric set-up from values that
// already live on a backend (a device-assembled system) is the one step with
// ref::, omp:: and cuda:: twins (TB_PRECOND_DIAGONAL_KERNELS), bit for bit
// (cuda/kernels.cu is compiled without FMA contraction).
#include "bilu0.hpp"
#include "solvers/core/backend.hpp"

namespace tb::precond {

#define TB_PRECOND_KERNELS                                                                                   \
  /* Numeric BILU(0) on the symbolic factors (row by row, natural order; inverted U diagonal); throws naming \
     the block row of a singular pivot block, or when a's pattern is not the one set up */                   \
  void bilu0_factor(const BsrMatrix& a, Bilu0Factors& f);                                                    \
  /* z = (LU)^{-1} r: the forward then backward block sweep over the sweep layout */                         \
  void bilu0_apply(const Bilu0Factors& f, const double* r, double* z);

#define TB_PRECOND_DIAGONAL_KERNELS                                                                         \
  /* inverse[i] = the inverse of block row i's diagonal block of a (diagonal[i]: its position), whole or on \
     its diagonal only; returns the first block row that is singular or not finite, or -1. flag: one index  \
     of scratch on the backend (cuda), unused on the host */                                                \
  index_t invert_diagonal(const BsrView& a, const index_t* diagonal, bool whole_blocks, double* inverse, index_t* flag);

namespace kernels::ref {
TB_PRECOND_KERNELS
TB_PRECOND_DIAGONAL_KERNELS
}  // namespace kernels::ref
namespace kernels::omp {
TB_PRECOND_DIAGONAL_KERNELS
}
namespace kernels::cuda {
TB_PRECOND_DIAGONAL_KERNELS
}
namespace kernels {
// Dispatch: the backend the pointers live on.
index_t invert_diagonal(Backend b, const BsrView& a, const index_t* diagonal, bool whole_blocks, double* inverse,
                        index_t* flag);
}  // namespace kernels

}  // namespace tb::precond
