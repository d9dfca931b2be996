#include "parilut.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "fixed_point.hpp"
#include "kernels.hpp"
#include "pattern_update.hpp"
#include "sample_select.hpp"
#include "solvers/core/error.hpp"
#include "solvers/core/timer.hpp"

namespace tb::parilut {

namespace {

void sweeps(const CsrMatrix& a, IluFactors& f, int count, Kernel kernel) {
  for (int s = 0; s < count; ++s) kernels::sweep(kernel, a, f);
}

// The rule that drops the `excess` smallest off-diagonal magnitudes of a
// factor: exactly that many with exact selection; with the approximate one at
// least that many and at most one bucket more, so the budget always holds.
DropRule drop_rule(const CsrMatrix& factor, long long budget, bool exact) {
  const std::vector<double> m = off_diagonal_magnitudes(factor);
  const long long excess = (long long)m.size() - budget;
  if (excess <= 0) return {-1.0, 0};  // magnitudes are >= 0: nothing is below -1
  const std::size_t k = std::size_t(excess - 1);
  const Selection s = exact ? sample_select(m, k) : sample_select_approx(m, k);
  // An exact threshold (also the approximate one's fallback on small data) has
  // fewer than `excess` entries strictly below it: the rest come from its ties.
  return {s.value, std::max(0LL, excess - (long long)s.below)};
}

double frobenius(const std::vector<double>& v) {
  double s = 0.0;
  for (double x : v) s += x * x;
  return std::sqrt(s);
}

}  // namespace

IluFactors parilut_factor(const CsrMatrix& a, const ParilutOptions& o, std::vector<StepReport>* report) {
  if (!(o.fill >= 1.0)) throw Error("parilut: fill must be at least 1, got " + std::to_string(o.fill));
  if (o.steps < 0 || o.sweeps < 1) throw Error("parilut: steps must be >= 0 and sweeps >= 1");
  IluFactors f = initial_factors(a);
  const TriangleCounts t = triangle_counts(a);
  const long long budget_l = (long long)(o.fill * double(t.strict_lower));
  const long long budget_u = (long long)(o.fill * double(t.strict_upper));
  for (int step = 0; step < o.steps; ++step) {
    StepReport r;
    WallTimer t;
    auto lap = [&t, &r](StepBlock b) {
      r.seconds[b] += t.seconds();
      t.restart();
    };
    CsrMatrix candidates = kernels::find_candidates(o.kernel, a, f);
    lap(StepBlock::candidates);
    kernels::candidate_residuals(o.kernel, a, f, candidates);
    r.candidates = candidates.nnz();
    r.candidate_residual = frobenius(candidates.values);
    lap(StepBlock::residuals);
    add_candidates(f, candidates);
    lap(StepBlock::add);
    sweeps(a, f, o.sweeps, o.kernel);
    lap(StepBlock::sweeps);
    r.nnz_after_add = f.off_diagonal_nnz();
    const DropRule l_rule = drop_rule(f.l, budget_l, o.exact_select);
    const DropRule u_rule = drop_rule(f.u, budget_u, o.exact_select);
    lap(StepBlock::select);
    remove_small(f, l_rule, u_rule);
    lap(StepBlock::remove);
    sweeps(a, f, o.sweeps, o.kernel);
    lap(StepBlock::sweeps);
    r.nnz_after_remove = f.off_diagonal_nnz();
    if (report) report->push_back(r);
  }
  check_factors(f);
  return f;
}

IluFactors parilu_factor(const CsrMatrix& a, int sweep_count, Kernel kernel) {
  if (sweep_count < 1) throw Error("parilu: sweeps must be at least 1, got " + std::to_string(sweep_count));
  IluFactors f = initial_factors(a);
  sweeps(a, f, sweep_count, kernel);
  check_factors(f);
  return f;
}

void ilu_apply_ref(const IluFactors& f, const double* r, double* z) {
  const index_t n = f.rows();
  for (index_t i = 0; i < n; ++i) {  // L's unit diagonal is the last entry of each row
    double s = r[i];
    for (index_t p = f.l.row_ptr[i]; p < f.l.row_ptr[i + 1] - 1; ++p) s -= f.l.values[p] * z[f.l.col_idx[p]];
    z[i] = s;
  }
  for (index_t i = n - 1; i >= 0; --i) {  // U's diagonal is the first entry of each row
    double s = z[i];
    const index_t d = f.u.row_ptr[i];
    for (index_t p = d + 1; p < f.u.row_ptr[i + 1]; ++p) s -= f.u.values[p] * z[f.u.col_idx[p]];
    z[i] = s / f.u.values[d];
  }
}

}  // namespace tb::parilut
