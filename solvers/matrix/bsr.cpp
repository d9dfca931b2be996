#include "bsr.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "kernels.hpp"
#include "solvers/core/error.hpp"

namespace tb {

index_t BsrMatrix::find_block(index_t i, index_t j) const {
  auto first = col_idx.begin() + row_ptr[i];
  auto last = col_idx.begin() + row_ptr[i + 1];
  auto it = std::lower_bound(first, last, j);
  return (it != last && *it == j) ? index_t(it - col_idx.begin()) : -1;
}

std::vector<index_t> BsrMatrix::diagonal_positions() const {
  std::vector<index_t> diag(block_rows);
  for (index_t i = 0; i < block_rows; ++i) {
    diag[i] = find_block(i, i);
    if (diag[i] < 0) throw Error("BSR matrix: block row " + std::to_string(i) + " has no diagonal block");
  }
  return diag;
}

void BsrMatrix::validate() const {
  validate_pattern();
  if (values.size() != col_idx.size() * std::size_t(block_entries()))
    throw Error("BSR matrix: values size is not nnz_blocks * block_size^2");
}

void BsrMatrix::validate_pattern() const {
  auto fail = [](const std::string& m) { throw Error("BSR matrix: " + m); };
  if (block_size < 1 || block_size > max_block_size)
    fail("block size " + std::to_string(block_size) + " outside 1.." + std::to_string(max_block_size));
  if (block_rows < 0 || block_cols < 0) fail("negative dimensions");
  if (row_ptr.size() != std::size_t(block_rows) + 1)
    fail("row_ptr has " + std::to_string(row_ptr.size()) + " entries, expected block_rows+1");
  if (row_ptr[0] != 0 || std::size_t(row_ptr[block_rows]) != col_idx.size())
    fail("row_ptr and col_idx disagree on the number of blocks");
  for (index_t i = 0; i < block_rows; ++i) {
    if (row_ptr[i + 1] < row_ptr[i]) fail("row_ptr decreases at block row " + std::to_string(i));
    for (index_t k = row_ptr[i]; k < row_ptr[i + 1]; ++k) {
      if (col_idx[k] < 0 || col_idx[k] >= block_cols)
        fail("block column out of range in block row " + std::to_string(i));
      if (k > row_ptr[i] && col_idx[k] <= col_idx[k - 1])
        fail("block columns not sorted and unique in block row " + std::to_string(i));
    }
  }
}

bool BsrMatrix::same_pattern(const BsrMatrix& o) const {
  return block_size == o.block_size && block_rows == o.block_rows && block_cols == o.block_cols &&
         row_ptr == o.row_ptr && col_idx == o.col_idx;
}

void spmv(const BsrView& a, const double* x, double* y) { kernels::omp::bsr_spmv(a, x, y); }
void spmv_ref(const BsrView& a, const double* x, double* y) { kernels::ref::bsr_spmv(a, x, y); }

BsrMatrix csr_to_bsr(const CsrMatrix& a, index_t bs) {
  if (bs < 1 || bs > max_block_size)
    throw Error("block size " + std::to_string(bs) + " outside 1.." + std::to_string(max_block_size));
  if (a.rows % bs || a.cols % bs)
    throw Error("a " + std::to_string(a.rows) + "x" + std::to_string(a.cols) +
                " matrix cannot be split into blocks of size " + std::to_string(bs));
  BsrMatrix b;
  b.block_size = bs;
  b.block_rows = a.rows / bs;
  b.block_cols = a.cols / bs;
  b.row_ptr.assign(b.block_rows + 1, 0);
  std::vector<index_t> cols;
  for (index_t bi = 0; bi < b.block_rows; ++bi) {
    cols.clear();
    for (index_t r = bi * bs; r < (bi + 1) * bs; ++r)
      for (index_t k = a.row_ptr[r]; k < a.row_ptr[r + 1]; ++k) cols.push_back(a.col_idx[k] / bs);
    std::sort(cols.begin(), cols.end());
    cols.erase(std::unique(cols.begin(), cols.end()), cols.end());
    b.col_idx.insert(b.col_idx.end(), cols.begin(), cols.end());
    b.row_ptr[bi + 1] = index_t(b.col_idx.size());
  }
  b.values.assign(b.col_idx.size() * std::size_t(bs) * bs, 0.0);
  for (index_t r = 0; r < a.rows; ++r)
    for (index_t k = a.row_ptr[r]; k < a.row_ptr[r + 1]; ++k) {
      const index_t c = a.col_idx[k];
      const index_t pos = b.find_block(r / bs, c / bs);
      b.block(pos)[(r % bs) * bs + c % bs] = a.values[k];
    }
  return b;
}

CsrMatrix bsr_to_csr(const BsrMatrix& a, bool drop_zeros) {
  const index_t bs = a.block_size;
  CsrMatrix c;
  c.rows = a.rows();
  c.cols = a.cols();
  c.row_ptr.assign(c.rows + 1, 0);
  for (index_t bi = 0; bi < a.block_rows; ++bi)
    for (index_t r = 0; r < bs; ++r) {
      for (index_t k = a.row_ptr[bi]; k < a.row_ptr[bi + 1]; ++k)
        for (index_t col = 0; col < bs; ++col) {
          const double v = a.block(k)[r * bs + col];
          if (drop_zeros && v == 0.0) continue;
          c.col_idx.push_back(a.col_idx[k] * bs + col);
          c.values.push_back(v);
        }
      c.row_ptr[bi * bs + r + 1] = index_t(c.col_idx.size());
    }
  return c;
}

double residual_norm(const BsrMatrix& a, std::span<const double> x, std::span<const double> b) {
  std::vector<double> ax(std::size_t(a.rows()));
  spmv_ref(a, x.data(), ax.data());
  long double s = 0.0L;
  for (std::size_t i = 0; i < ax.size(); ++i) {
    const long double d = (long double)b[i] - ax[i];
    s += d * d;
  }
  return double(std::sqrt(s));
}

}  // namespace tb
