#include "scalar_pattern.hpp"

namespace tb::async_ilu {

ScalarPattern expand_to_scalar(const BsrMatrix& a) {
  const index_t b = a.block_size;
  const index_t nb = a.block_entries();
  ScalarPattern s;
  BsrMatrix& c = s.scalar;
  c.block_size = 1;
  c.block_rows = a.rows();
  c.block_cols = a.cols();
  c.row_ptr.assign(1, 0);
  for (index_t i = 0; i < a.block_rows; ++i)
    for (index_t r = 0; r < b; ++r) {
      for (index_t p = a.row_ptr[i]; p < a.row_ptr[i + 1]; ++p)
        for (index_t col = 0; col < b; ++col) {
          c.col_idx.push_back(a.col_idx[p] * b + col);
          s.source.push_back(p * nb + r * b + col);
        }
      c.row_ptr.push_back(index_t(c.col_idx.size()));
    }
  c.values.resize(c.col_idx.size());
  gather_scalar_values(s, a.values, c.values);
  return s;
}

void gather_scalar_values(const ScalarPattern& s, std::span<const double> bsr_values, std::span<double> out) {
  for (std::size_t q = 0; q < s.source.size(); ++q) out[q] = bsr_values[std::size_t(s.source[q])];
}

}  // namespace tb::async_ilu
