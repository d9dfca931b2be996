#pragma once
// ParILUT's candidate search (seed 003 Eq. 5, §IV): the locations where the
// ILU residual can be nonzero outside the current factors,
//   F = (A + L U) \ (L u U)   (structurally),
// found row by row like the symbolic phase of an SpGEMM in two passes: count,
// prefix sum, fill. Columns come out sorted; values are left zero (the residual
// kernel fills them).
#include "ilu_factors.hpp"

namespace tb::parilut {

CsrMatrix find_candidates_ref(const CsrMatrix& a, const IluFactors& f);
CsrMatrix find_candidates_omp(const CsrMatrix& a, const IluFactors& f);

}  // namespace tb::parilut
