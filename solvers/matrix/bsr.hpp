#pragma once
// Block compressed sparse row matrix with a runtime block size 1..64.
//
// Each dense block is stored contiguously, row-major: one block is one cache
// line or a few for the common CFD sizes 4-8, and a block row's blocks are
// adjacent, so the host SpMV streams values exactly once.
#include <span>
#include <vector>

#include "csr.hpp"
#include "solvers/core/host_device.hpp"
#include "solvers/core/types.hpp"

namespace tb {

inline constexpr index_t max_block_size = 64;

struct BsrMatrix {
  index_t block_size = 1;
  index_t block_rows = 0;
  index_t block_cols = 0;
  std::vector<index_t> row_ptr{0};  // block_rows + 1
  std::vector<index_t> col_idx;     // block column of each stored block, sorted per row
  std::vector<double> values;       // nnz_blocks * block_size^2

  index_t rows() const { return block_rows * block_size; }
  index_t cols() const { return block_cols * block_size; }
  index_t nnz_blocks() const { return index_t(col_idx.size()); }
  index_t block_entries() const { return block_size * block_size; }
  double* block(index_t k) { return values.data() + std::size_t(k) * block_entries(); }
  const double* block(index_t k) const { return values.data() + std::size_t(k) * block_entries(); }
  // Position of block (i, j) in col_idx, or -1 when it is not stored.
  index_t find_block(index_t i, index_t j) const;
  // Position of the diagonal block of each block row; throws naming the first row without one.
  std::vector<index_t> diagonal_positions() const;
  // Checks block size, sizes, index ranges, sorted unique columns; throws tb::Error naming the row.
  void validate() const;
  // The same without the values (a pattern whose values live elsewhere).
  void validate_pattern() const;
  // Same pattern (sizes, row_ptr, col_idx) as another matrix: the test for numeric-only updates.
  bool same_pattern(const BsrMatrix& other) const;
};

// Raw pointers of a BSR matrix, on whichever backend holds them: what kernels read.
struct BsrView {
  index_t block_size = 1;
  index_t block_rows = 0;
  index_t block_cols = 0;
  const index_t* row_ptr = nullptr;
  const index_t* col_idx = nullptr;
  const double* values = nullptr;
};

inline BsrView view(const BsrMatrix& a) {
  return {a.block_size, a.block_rows, a.block_cols, a.row_ptr.data(), a.col_idx.data(), a.values.data()};
}

// Block row i of A x into out (block_size entries, overwritten), summed block
// by block as the host product sums a row (kernels::omp::bsr_spmv): also what
// the distributed product adds for the rows it holds off-rank blocks in, on
// every backend (solvers/dist/halo_rows.hpp).
TB_HOST_DEVICE inline void block_row_product(const BsrView& a, index_t i, const double* x, double* out) {
  const index_t bs = a.block_size;
  for (index_t r = 0; r < bs; ++r) out[r] = 0.0;
  for (index_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) {
    const double* blk = a.values + std::size_t(k) * std::size_t(bs * bs);
    const double* xj = x + std::size_t(a.col_idx[k]) * std::size_t(bs);
    for (index_t r = 0; r < bs; ++r) {
      double s = 0.0;
      for (index_t c = 0; c < bs; ++c) s += blk[r * bs + c] * xj[c];
      out[r] += s;
    }
  }
}

// y = A x on the host: spmv runs kernels::omp::bsr_spmv, spmv_ref the
// sequential kernels::ref::bsr_spmv (kernels.hpp, the room's declared kernels).
void spmv(const BsrView& a, const double* x, double* y);
void spmv_ref(const BsrView& a, const double* x, double* y);
inline void spmv(const BsrMatrix& a, const double* x, double* y) { spmv(view(a), x, y); }
inline void spmv_ref(const BsrMatrix& a, const double* x, double* y) { spmv_ref(view(a), x, y); }

// Conversions. csr_to_bsr needs rows and columns divisible by the block size and
// stores every block that holds at least one CSR entry (missing entries are zero).
BsrMatrix csr_to_bsr(const CsrMatrix& a, index_t block_size);
CsrMatrix bsr_to_csr(const BsrMatrix& a, bool drop_zeros = false);

// ||b - A x||_2 computed on the host, independent of any solver.
double residual_norm(const BsrMatrix& a, std::span<const double> x, std::span<const double> b);

}  // namespace tb
