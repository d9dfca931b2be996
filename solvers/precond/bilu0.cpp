#include "bilu0.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "solvers/core/error.hpp"

namespace tb {

Bilu0Factors bilu0_symbolic(const BsrMatrix& a) {
  a.validate();
  if (a.block_rows != a.block_cols) throw Unsupported("BILU(0): the matrix is not square");
  // The pattern and the map into the sweep layout only: the values come with
  // the first factorisation: a copy here would be one more pass over the matrix.
  Bilu0Factors f;
  BsrMatrix& p = f.pattern;
  p.block_size = a.block_size;
  p.block_rows = a.block_rows;
  p.block_cols = a.block_cols;
  p.row_ptr = a.row_ptr;
  p.col_idx = a.col_idx;
  f.diag = a.diagonal_positions();
  f.place.resize(p.col_idx.size());
  f.l_ptr.push_back(0);
  for (index_t i = 0; i < p.block_rows; ++i) {
    for (index_t k = p.row_ptr[i]; k < f.diag[i]; ++k) {
      f.place[std::size_t(k)] = index_t(f.l_col.size());
      f.l_col.push_back(p.col_idx[k]);
    }
    f.l_ptr.push_back(index_t(f.l_col.size()));
  }
  const auto l_blocks = index_t(f.l_col.size());
  f.u_ptr.push_back(0);
  for (index_t i = p.block_rows - 1; i >= 0; --i) {
    f.place[std::size_t(f.diag[i])] = l_blocks + index_t(f.u_col.size());
    f.u_col.push_back(i);
    for (index_t up = p.row_ptr[i + 1] - 1; up > f.diag[i]; --up) {
      f.place[std::size_t(up)] = l_blocks + index_t(f.u_col.size());
      f.u_col.push_back(p.col_idx[up]);
    }
    f.u_ptr.push_back(index_t(f.u_col.size()));
  }
  return f;
}

std::vector<double> Bilu0Factors::values_in_pattern() const {
  const std::size_t nb = block_entries();
  std::vector<double> out(place.size() * nb);
  for (std::size_t k = 0; k < place.size(); ++k) std::copy_n(block(index_t(k)), nb, out.data() + k * nb);
  return out;
}

}  // namespace tb
