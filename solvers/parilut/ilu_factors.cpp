#include "ilu_factors.hpp"

#include <algorithm>
#include <string>

#include "solvers/core/error.hpp"

namespace tb::parilut {

index_t find_entry(const CsrMatrix& a, index_t i, index_t j) {
  const index_t* begin = a.col_idx.data() + a.row_ptr[i];
  const index_t* end = a.col_idx.data() + a.row_ptr[i + 1];
  const index_t* it = std::lower_bound(begin, end, j);
  return (it != end && *it == j) ? index_t(it - a.col_idx.data()) : -1;
}

IluFactors initial_factors(const CsrMatrix& a) {
  if (a.rows != a.cols) throw Unsupported("parilut: the matrix must be square");
  const index_t n = a.rows;
  std::vector<double> diag(static_cast<std::size_t>(n));
  for (index_t i = 0; i < n; ++i) {
    const index_t d = find_entry(a, i, i);
    if (d < 0 || a.values[d] == 0.0)
      throw Error("parilut: row " + std::to_string(i) + " has " + (d < 0 ? "no diagonal entry" : "a zero diagonal"));
    diag[i] = a.values[d];
  }
  IluFactors f;
  f.l.rows = f.l.cols = f.u.rows = f.u.cols = n;
  f.l.row_ptr.assign(std::size_t(n) + 1, 0);
  f.u.row_ptr.assign(std::size_t(n) + 1, 0);
  for (index_t i = 0; i < n; ++i) {
    f.u.col_idx.push_back(i);
    f.u.values.push_back(diag[i]);
    for (index_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) {
      const index_t j = a.col_idx[k];
      if (j < i) {
        f.l.col_idx.push_back(j);
        f.l.values.push_back(a.values[k] / diag[j]);
      } else if (j > i) {
        f.u.col_idx.push_back(j);
        f.u.values.push_back(a.values[k]);
      }
    }
    f.l.col_idx.push_back(i);
    f.l.values.push_back(1.0);
    f.l.row_ptr[i + 1] = f.l.nnz();
    f.u.row_ptr[i + 1] = f.u.nnz();
  }
  rebuild_upper_columns(f);
  return f;
}

void rebuild_upper_columns(IluFactors& f) {
  const index_t n = f.u.rows;
  UpperColumns& c = f.u_cols;
  c.col_ptr.assign(std::size_t(n) + 1, 0);
  for (index_t j : f.u.col_idx) ++c.col_ptr[j + 1];
  for (index_t j = 0; j < n; ++j) c.col_ptr[j + 1] += c.col_ptr[j];
  c.row_idx.resize(f.u.col_idx.size());
  c.csc_to_csr.resize(f.u.col_idx.size());
  std::vector<index_t> next(c.col_ptr.begin(), c.col_ptr.end() - 1);
  // Rows ascending, so each column's rows come out sorted and its diagonal last.
  for (index_t i = 0; i < n; ++i)
    for (index_t k = f.u.row_ptr[i]; k < f.u.row_ptr[i + 1]; ++k) {
      const index_t pos = next[f.u.col_idx[k]]++;
      c.row_idx[pos] = i;
      c.csc_to_csr[pos] = k;
    }
}

TriangleCounts triangle_counts(const CsrMatrix& a) {
  TriangleCounts t;
  for (index_t i = 0; i < a.rows; ++i)
    for (index_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) {
      if (a.col_idx[k] < i) ++t.strict_lower;
      if (a.col_idx[k] > i) ++t.strict_upper;
    }
  return t;
}

}  // namespace tb::parilut
