#include "factor_pattern.hpp"

#include <algorithm>

namespace tb::async_ilu {

FactorPattern factor_pattern(const BsrMatrix& a) {
  FactorPattern f;
  f.diag = a.diagonal_positions();
  f.prod_ptr.assign(1, 0);
  for (index_t i = 0; i < a.block_rows; ++i)
    for (index_t p = a.row_ptr[i]; p < a.row_ptr[i + 1]; ++p) {
      const index_t j = a.col_idx[p];
      for (index_t q = a.row_ptr[i]; q < f.diag[i] && a.col_idx[q] < std::min(i, j); ++q) {
        const index_t k = a.col_idx[q];
        const auto first = a.col_idx.begin() + f.diag[k] + 1;
        const auto last = a.col_idx.begin() + a.row_ptr[k + 1];
        const auto it = std::lower_bound(first, last, j);
        if (it != last && *it == j) {
          f.prod_l.push_back(q);
          f.prod_u.push_back(index_t(it - a.col_idx.begin()));
        }
      }
      f.prod_ptr.push_back(index_t(f.prod_l.size()));
    }
  return f;
}

FactorView host_view(const BsrMatrix& a, const FactorPattern& p, const double* a_values) {
  FactorView f;
  f.block_size = a.block_size;
  f.block_rows = a.block_rows;
  f.blocks = a.nnz_blocks();
  f.row_ptr = a.row_ptr.data();
  f.col_idx = a.col_idx.data();
  f.diag = p.diag.data();
  f.prod_ptr = p.prod_ptr.data();
  f.prod_l = p.prod_l.data();
  f.prod_u = p.prod_u.data();
  f.a = a_values;
  return f;
}

}  // namespace tb::async_ilu
