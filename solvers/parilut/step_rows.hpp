#pragma once
// The loop bodies of the ParILUT step pipeline (seed 003 Fig. 2, §IV), over
// plain views of device-friendly storage: one body per row (or entry), shared
// by the sequential twin (kernels::ref), the OpenMP kernels and the CUDA
// kernels (kernels.hpp, TB_PARILUT_STEP_KERNELS). A pattern change runs in two
// passes, count then fill (Fill = false / true), with an exclusive scan of the
// counts between them, so a row writes its output without coordination.
// Every body does the arithmetic of the host ParILUT (candidates.hpp,
// pattern_update.cpp, parilut.cpp) in the same order.
#include "fixed_point.hpp"
#include "pattern_update.hpp"
#include "solvers/core/host_device.hpp"

namespace tb::parilut {

// A factor (or the candidates) in CSR: row pointers, columns, values, and each
// entry's row (filled with the entries; the element-parallel kernels read it).
struct CsrView {
  index_t* ptr = nullptr;
  index_t* col = nullptr;
  double* val = nullptr;
  index_t* row = nullptr;
};

// Everything one step reads and writes. l/u are the current factors, next_l /
// next_u the buffers an addition or removal writes into; uc_* is U's CSC view
// (positions into u.val, as UpperColumns) and uc_next its fill cursors.
struct StepView {
  index_t n = 0;
  const index_t* a_ptr = nullptr;
  const index_t* a_col = nullptr;
  const double* a_val = nullptr;
  CsrView l, u, next_l, next_u, c;
  index_t *uc_ptr = nullptr, *uc_row = nullptr, *uc_pos = nullptr, *uc_next = nullptr;
};

TB_HOST_DEVICE inline FactorView factor_view(const StepView& s) {
  return {s.a_ptr, s.a_col, s.a_val, s.l.ptr,  s.l.col,  s.l.val,
          s.u.ptr, s.u.col, s.u.val, s.uc_ptr, s.uc_row, s.uc_pos};
}

// The first position in cols[lo, hi) with a column above `after`.
TB_HOST_DEVICE inline index_t first_above(const index_t* cols, index_t lo, index_t hi, index_t after) {
  while (lo < hi) {
    const index_t mid = lo + (hi - lo) / 2;
    if (cols[mid] <= after)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

// Eq. 5: row i of F = (A + L U) \ (L u U), columns ascending. The columns of
// A's row and of U's rows k (k in L's row i, k != i: U's row i lies in U) are
// merged without a marker array: each next column is the smallest above the
// last one over all these sorted rows (a binary search per U row), so a GPU
// thread needs no scratch of n entries. Returns the row's count; Fill writes
// the columns to s.c.col from s.c.ptr[i].
template <bool Fill>
TB_HOST_DEVICE index_t candidate_row(const StepView& s, index_t i) {
  const index_t none = 0x7fffffff;
  index_t pa = s.a_ptr[i], pl = s.l.ptr[i], pu = s.u.ptr[i], count = 0, last = -1;
  const index_t a_end = s.a_ptr[i + 1], l_end = s.l.ptr[i + 1], u_end = s.u.ptr[i + 1];
  for (;;) {
    while (pa < a_end && s.a_col[pa] <= last) ++pa;
    index_t next = pa < a_end ? s.a_col[pa] : none;
    for (index_t q = s.l.ptr[i]; q < l_end; ++q) {
      const index_t k = s.l.col[q];
      if (k == i) continue;
      const index_t p = first_above(s.u.col, s.u.ptr[k], s.u.ptr[k + 1], last);
      if (p < s.u.ptr[k + 1] && s.u.col[p] < next) next = s.u.col[p];
    }
    if (next == none) return count;
    last = next;
    bool in_factors;
    if (next < i) {
      while (pl < l_end && s.l.col[pl] < next) ++pl;
      in_factors = pl < l_end && s.l.col[pl] == next;
    } else {
      while (pu < u_end && s.u.col[pu] < next) ++pu;
      in_factors = pu < u_end && s.u.col[pu] == next;
    }
    if (in_factors) continue;
    if (Fill) s.c.col[s.c.ptr[i] + count] = next;
    ++count;
  }
}

// Fig. 7: the ILU residual r_ij = a_ij - sum_{k<=min(i,j)} l_ik u_kj at row i's candidates.
TB_HOST_DEVICE inline void candidate_residual_row(const StepView& s, index_t i) {
  const FactorView v = factor_view(s);
  for (index_t p = s.c.ptr[i]; p < s.c.ptr[i + 1]; ++p) {
    const index_t j = s.c.col[p];
    s.c.val[p] = a_value(v, i, j) - lu_dot(v, i, j, (i < j ? i : j) + 1, PlainLoad{});
  }
}

// §IV "Add": row i of a factor merged with its candidates, those with j < i
// into L (as r_ij / u_jj), the others into U (as r_ij); a candidate never
// shares a column with the factor. Returns the row's length; Fill writes it
// (with each entry's row) to `out` from out.ptr[i].
template <bool Fill>
TB_HOST_DEVICE index_t add_row(const StepView& s, const CsrView& fac, bool lower, const CsrView& out, index_t i) {
  index_t p = fac.ptr[i], q = s.c.ptr[i], count = 0;
  const index_t p_end = fac.ptr[i + 1], q_end = s.c.ptr[i + 1];
  auto kept = [&](index_t j) { return lower ? j < i : j > i; };
  while (q < q_end && !kept(s.c.col[q])) ++q;
  while (p < p_end || q < q_end) {
    index_t col;
    double val = 0.0;
    if (q >= q_end || (p < p_end && fac.col[p] < s.c.col[q])) {
      col = fac.col[p];
      if (Fill) val = fac.val[p];
      ++p;
    } else {
      col = s.c.col[q];
      if (Fill) val = lower ? s.c.val[q] / s.u.val[s.u.ptr[col]] : s.c.val[q];
      ++q;
      while (q < q_end && !kept(s.c.col[q])) ++q;
    }
    if (Fill) {
      const index_t at = out.ptr[i] + count;
      out.col[at] = col, out.val[at] = val, out.row[at] = i;
    }
    ++count;
  }
  return count;
}

// The magnitude of the off-diagonal entry at position p (row i) into m, in
// row-major order of the off-diagonal entries: L's unit diagonal ends each
// row, U's diagonal starts it, so entry p is off-diagonal number p - i in L
// and p - i - 1 in U.
TB_HOST_DEVICE inline void magnitude_entry(const CsrView& fac, bool lower, index_t p, double* m) {
  const index_t i = fac.row[p];
  if (fac.col[p] == i) return;
  m[lower ? p - i : p - i - 1] = drop_magnitude(fac.val[p]);
}

// The off-diagonal entries of row i whose magnitude equals the threshold t.
TB_HOST_DEVICE inline index_t tie_row(const CsrView& fac, double t, index_t i) {
  index_t ties = 0;
  for (index_t p = fac.ptr[i]; p < fac.ptr[i + 1]; ++p)
    if (fac.col[p] != i && drop_magnitude(fac.val[p]) == t) ++ties;
  return ties;
}

// §IV "Remove": row i without the off-diagonal entries below t and without the
// first drop_ties entries equal to t in row-major order (first_tie: the ties
// of the rows above), as remove_small (pattern_update.hpp).
template <bool Fill>
TB_HOST_DEVICE index_t prune_row(const CsrView& fac, double t, long long drop_ties, long long first_tie,
                                 const CsrView& out, index_t i) {
  long long tie_rank = first_tie;
  index_t count = 0;
  for (index_t p = fac.ptr[i]; p < fac.ptr[i + 1]; ++p) {
    const double x = fac.val[p], m = drop_magnitude(x);
    bool keep = fac.col[p] == i || m > t;
    if (!keep && m == t) keep = tie_rank++ >= drop_ties;
    if (!keep) continue;
    if (Fill) {
      const index_t at = out.ptr[i] + count;
      out.col[at] = fac.col[p], out.val[at] = x, out.row[at] = i;
    }
    ++count;
  }
  return count;
}

// U's CSC view: entry p of U goes to the slot `slot` of its column (handed out
// by a counter per column); sort_column then orders a column by row, so the
// result equals rebuild_upper_columns whatever order the slots were taken in.
TB_HOST_DEVICE inline void place_column_entry(const StepView& s, index_t p, index_t slot) {
  s.uc_row[slot] = s.u.row[p];
  s.uc_pos[slot] = p;
}
TB_HOST_DEVICE inline void sort_column(const StepView& s, index_t j) {
  for (index_t a = s.uc_ptr[j] + 1; a < s.uc_ptr[j + 1]; ++a) {
    const index_t r = s.uc_row[a], pos = s.uc_pos[a];
    index_t b = a;
    for (; b > s.uc_ptr[j] && s.uc_row[b - 1] > r; --b) s.uc_row[b] = s.uc_row[b - 1], s.uc_pos[b] = s.uc_pos[b - 1];
    s.uc_row[b] = r, s.uc_pos[b] = pos;
  }
}

// Eq. 2-3 for one entry of L (p, not the unit diagonal) or of U. Load and
// Store: plain in the sequential twin and on the GPU, relaxed atomics in the
// asynchronous OpenMP sweep (fixed_point.hpp).
struct PlainStore {
  TB_HOST_DEVICE void operator()(double* p, double x) const { *p = x; }
};
template <class Load = PlainLoad, class Store = PlainStore>
TB_HOST_DEVICE void sweep_l_entry(const StepView& s, index_t p, Load load = {}, Store store = {}) {
  const index_t i = s.l.row[p], j = s.l.col[p];
  if (j != i) store(s.l.val + p, l_entry(factor_view(s), i, j, load));
}
template <class Load = PlainLoad, class Store = PlainStore>
TB_HOST_DEVICE void sweep_u_entry(const StepView& s, index_t p, Load load = {}, Store store = {}) {
  store(s.u.val + p, u_entry(factor_view(s), s.u.row[p], s.u.col[p], load));
}

// Row i of the forward (L y = r, unit diagonal last) and backward (U z = y,
// diagonal first) substitution, in ilu_apply_ref's order: rows of one level
// of the schedule depend only on rows of earlier levels.
TB_HOST_DEVICE inline void lower_solve_row(const CsrView& l, index_t i, const double* r, double* y) {
  double x = r[i];
  for (index_t p = l.ptr[i]; p < l.ptr[i + 1] - 1; ++p) x -= l.val[p] * y[l.col[p]];
  y[i] = x;
}
TB_HOST_DEVICE inline void upper_solve_row(const CsrView& u, index_t i, const double* y, double* z) {
  double x = y[i];
  const index_t d = u.ptr[i];
  for (index_t p = d + 1; p < u.ptr[i + 1]; ++p) x -= u.val[p] * z[u.col[p]];
  z[i] = x / u.val[d];
}

}  // namespace tb::parilut
