#include "fixed_point.hpp"

#include <cmath>
#include <string>

#include "kernels.hpp"
#include "solvers/core/error.hpp"

namespace tb::parilut {

FactorView view(const CsrMatrix& a, IluFactors& f) {
  return {a.row_ptr.data(),   a.col_idx.data(),        a.values.data(),         f.l.row_ptr.data(),
          f.l.col_idx.data(), f.l.values.data(),       f.u.row_ptr.data(),      f.u.col_idx.data(),
          f.u.values.data(),  f.u_cols.col_ptr.data(), f.u_cols.row_idx.data(), f.u_cols.csc_to_csr.data()};
}

namespace {

template <class Load, class Store>
void sweep_row(const FactorView& v, index_t i, Load load, Store store) {
  for (index_t p = v.l_ptr[i]; p < v.l_ptr[i + 1] - 1; ++p) store(v.l_val + p, l_entry(v, i, v.l_col[p], load));
  for (index_t p = v.u_ptr[i]; p < v.u_ptr[i + 1]; ++p) store(v.u_val + p, u_entry(v, i, v.u_col[p], load));
}

void plain_store(double* p, double x) { *p = x; }
void relaxed_store(double* p, double x) { std::atomic_ref<double>(*p).store(x, std::memory_order_relaxed); }

void residual_row(const FactorView& v, const CsrMatrix& c, index_t i, double* out) {
  for (index_t p = c.row_ptr[i]; p < c.row_ptr[i + 1]; ++p) {
    const index_t j = c.col_idx[p];
    out[p] = a_value(v, i, j) - lu_dot(v, i, j, std::min(i, j) + 1, PlainLoad{});
  }
}

}  // namespace

namespace kernels::ref {

void sweep(const CsrMatrix& a, IluFactors& f) {
  const FactorView v = view(a, f);
  for (index_t i = 0; i < a.rows; ++i) sweep_row(v, i, PlainLoad{}, plain_store);
}

void candidate_residuals(const CsrMatrix& a, IluFactors& f, CsrMatrix& c) {
  const FactorView v = view(a, f);
  for (index_t i = 0; i < c.rows; ++i) residual_row(v, c, i, c.values.data());
}

}  // namespace kernels::ref

namespace kernels::omp {

void sweep(const CsrMatrix& a, IluFactors& f) {
  const FactorView v = view(a, f);
  const index_t n = a.rows;
#pragma omp parallel for schedule(static) if (long(f.l.nnz()) + f.u.nnz() >= openmp_min_length)
  for (index_t i = 0; i < n; ++i) sweep_row(v, i, RelaxedLoad{}, relaxed_store);
}

void candidate_residuals(const CsrMatrix& a, IluFactors& f, CsrMatrix& c) {
  const FactorView v = view(a, f);
  const index_t n = c.rows;
#pragma omp parallel for schedule(static) if (long(c.nnz()) >= openmp_min_length)
  for (index_t i = 0; i < n; ++i) residual_row(v, c, i, c.values.data());
}

}  // namespace kernels::omp

void check_factors(const IluFactors& f) {
  for (index_t i = 0; i < f.u.rows; ++i) {
    const double pivot = f.u.values[f.u.row_ptr[i]];
    if (pivot == 0.0 || !std::isfinite(pivot))
      throw Error("parilut: the pivot u_ii of row " + std::to_string(i) + " is " + std::to_string(pivot));
    for (index_t p = f.l.row_ptr[i]; p < f.l.row_ptr[i + 1]; ++p)
      if (!std::isfinite(f.l.values[p])) throw Error("parilut: a non-finite entry of L in row " + std::to_string(i));
    for (index_t p = f.u.row_ptr[i]; p < f.u.row_ptr[i + 1]; ++p)
      if (!std::isfinite(f.u.values[p])) throw Error("parilut: a non-finite entry of U in row " + std::to_string(i));
  }
}

}  // namespace tb::parilut
