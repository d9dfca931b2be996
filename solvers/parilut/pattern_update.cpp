#include "pattern_update.hpp"

#include <numeric>
#include <vector>

namespace tb::parilut {

namespace {

// Pass 1 has set out.row_ptr[i + 1] to row i's length; turn the lengths into
// offsets and size the arrays for pass 2.
void allocate_rows(CsrMatrix& out) {
  std::partial_sum(out.row_ptr.begin(), out.row_ptr.end(), out.row_ptr.begin());
  out.col_idx.resize(std::size_t(out.row_ptr.back()));
  out.values.resize(std::size_t(out.row_ptr.back()));
}

CsrMatrix empty_like(const CsrMatrix& f) {
  CsrMatrix out;
  out.rows = f.rows, out.cols = f.cols;
  out.row_ptr.assign(std::size_t(f.rows) + 1, 0);
  return out;
}

// Row i of a factor merged with those of row i's candidates that `keep` takes
// (the candidates never share a column with the factor). Pass 1 (Fill = false)
// only counts.
template <bool Fill, class Keep, class Value>
index_t merge_row(const CsrMatrix& fac, const CsrMatrix& c, index_t i, Keep keep, Value value, CsrMatrix& out) {
  index_t p = fac.row_ptr[i], q = c.row_ptr[i], count = 0;
  const index_t p_end = fac.row_ptr[i + 1], q_end = c.row_ptr[i + 1];
  auto skip_unkept = [&] {
    while (q < q_end && !keep(i, c.col_idx[q])) ++q;
  };
  skip_unkept();
  while (p < p_end || q < q_end) {
    index_t col;
    double val;
    if (q >= q_end || (p < p_end && fac.col_idx[p] < c.col_idx[q])) {
      col = fac.col_idx[p], val = fac.values[p], ++p;
    } else {
      col = c.col_idx[q], val = Fill ? value(q, col) : 0.0, ++q;
      skip_unkept();
    }
    if (Fill) out.col_idx[out.row_ptr[i] + count] = col, out.values[out.row_ptr[i] + count] = val;
    ++count;
  }
  return count;
}

template <class Keep, class Value>
CsrMatrix merge(const CsrMatrix& fac, const CsrMatrix& c, Keep keep, Value value) {
  CsrMatrix out = empty_like(fac);
  const index_t n = fac.rows;
  const bool parallel = long(fac.nnz()) + c.nnz() >= openmp_min_length;
#pragma omp parallel for schedule(static) if (parallel)
  for (index_t i = 0; i < n; ++i) out.row_ptr[i + 1] = merge_row<false>(fac, c, i, keep, value, out);
  allocate_rows(out);
#pragma omp parallel for schedule(static) if (parallel)
  for (index_t i = 0; i < n; ++i) merge_row<true>(fac, c, i, keep, value, out);
  return out;
}

// Per row, the number of off-diagonal entries equal to the threshold; their
// prefix sums give each row the global rank of its first tie, so the first
// drop_ties ties in row-major order go, whatever the thread count.
std::vector<long long> tie_offsets(const CsrMatrix& f, double t) {
  std::vector<long long> ties(std::size_t(f.rows) + 1, 0);
  for (index_t i = 0; i < f.rows; ++i)
    for (index_t p = f.row_ptr[i]; p < f.row_ptr[i + 1]; ++p)
      if (f.col_idx[p] != i && drop_magnitude(f.values[p]) == t) ++ties[i + 1];
  std::partial_sum(ties.begin(), ties.end(), ties.begin());
  return ties;
}

template <bool Fill>
index_t prune_row(const CsrMatrix& f, index_t i, DropRule rule, long long first_tie, CsrMatrix& out) {
  long long tie_rank = first_tie;
  index_t count = 0;
  for (index_t p = f.row_ptr[i]; p < f.row_ptr[i + 1]; ++p) {
    const double m = drop_magnitude(f.values[p]);
    bool keep = f.col_idx[p] == i || m > rule.threshold;
    if (!keep && m == rule.threshold) keep = tie_rank++ >= rule.drop_ties;
    if (!keep) continue;
    if (Fill) out.col_idx[out.row_ptr[i] + count] = f.col_idx[p], out.values[out.row_ptr[i] + count] = f.values[p];
    ++count;
  }
  return count;
}

CsrMatrix prune(const CsrMatrix& f, DropRule rule) {
  const std::vector<long long> ties = tie_offsets(f, rule.threshold);
  CsrMatrix out = empty_like(f);
  const index_t n = f.rows;
  const bool parallel = long(f.nnz()) >= openmp_min_length;
#pragma omp parallel for schedule(static) if (parallel)
  for (index_t i = 0; i < n; ++i) out.row_ptr[i + 1] = prune_row<false>(f, i, rule, ties[i], out);
  allocate_rows(out);
#pragma omp parallel for schedule(static) if (parallel)
  for (index_t i = 0; i < n; ++i) prune_row<true>(f, i, rule, ties[i], out);
  return out;
}

}  // namespace

void add_candidates(IluFactors& f, const CsrMatrix& c) {
  const CsrMatrix& u = f.u;
  CsrMatrix l = merge(
      f.l, c, [](index_t i, index_t j) { return j < i; },
      [&](index_t q, index_t j) { return c.values[q] / u.values[u.row_ptr[j]]; });
  f.u = merge(
      f.u, c, [](index_t i, index_t j) { return j > i; }, [&](index_t q, index_t) { return c.values[q]; });
  f.l = std::move(l);
  rebuild_upper_columns(f);
}

void remove_small(IluFactors& f, DropRule l_rule, DropRule u_rule) {
  f.l = prune(f.l, l_rule);
  f.u = prune(f.u, u_rule);
  rebuild_upper_columns(f);
}

std::vector<double> off_diagonal_magnitudes(const CsrMatrix& factor) {
  std::vector<double> m;
  m.reserve(std::size_t(factor.nnz()));
  for (index_t i = 0; i < factor.rows; ++i)
    for (index_t p = factor.row_ptr[i]; p < factor.row_ptr[i + 1]; ++p)
      if (factor.col_idx[p] != i) m.push_back(drop_magnitude(factor.values[p]));
  return m;
}

}  // namespace tb::parilut
