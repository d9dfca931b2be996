#pragma once
// The cuSPARSE baseline of tb-bench-fgbilu: BSR ILU(0) by bsrilu02 and the two
// triangular solves by bsrsv2 (level scheduling inside cuSPARSE), on the same
// matrix FGBILU factorises. Plain C++ declarations; defined in
// cusparse_bilu0.cu and called through TB_CUDA_CALL.
#include "solvers/matrix/bsr.hpp"

namespace tb::bench::gpu {

struct CusparseBilu0Seconds {
  double factor = 0.0;  // bsrilu02, numeric only (analysis excluded, as FGBILU's schedule is)
  double solve = 0.0;   // bsrsv2 with L (unit) then U
};

// Best of 'reps' timings of each part (CUDA events).
CusparseBilu0Seconds cusparse_bilu0_seconds(const BsrMatrix& a, int reps);

}  // namespace tb::bench::gpu
