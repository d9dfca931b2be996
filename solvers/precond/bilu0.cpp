#include "bilu0.hpp"

#include <string>
#include <vector>

#include "dense_block.hpp"
#include "kernels.hpp"
#include "solvers/core/block_size_dispatch.hpp"
#include "solvers/core/error.hpp"
#include "solvers/core/prefetch.hpp"

namespace tb {

Bilu0Factors bilu0_symbolic(const BsrMatrix& a) {
  a.validate();
  if (a.block_rows != a.block_cols) throw Error("BILU(0): the matrix is not square");
  // The pattern only: the values come with the first factorisation, so set-up
  // writes each of them once (tb-solve's set-up was mostly copies, issue 23).
  Bilu0Factors f;
  f.lu.block_size = a.block_size;
  f.lu.block_rows = a.block_rows;
  f.lu.block_cols = a.block_cols;
  f.lu.row_ptr = a.row_ptr;
  f.lu.col_idx = a.col_idx;
  f.diag = a.diagonal_positions();
  const BsrMatrix& lu = f.lu;
  f.l_ptr.push_back(0);
  for (index_t i = 0; i < lu.block_rows; ++i) {
    f.l_col.insert(f.l_col.end(), lu.col_idx.begin() + lu.row_ptr[i], lu.col_idx.begin() + f.diag[i]);
    f.l_ptr.push_back(index_t(f.l_col.size()));
  }
  f.u_ptr.push_back(0);
  for (index_t i = lu.block_rows - 1; i >= 0; --i) {
    f.u_col.push_back(i);
    for (index_t up = lu.row_ptr[i + 1] - 1; up > f.diag[i]; --up) f.u_col.push_back(lu.col_idx[up]);
    f.u_ptr.push_back(index_t(f.u_col.size()));
  }
  return f;
}

namespace {

// Copies the factors from A's pattern into the sweep layout. Appending (not
// resize-then-assign) writes each value once; after the first factorisation the
// capacity is there and nothing is allocated.
void fill_sweep_layout(Bilu0Factors& f) {
  const BsrMatrix& lu = f.lu;
  const std::size_t nb = std::size_t(lu.block_entries());
  f.l_val.clear();
  f.l_val.reserve(f.l_col.size() * nb);
  // L's blocks of a row are contiguous in lu: one append per row.
  for (index_t i = 0; i < lu.block_rows; ++i)
    f.l_val.insert(f.l_val.end(), lu.block(lu.row_ptr[i]), lu.block(f.diag[i]));
  f.u_val.clear();
  f.u_val.reserve(f.u_col.size() * nb);
  for (index_t i = lu.block_rows - 1; i >= 0; --i) {
    f.u_val.insert(f.u_val.end(), lu.block(f.diag[i]), lu.block(f.diag[i]) + nb);
    for (index_t up = lu.row_ptr[i + 1] - 1; up > f.diag[i]; --up)
      f.u_val.insert(f.u_val.end(), lu.block(up), lu.block(up) + nb);
  }
}

}  // namespace

namespace {

// Block IKJ elimination restricted to A's pattern (seed 000, Eq. 1): for each
// block row i and each k < i in the row, L_ik = A_ik U_kk^{-1}, then
// A_ij -= L_ik U_kj for every j > k present in both rows i and k.
template <int N>
void factor(Bilu0Factors& f) {
  BsrMatrix& lu = f.lu;
  const index_t n = dense::dim<N>(lu.block_size);
  double tmp[max_block_size * max_block_size];
  for (index_t i = 0; i < lu.block_rows; ++i) {
    const index_t row_end = lu.row_ptr[i + 1];
    for (index_t kp = lu.row_ptr[i]; kp < f.diag[i]; ++kp) {
      const index_t k = lu.col_idx[kp];
      dense::multiply<N>(lu.block(kp), lu.block(f.diag[k]), tmp, n);
      std::copy(tmp, tmp + n * n, lu.block(kp));
      index_t ip = kp + 1;
      for (index_t up = f.diag[k] + 1; up < lu.row_ptr[k + 1] && ip < row_end; ++up) {
        const index_t j = lu.col_idx[up];
        while (ip < row_end && lu.col_idx[ip] < j) ++ip;
        if (ip < row_end && lu.col_idx[ip] == j)
          dense::multiply_subtract<N>(lu.block(kp), lu.block(up), lu.block(ip), n);
      }
    }
    if (!dense::invert(lu.block(f.diag[i]), n))
      throw Error("BILU(0): singular or non-finite pivot block in block row " + std::to_string(i));
  }
}

// Each block row accumulates in a local array: it cannot alias z, so for a
// compile-time N it stays in registers. In the backward sweep the block of the
// row just computed (i+1) comes last, which shortens the dependency chain.
template <int N>
void apply(const Bilu0Factors& f, const double* r, double* z) {
  const index_t rows = f.lu.block_rows;
  const index_t n = dense::dim<N>(f.lu.block_size);
  const std::size_t nb = std::size_t(n) * n;
  double acc[N > 0 ? N : max_block_size];
  const double *l = f.l_val.data(), *l_end = l + f.l_val.size();
  const double *u = f.u_val.data(), *u_end = u + f.u_val.size();
  // Forward: L y = r with unit diagonal blocks, y stored in z.
  for (index_t i = 0; i < rows; ++i) {
    prefetch_ahead(l + f.l_ptr[i] * nb, l + f.l_ptr[i + 1] * nb, l_end);
    for (index_t c = 0; c < n; ++c) acc[c] = r[std::size_t(i) * n + c];
    for (index_t k = f.l_ptr[i]; k < f.l_ptr[i + 1]; ++k)
      dense::matvec_subtract<N>(l + k * nb, z + std::size_t(f.l_col[k]) * n, acc, n);
    for (index_t c = 0; c < n; ++c) z[std::size_t(i) * n + c] = acc[c];
  }
  // Backward: U x = y, multiplying by the stored inverse of each diagonal block.
  for (index_t row = 0; row < rows; ++row) {
    const index_t i = rows - 1 - row;
    prefetch_ahead(u + f.u_ptr[row] * nb, u + f.u_ptr[row + 1] * nb, u_end);
    double* zi = z + std::size_t(i) * n;
    for (index_t c = 0; c < n; ++c) acc[c] = zi[c];
    for (index_t k = f.u_ptr[row] + 1; k < f.u_ptr[row + 1]; ++k)
      dense::matvec_subtract<N>(u + k * nb, z + std::size_t(f.u_col[k]) * n, acc, n);
    dense::matvec<N>(u + f.u_ptr[row] * nb, acc, zi, n);
  }
}

// Block size 1 (pressure Poisson systems): the value of the row just computed is
// carried in a register to the next row, where it is the last (nearest) entry,
// instead of being stored and loaded back: store-to-load forwarding no longer
// sits on the sweep's dependency chain. The same products and subtractions in
// the same order as apply<1>, so the same bits (tests/solvers/precond).
void apply_scalar(const Bilu0Factors& f, const double* r, double* z) {
  const index_t rows = f.lu.block_rows;
  const double* l = f.l_val.data();
  const index_t *lp = f.l_ptr.data(), *lc = f.l_col.data();
  double prev = 0.0;
  for (index_t i = 0; i < rows; ++i) {
    const index_t begin = lp[i], end = lp[i + 1];
    const bool near = end > begin && lc[end - 1] == i - 1;
    double acc = r[i];
    for (index_t k = begin; k < end - (near ? 1 : 0); ++k) acc -= l[k] * z[lc[k]];
    if (near) acc -= l[end - 1] * prev;
    z[i] = acc;
    prev = acc;
  }
  const double* u = f.u_val.data();
  const index_t *up = f.u_ptr.data(), *uc = f.u_col.data();
  prev = 0.0;
  for (index_t row = 0; row < rows; ++row) {
    const index_t i = rows - 1 - row, begin = up[row], end = up[row + 1];
    const bool near = end > begin + 1 && uc[end - 1] == i + 1;
    double acc = z[i];
    for (index_t k = begin + 1; k < end - (near ? 1 : 0); ++k) acc -= u[k] * z[uc[k]];
    if (near) acc -= u[end - 1] * prev;
    prev = 0.0 + u[begin] * acc;  // matvec<1>: a sum from zero
    z[i] = prev;
  }
}

}  // namespace

namespace precond::kernels::ref {

void bilu0_factor(const BsrMatrix& a, Bilu0Factors& f) {
  if (!f.lu.same_pattern(a)) throw Error("BILU(0): the matrix pattern differs from the one at set-up");
  f.lu.values = a.values;
  with_block_size(a.block_size, [&]<int N>() { factor<N>(f); });
  fill_sweep_layout(f);
}

void bilu0_apply(const Bilu0Factors& f, const double* r, double* z) {
  if (f.lu.block_size == 1) return apply_scalar(f, r, z);
  bilu0_apply_blocks(f, r, z);
}

}  // namespace precond::kernels::ref

void bilu0_apply_blocks(const Bilu0Factors& f, const double* r, double* z) {
  with_block_size(f.lu.block_size, [&]<int N>() { apply<N>(f, r, z); });
}

}  // namespace tb
