#pragma once
// The ParILU fixed-point iteration (seed 003 Eq. 2-4, Algorithm 1, Fig. 6-7)
// with a unit lower L and U holding the diagonal:
//   l_ij = (a_ij - sum_{k<j} l_ik u_kj) / u_jj,   i > j,
//   u_ij =  a_ij - sum_{k<i} l_ik u_kj,           i <= j,
// over the current patterns of L and U, and the ILU residual
//   r_ij = a_ij - sum_{k<=min(i,j)} l_ik u_kj
// at candidate locations outside them.
#include <algorithm>
#include <atomic>

#include "ilu_factors.hpp"
#include "solvers/core/host_device.hpp"

namespace tb::parilut {

// Raw pointers of A and the factors: what every backend's kernel reads.
struct FactorView {
  const index_t *a_ptr, *a_col;
  const double* a_val;
  const index_t *l_ptr, *l_col;
  double* l_val;
  const index_t *u_ptr, *u_col;
  double* u_val;
  const index_t *uc_ptr, *uc_row, *uc_pos;  // U by columns, positions into u_val
};

FactorView view(const CsrMatrix& a, IluFactors& f);

// Plain loads for the sequential and CUDA kernels; relaxed atomic loads for the
// OpenMP kernel, whose threads update the factors in place as the paper's GPU
// kernels do (asynchronous sweeps), without a data race in C++'s sense.
struct PlainLoad {
  TB_HOST_DEVICE double operator()(const double* p) const { return *p; }
};
struct RelaxedLoad {
  double operator()(const double* p) const { return std::atomic_ref<const double>(*p).load(std::memory_order_relaxed); }
};

TB_HOST_DEVICE inline double a_value(const FactorView& v, index_t i, index_t j) {
  index_t lo = v.a_ptr[i], hi = v.a_ptr[i + 1];
  while (lo < hi) {
    const index_t mid = lo + (hi - lo) / 2;
    if (v.a_col[mid] < j)
      lo = mid + 1;
    else
      hi = mid;
  }
  return (lo < v.a_ptr[i + 1] && v.a_col[lo] == j) ? v.a_val[lo] : 0.0;
}

// sum over k < limit of l_ik u_kj: L's row i merged with U's column j, both sorted.
template <class Load>
TB_HOST_DEVICE inline double lu_dot(const FactorView& v, index_t i, index_t j, index_t limit, Load load) {
  index_t il = v.l_ptr[i], iu = v.uc_ptr[j];
  const index_t il_end = v.l_ptr[i + 1], iu_end = v.uc_ptr[j + 1];
  double s = 0.0;
  while (il < il_end && iu < iu_end) {
    const index_t kl = v.l_col[il], ku = v.uc_row[iu];
    if (kl >= limit || ku >= limit) break;
    if (kl == ku) {
      s += load(v.l_val + il) * load(v.u_val + v.uc_pos[iu]);
      ++il, ++iu;
    } else if (kl < ku) {
      ++il;
    } else {
      ++iu;
    }
  }
  return s;
}

// The new value of L's entry at position p (row i, column j < i), Eq. 2.
template <class Load>
TB_HOST_DEVICE inline double l_entry(const FactorView& v, index_t i, index_t j, Load load) {
  return (a_value(v, i, j) - lu_dot(v, i, j, j, load)) / load(v.u_val + v.u_ptr[j]);
}
// The new value of U's entry (row i, column j >= i), Eq. 3.
template <class Load>
TB_HOST_DEVICE inline double u_entry(const FactorView& v, index_t i, index_t j, Load load) {
  return a_value(v, i, j) - lu_dot(v, i, j, i, load);
}

// One row of a sweep (Eq. 2-3: L's strictly lower entries, then U's) and of the
// candidate residuals (Fig. 7), the bodies of kernels::ref and kernels::omp
// sweep and candidate_residuals (kernels.hpp). Store: a plain store in the
// sequential twin, a relaxed atomic one in the asynchronous OpenMP sweep.
template <class Load, class Store>
void sweep_row(const FactorView& v, index_t i, Load load, Store store) {
  for (index_t p = v.l_ptr[i]; p < v.l_ptr[i + 1] - 1; ++p) store(v.l_val + p, l_entry(v, i, v.l_col[p], load));
  for (index_t p = v.u_ptr[i]; p < v.u_ptr[i + 1]; ++p) store(v.u_val + p, u_entry(v, i, v.u_col[p], load));
}

inline void plain_store(double* p, double x) { *p = x; }
inline void relaxed_store(double* p, double x) { std::atomic_ref<double>(*p).store(x, std::memory_order_relaxed); }

inline void residual_row(const FactorView& v, const CsrMatrix& c, index_t i, double* out) {
  for (index_t p = c.row_ptr[i]; p < c.row_ptr[i + 1]; ++p) {
    const index_t j = c.col_idx[p];
    out[p] = a_value(v, i, j) - lu_dot(v, i, j, std::min(i, j) + 1, PlainLoad{});
  }
}

// Throws tb::Error naming the row of the first zero or non-finite pivot u_ii,
// or of a non-finite entry: a sweep must not hand NaN to a Krylov method.
void check_factors(const IluFactors& f);

}  // namespace tb::parilut
