#pragma once
// The candidate search of ParILUT (seed 003 Eq. 5, §IV): the locations
// F = (A + L U) \ (L u U) row by row, in two row-parallel passes (count, prefix
// sum, fill). The sequential twin (kernels_ref.cpp) and the OpenMP kernel
// (kernels_omp.cpp) of find_candidates run the same passes.
#include <algorithm>
#include <numeric>
#include <vector>

#include "ilu_factors.hpp"

namespace tb::parilut {

// Row i's candidates in `out` (sorted); `mark[c] == stamp` flags a column
// already seen in this row, so the marker array needs no clearing between rows.
inline void row_candidates(const CsrMatrix& a, const IluFactors& f, index_t i, std::vector<index_t>& mark,
                           std::vector<index_t>& out) {
  out.clear();
  const index_t stamp = i;
  auto in_factors = [&](index_t j) { mark[j] = stamp; };
  for (index_t p = f.l.row_ptr[i]; p < f.l.row_ptr[i + 1]; ++p) in_factors(f.l.col_idx[p]);
  for (index_t p = f.u.row_ptr[i]; p < f.u.row_ptr[i + 1]; ++p) in_factors(f.u.col_idx[p]);
  auto consider = [&](index_t j) {
    if (mark[j] != stamp) {
      mark[j] = stamp;
      out.push_back(j);
    }
  };
  for (index_t p = a.row_ptr[i]; p < a.row_ptr[i + 1]; ++p) consider(a.col_idx[p]);
  for (index_t p = f.l.row_ptr[i]; p < f.l.row_ptr[i + 1]; ++p) {
    const index_t k = f.l.col_idx[p];
    for (index_t q = f.u.row_ptr[k]; q < f.u.row_ptr[k + 1]; ++q) consider(f.u.col_idx[q]);
  }
  std::sort(out.begin(), out.end());
}

template <bool Parallel>
CsrMatrix candidates_in_two_passes(const CsrMatrix& a, const IluFactors& f) {
  const index_t n = a.rows;
  CsrMatrix c;
  c.rows = c.cols = n;
  c.row_ptr.assign(std::size_t(n) + 1, 0);
  const bool parallel = Parallel && long(f.l.nnz()) + f.u.nnz() >= openmp_min_length;
  // Pass 1 counts, pass 2 fills: the two passes of seed 003 §IV.
  for (int pass = 0; pass < 2; ++pass) {
#pragma omp parallel if (parallel)
    {
      std::vector<index_t> mark(std::size_t(n), -1), row;
#pragma omp for schedule(static)
      for (index_t i = 0; i < n; ++i) {
        row_candidates(a, f, i, mark, row);
        if (pass == 0)
          c.row_ptr[i + 1] = index_t(row.size());
        else
          std::copy(row.begin(), row.end(), c.col_idx.begin() + c.row_ptr[i]);
      }
    }
    if (pass == 0) {
      std::partial_sum(c.row_ptr.begin(), c.row_ptr.end(), c.row_ptr.begin());
      c.col_idx.resize(std::size_t(c.row_ptr[n]));
      c.values.assign(std::size_t(c.row_ptr[n]), 0.0);
    }
  }
  return c;
}

}  // namespace tb::parilut
