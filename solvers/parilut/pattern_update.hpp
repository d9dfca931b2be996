#pragma once
// The two pattern changes of a ParILUT step (seed 003 Fig. 2, §IV "Add/Remove
// elements"): adding the candidate locations with the ILU residual as initial
// value, and dropping the off-diagonal entries below a threshold. Both are
// row-parallel in two passes (count, then fill) and keep every row sorted.
#include <cfloat>
#include <vector>

#include "ilu_factors.hpp"
#include "solvers/core/host_device.hpp"

namespace tb::parilut {

// Candidates (with residual values r_ij) join L when j < i, as r_ij / u_jj, and U
// otherwise, as r_ij.
void add_candidates(IluFactors& f, const CsrMatrix& candidates);

// |x| as the removal ranks an off-diagonal entry, NaN as the largest double:
// a NaN (an asynchronous sweep that overflowed on its way to the fixed point;
// the next sweeps recompute it from its neighbours) ranks above every
// threshold, so the selection counts it among the entries kept and every
// removal keeps it. Compared as |x| > t, a NaN would go even under the rule
// that drops nothing, and an exact removal would remove more than it selected.
TB_HOST_DEVICE inline double drop_magnitude(double x) { return x != x ? DBL_MAX : x < 0.0 ? -x : x; }

// Keeps the diagonals and the off-diagonal entries of magnitude above t; of those
// equal to t, keeps all but the first `drop_ties` (in row-major order), so that
// an exact threshold removes exactly the number asked. L and U are pruned with
// their own thresholds.
struct DropRule {
  double threshold = 0.0;
  long long drop_ties = 0;
};
void remove_small(IluFactors& f, DropRule l_rule, DropRule u_rule);

// Magnitudes of the off-diagonal entries of a factor, row-major: the sequence
// the threshold is selected from.
std::vector<double> off_diagonal_magnitudes(const CsrMatrix& factor);

}  // namespace tb::parilut
