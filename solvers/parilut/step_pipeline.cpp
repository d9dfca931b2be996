#include "step_pipeline.hpp"

#include <algorithm>
#include <cmath>
#include <span>
#include <string>

#include "device_sample_select.hpp"
#include "fixed_point.hpp"
#include "kernels.hpp"
#include "sample_select.hpp"
#include "solvers/core/backend.hpp"
#include "solvers/core/cuda_call.hpp"
#include "solvers/core/error.hpp"
#include "solvers/core/memory.hpp"
#include "solvers/core/timer.hpp"

// One step kernel on the pipeline's backend and host kernel.
#define TB_STEP(call)                                               \
  (backend_ == Backend::cuda    ? TB_CUDA_CALL(kernels::cuda::call) \
   : opt_.kernel == Kernel::ref ? kernels::ref::call                \
                                : kernels::omp::call)

namespace tb::parilut {

namespace {

template <class T>
void put(Array<T>& dst, const std::vector<T>& src) {
  if (src.size() > dst.size()) throw Error("internal: parilut pipeline upload beyond its workspace");
  memory::copy(dst.data(), dst.backend(), src.data(), Backend::host, src.size() * sizeof(T));
}
template <class T>
std::vector<T> get(const Array<T>& src, index_t count) {
  std::vector<T> out(static_cast<std::size_t>(count));
  memory::copy(out.data(), Backend::host, src.data(), src.backend(), out.size() * sizeof(T));
  return out;
}

std::vector<index_t> entry_rows(const CsrMatrix& f) {
  std::vector<index_t> rows(std::size_t(f.nnz()));
  for (index_t i = 0; i < f.rows; ++i) std::fill(rows.begin() + f.row_ptr[i], rows.begin() + f.row_ptr[i + 1], i);
  return rows;
}

index_t checked_index(long long n, const char* what) {
  if (n > 0x7fffffffLL) throw Error(std::string("parilut: the ") + what + " exceed 32-bit indices");
  return index_t(n);
}

// Rows grouped by level (ascending within a level): level(i) is one above the
// highest level among the rows row i reads (dep lists them).
template <class Deps>
std::vector<index_t> group_by_level(index_t n, bool downward, Deps deps, std::vector<index_t>& level_ptr) {
  std::vector<index_t> level(std::size_t(n), 0);
  index_t top = -1;
  for (index_t k = 0; k < n; ++k) {
    const index_t i = downward ? n - 1 - k : k;
    index_t l = 0;
    deps(i, [&](index_t j) { l = std::max(l, level[j] + 1); });
    level[i] = l;
    top = std::max(top, l);
  }
  level_ptr.assign(std::size_t(top) + 2, 0);
  for (index_t i = 0; i < n; ++i) ++level_ptr[level[i] + 1];
  for (index_t l = 0; l <= top; ++l) level_ptr[l + 1] += level_ptr[l];
  std::vector<index_t> rows(static_cast<std::size_t>(n)), next(level_ptr.begin(), level_ptr.end() - 1);
  for (index_t i = 0; i < n; ++i) rows[next[level[i]]++] = i;
  return rows;
}

Backend usable(Backend b) {
  if (b == Backend::cuda) {
    const std::string why = cuda_unavailable_reason();
    if (!why.empty()) throw Unsupported("parilut(backend=cuda): " + why);
  }
  return b;
}

}  // namespace

PipelinePlan plan_pipeline(const CsrMatrix& a, double fill, double candidate_room) {
  if (!(fill >= 1.0)) throw Error("parilut: fill must be at least 1, got " + std::to_string(fill));
  if (!(candidate_room > 0.0))
    throw Error("parilut: candidate_room must be positive, got " + std::to_string(candidate_room));
  const TriangleCounts t = triangle_counts(a);
  PipelinePlan p;
  p.n = a.rows;
  p.budget_l = (long long)(fill * double(t.strict_lower));
  p.budget_u = (long long)(fill * double(t.strict_upper));
  const double budget = double(p.budget_l + p.budget_u);
  p.candidate_capacity = checked_index((long long)std::ceil(candidate_room * budget) + p.n, "candidates");
  p.l_capacity = checked_index(p.budget_l + p.n + p.candidate_capacity, "factor entries");
  p.u_capacity = checked_index(p.budget_u + p.n + p.candidate_capacity, "factor entries");
  return p;
}

std::size_t PipelinePlan::workspace_bytes() const {
  const std::size_t i = sizeof(index_t), d = sizeof(double), rows = std::size_t(n) + 1;
  const std::size_t entry = 2 * i + d;  // column, row, value
  std::size_t b = 2 * (rows * i + std::size_t(l_capacity) * entry);
  b += 2 * (rows * i + std::size_t(u_capacity) * entry);
  b += rows * i + std::size_t(candidate_capacity) * entry;            // candidates
  b += 3 * rows * i + 2 * std::size_t(u_capacity) * i;                // U's columns, cursors, ties
  b += std::size_t(std::max(l_capacity, u_capacity)) * d + rows * d;  // magnitudes, apply's L^{-1} r
  return b + std::size_t(scan_scratch_size) * i;
}

FactorArrays::FactorArrays(Backend b, index_t n, index_t capacity)
    : ptr(b, std::size_t(n) + 1),
      col(b, std::size_t(capacity)),
      row(b, std::size_t(capacity)),
      val(b, std::size_t(capacity)) {}

StepPipeline::StepPipeline(const CsrMatrix& a, const ParilutOptions& o, Backend backend)
    : opt_(o),
      backend_(usable(backend)),
      plan_(plan_pipeline(a, o.fill, o.candidate_room)),
      a_nnz_(a.nnz()),
      a_ptr_(backend, std::span<const index_t>(a.row_ptr)),
      a_col_(backend, std::span<const index_t>(a.col_idx)),
      a_val_(backend, std::size_t(a.nnz())),
      l_{FactorArrays(backend, plan_.n, plan_.l_capacity), FactorArrays(backend, plan_.n, plan_.l_capacity)},
      u_{FactorArrays(backend, plan_.n, plan_.u_capacity), FactorArrays(backend, plan_.n, plan_.u_capacity)},
      c_(backend, plan_.n, plan_.candidate_capacity),
      uc_ptr_(backend, std::size_t(plan_.n) + 1),
      uc_row_(backend, std::size_t(plan_.u_capacity)),
      uc_pos_(backend, std::size_t(plan_.u_capacity)),
      uc_next_(backend, std::size_t(plan_.n) + 1),
      ties_(backend, std::size_t(plan_.n) + 1),
      scan_scratch_(backend, std::size_t(scan_scratch_size)),
      magnitudes_(backend, std::size_t(std::max(plan_.l_capacity, plan_.u_capacity))),
      y_(backend, std::size_t(plan_.n)) {
  if (o.steps < 0 || o.sweeps < 1) throw Error("parilut: steps must be >= 0 and sweeps >= 1");
  if (backend == Backend::cuda) select_ = std::make_unique<DeviceSampleSelect>(magnitudes_.size());
}

StepPipeline::~StepPipeline() = default;

StepView StepPipeline::view() {
  StepView s;
  s.n = plan_.n;
  s.a_ptr = a_ptr_.data(), s.a_col = a_col_.data(), s.a_val = a_val_.data();
  s.l = l_[cur_].view(), s.u = u_[cur_].view();
  s.next_l = l_[1 - cur_].view(), s.next_u = u_[1 - cur_].view();
  s.c = c_.view();
  s.uc_ptr = uc_ptr_.data(), s.uc_row = uc_row_.data(), s.uc_pos = uc_pos_.data(), s.uc_next = uc_next_.data();
  return s;
}

index_t StepPipeline::scan(index_t* v) { return TB_STEP(scan(v, plan_.n, scan_scratch_.data())); }

void StepPipeline::swap_factors(index_t l_nnz, index_t u_nnz) {
  if (l_nnz > plan_.l_capacity || u_nnz > plan_.u_capacity)
    throw Error("internal: parilut pipeline factors beyond the planned capacity");
  cur_ = 1 - cur_;
  l_nnz_ = l_nnz, u_nnz_ = u_nnz;
  TB_STEP(upper_columns(view(), u_nnz_, scan_scratch_.data()));
}

void StepPipeline::sweeps() {
  for (int s = 0; s < opt_.sweeps; ++s) TB_STEP(sweep(view(), l_nnz_, u_nnz_));
}

// As parilut.cpp's drop_rule: the rule that drops the `excess` smallest
// off-diagonal magnitudes (exactly, or at least that many and at most one
// bucket more with the approximate selection).
DropRule StepPipeline::drop_rule(bool lower, long long budget) {
  const StepView s = view();
  const index_t nnz = lower ? l_nnz_ : u_nnz_;
  TB_STEP(magnitudes(lower ? s.l : s.u, lower, nnz, magnitudes_.data()));
  const std::size_t count = std::size_t(nnz - plan_.n);
  const long long excess = (long long)count - budget;
  if (excess <= 0) return {-1.0, 0};
  const std::size_t k = std::size_t(excess - 1);
  Selection sel;
  if (backend_ == Backend::cuda) {
    sel = opt_.exact_select ? select_->exact(magnitudes_.data(), count, k)
                            : select_->approx(magnitudes_.data(), count, k);
  } else {
    const std::span<const double> m(magnitudes_.data(), count);
    sel = opt_.exact_select ? sample_select(m, k) : sample_select_approx(m, k);
  }
  return {sel.value, std::max(0LL, excess - (long long)sel.below)};
}

// One factor through the ties (count, scan) and the pruning (count, scan,
// fill) into the other buffer.
void StepPipeline::remove(bool lower, DropRule rule) {
  const StepView s = view();
  const CsrView from = lower ? s.l : s.u, to = lower ? s.next_l : s.next_u;
  TB_STEP(ties(from, plan_.n, rule.threshold, ties_.data()));
  scan(ties_.data());
  TB_STEP(prune(from, plan_.n, rule, ties_.data(), to, false));
  (lower ? l_nnz_next_ : u_nnz_next_) = scan(to.ptr);
  TB_STEP(prune(from, plan_.n, rule, ties_.data(), to, true));
}

void StepPipeline::step(StepReport& r) {
  WallTimer t;
  auto lap = [&](StepBlock b) {
    TB_STEP(synchronize());
    r.seconds[b] += t.seconds();
    t.restart();
  };
  StepView s = view();
  TB_STEP(candidates(s, false));
  const index_t found = scan(s.c.ptr);
  if (found > plan_.candidate_capacity)
    throw Error("parilut: " + std::to_string(found) + " candidate locations in one step exceed the workspace's " +
                std::to_string(plan_.candidate_capacity) + " (candidate_room=" + std::to_string(opt_.candidate_room) +
                " x the fill budget + rows); raise candidate_room");
  TB_STEP(candidates(s, true));
  r.candidates = found;
  lap(StepBlock::candidates);
  TB_STEP(candidate_residuals(s));
  if (backend_ == Backend::host) {
    double sum = 0.0;
    for (index_t p = 0; p < found; ++p) sum += c_.val[std::size_t(p)] * c_.val[std::size_t(p)];
    r.candidate_residual = std::sqrt(sum);
  }
  lap(StepBlock::residuals);
  TB_STEP(add(s, false));
  const index_t l_nnz = scan(s.next_l.ptr), u_nnz = scan(s.next_u.ptr);
  TB_STEP(add(s, true));
  swap_factors(l_nnz, u_nnz);
  lap(StepBlock::add);
  sweeps();
  lap(StepBlock::sweeps);
  r.nnz_after_add = (long long)l_nnz_ + u_nnz_ - 2LL * plan_.n;
  const DropRule l_rule = drop_rule(true, plan_.budget_l);
  const DropRule u_rule = drop_rule(false, plan_.budget_u);
  lap(StepBlock::select);
  remove(true, l_rule);
  remove(false, u_rule);
  swap_factors(l_nnz_next_, u_nnz_next_);
  lap(StepBlock::remove);
  sweeps();
  lap(StepBlock::sweeps);
  r.nnz_after_remove = (long long)l_nnz_ + u_nnz_ - 2LL * plan_.n;
}

void StepPipeline::factor(const CsrMatrix& a, std::vector<StepReport>* report) {
  if (a.rows != plan_.n || a.nnz() != a_nnz_)
    throw Error("parilut: the matrix's pattern changed since the pipeline was planned");
  put(a_val_, a.values);
  const IluFactors f = initial_factors(a);
  cur_ = 0;
  put(l_[0].ptr, f.l.row_ptr), put(l_[0].col, f.l.col_idx), put(l_[0].val, f.l.values), put(l_[0].row, entry_rows(f.l));
  put(u_[0].ptr, f.u.row_ptr), put(u_[0].col, f.u.col_idx), put(u_[0].val, f.u.values), put(u_[0].row, entry_rows(f.u));
  l_nnz_ = f.l.nnz(), u_nnz_ = f.u.nnz();
  TB_STEP(upper_columns(view(), u_nnz_, scan_scratch_.data()));
  for (int k = 0; k < opt_.steps; ++k) {
    StepReport r;
    step(r);
    if (report) report->push_back(r);
  }
  schedule_levels();
}

IluFactors StepPipeline::factors() const {
  IluFactors f;
  auto fetch = [&](CsrMatrix& m, const FactorArrays& from, index_t nnz) {
    m.rows = m.cols = plan_.n;
    m.row_ptr = get(from.ptr, plan_.n + 1);
    m.col_idx = get(from.col, nnz);
    m.values = get(from.val, nnz);
  };
  fetch(f.l, l_[cur_], l_nnz_);
  fetch(f.u, u_[cur_], u_nnz_);
  rebuild_upper_columns(f);
  return f;
}

// From the final factors, copied to the host once per factorisation; they are
// also checked there, as the host ParILUT checks its own.
void StepPipeline::schedule_levels() {
  const IluFactors f = factors();
  check_factors(f);
  const index_t n = plan_.n;
  std::vector<index_t> rows = group_by_level(
      n, false,
      [&](index_t i, auto visit) {
        for (index_t p = f.l.row_ptr[i]; p < f.l.row_ptr[i + 1] - 1; ++p) visit(f.l.col_idx[p]);
      },
      lower_.level_ptr);
  lower_.rows = Array<index_t>(backend_, std::span<const index_t>(rows));
  rows = group_by_level(
      n, true,
      [&](index_t i, auto visit) {
        for (index_t p = f.u.row_ptr[i] + 1; p < f.u.row_ptr[i + 1]; ++p) visit(f.u.col_idx[p]);
      },
      upper_.level_ptr);
  upper_.rows = Array<index_t>(backend_, std::span<const index_t>(rows));
}

void StepPipeline::apply(const double* r, double* z) const {
  auto& self = const_cast<StepPipeline&>(*this);  // the views are non-const; apply writes only y_ and z
  const CsrView l = self.l_[cur_].view(), u = self.u_[cur_].view();
  for (std::size_t k = 0; k + 1 < lower_.level_ptr.size(); ++k)
    TB_STEP(lower_solve(l, lower_.rows.data() + lower_.level_ptr[k], lower_.level_ptr[k + 1] - lower_.level_ptr[k], r,
                        y_.data()));
  for (std::size_t k = 0; k + 1 < upper_.level_ptr.size(); ++k)
    TB_STEP(upper_solve(u, upper_.rows.data() + upper_.level_ptr[k], upper_.level_ptr[k + 1] - upper_.level_ptr[k],
                        y_.data(), z));
}

}  // namespace tb::parilut
