#pragma once
// The host versions of TB_PARILUT_STEP_KERNELS (kernels.hpp): the loops over
// the bodies of step_rows.hpp that kernels_ref.cpp (Parallel = false, the
// pipeline twin) and kernels_omp.cpp (Parallel = true) expand. Included by
// those two files only.
#include "kernels.hpp"

namespace tb::parilut::step_host {

template <bool Parallel>
void candidates(const StepView& s, bool fill) {
#pragma omp parallel for schedule(dynamic, 256) if (Parallel && s.n >= 4096)
  for (index_t i = 0; i < s.n; ++i) {
    if (fill)
      candidate_row<true>(s, i);
    else
      s.c.ptr[i + 1] = candidate_row<false>(s, i);
  }
}

template <bool Parallel>
void candidate_residuals(const StepView& s) {
#pragma omp parallel for schedule(dynamic, 256) if (Parallel && s.n >= 4096)
  for (index_t i = 0; i < s.n; ++i) candidate_residual_row(s, i);
}

template <bool Parallel>
void add(const StepView& s, bool fill) {
#pragma omp parallel for schedule(static) if (Parallel && s.n >= 4096)
  for (index_t i = 0; i < s.n; ++i) {
    if (fill) {
      add_row<true>(s, s.l, true, s.next_l, i);
      add_row<true>(s, s.u, false, s.next_u, i);
    } else {
      s.next_l.ptr[i + 1] = add_row<false>(s, s.l, true, s.next_l, i);
      s.next_u.ptr[i + 1] = add_row<false>(s, s.u, false, s.next_u, i);
    }
  }
}

// Sequential for both: the counts per column would need atomics, and the
// slots taken in entry order leave every column sorted (sort_column is then a
// check that costs one pass).
inline void upper_columns(const StepView& s, index_t u_nnz) {
  for (index_t j = 0; j <= s.n; ++j) s.uc_ptr[j] = 0;
  for (index_t p = 0; p < u_nnz; ++p) ++s.uc_ptr[s.u.col[p] + 1];
  for (index_t j = 0; j < s.n; ++j) s.uc_ptr[j + 1] += s.uc_ptr[j];
  for (index_t j = 0; j < s.n; ++j) s.uc_next[j] = s.uc_ptr[j];
  for (index_t p = 0; p < u_nnz; ++p) place_column_entry(s, p, s.uc_next[s.u.col[p]]++);
  for (index_t j = 0; j < s.n; ++j) sort_column(s, j);
}

template <bool Parallel>
void magnitudes(const CsrView& f, bool lower, index_t nnz, double* m) {
#pragma omp parallel for schedule(static) if (Parallel && nnz >= openmp_min_length)
  for (index_t p = 0; p < nnz; ++p) magnitude_entry(f, lower, p, m);
}

template <bool Parallel>
void ties(const CsrView& f, index_t n, double t, index_t* counts) {
#pragma omp parallel for schedule(static) if (Parallel && n >= 4096)
  for (index_t i = 0; i < n; ++i) counts[i + 1] = tie_row(f, t, i);
}

template <bool Parallel>
void prune(const CsrView& f, index_t n, DropRule rule, const index_t* first_tie, const CsrView& out, bool fill) {
#pragma omp parallel for schedule(static) if (Parallel && n >= 4096)
  for (index_t i = 0; i < n; ++i) {
    if (fill)
      prune_row<true>(f, rule.threshold, rule.drop_ties, first_tie[i], out, i);
    else
      out.ptr[i + 1] = prune_row<false>(f, rule.threshold, rule.drop_ties, first_tie[i], out, i);
  }
}

inline index_t scan(index_t* v, index_t n) {
  v[0] = 0;
  for (index_t i = 0; i < n; ++i) v[i + 1] += v[i];
  return v[n];
}

template <bool Parallel>
void lower_solve(const CsrView& l, const index_t* rows, index_t count, const double* r, double* y) {
#pragma omp parallel for schedule(static) if (Parallel && count >= 4096)
  for (index_t k = 0; k < count; ++k) lower_solve_row(l, rows[k], r, y);
}

template <bool Parallel>
void upper_solve(const CsrView& u, const index_t* rows, index_t count, const double* y, double* z) {
#pragma omp parallel for schedule(static) if (Parallel && count >= 4096)
  for (index_t k = 0; k < count; ++k) upper_solve_row(u, rows[k], y, z);
}

}  // namespace tb::parilut::step_host

// The definitions of TB_PARILUT_STEP_KERNELS in namespace `ns` on the templates
// above; the sweeps differ and are written out in each file.
#define TB_PARILUT_STEP_HOST_DEFINITIONS(PARALLEL)                                                                  \
  void candidates(const StepView& s, bool fill) { step_host::candidates<PARALLEL>(s, fill); }                       \
  void candidate_residuals(const StepView& s) { step_host::candidate_residuals<PARALLEL>(s); }                      \
  void add(const StepView& s, bool fill) { step_host::add<PARALLEL>(s, fill); }                                     \
  void upper_columns(const StepView& s, index_t u_nnz, index_t*) { step_host::upper_columns(s, u_nnz); }            \
  void magnitudes(const CsrView& f, bool lower, index_t nnz, double* m) {                                           \
    step_host::magnitudes<PARALLEL>(f, lower, nnz, m);                                                              \
  }                                                                                                                 \
  void ties(const CsrView& f, index_t n, double t, index_t* counts) { step_host::ties<PARALLEL>(f, n, t, counts); } \
  void prune(const CsrView& f, index_t n, DropRule rule, const index_t* first_tie, const CsrView& out, bool fill) { \
    step_host::prune<PARALLEL>(f, n, rule, first_tie, out, fill);                                                   \
  }                                                                                                                 \
  index_t scan(index_t* v, index_t n, index_t*) { return step_host::scan(v, n); }                                   \
  void lower_solve(const CsrView& l, const index_t* rows, index_t count, const double* r, double* y) {              \
    step_host::lower_solve<PARALLEL>(l, rows, count, r, y);                                                         \
  }                                                                                                                 \
  void upper_solve(const CsrView& u, const index_t* rows, index_t count, const double* y, double* z) {              \
    step_host::upper_solve<PARALLEL>(u, rows, count, y, z);                                                         \
  }                                                                                                                 \
  void synchronize() {}
