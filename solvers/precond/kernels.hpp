#pragma once
// The device steps of the precond room, one declared kernel each. BILU(0) here
// is the sequential block ILU(0) that every seed paper compares against, so it
// has only the ref:: twin: its parallel versions are the seed rooms' own
// (fgbilu's wavefronts, async_ilu's fixed-point sweeps, parilut's ParILU), each
// tested against these. Point and block Jacobi need no kernel of their own: they
// apply through the matrix room's bsr_spmv on any backend (basic.cpp).
#include "bilu0.hpp"

namespace tb::precond {

#define TB_PRECOND_KERNELS                                                                                   \
  /* Numeric BILU(0) on the symbolic factors (row by row, natural order; inverted U diagonal); throws naming \
     the block row of a singular pivot block, or when a's pattern is not the one set up */                   \
  void bilu0_factor(const BsrMatrix& a, Bilu0Factors& f);                                                    \
  /* z = (LU)^{-1} r: the forward then backward block sweep over the sweep layout */                         \
  void bilu0_apply(const Bilu0Factors& f, const double* r, double* z);

namespace kernels::ref {
TB_PRECOND_KERNELS
}

}  // namespace tb::precond
