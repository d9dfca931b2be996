#include "bilu0.hpp"

#include <string>
#include <vector>

#include "dense_block.hpp"
#include "solvers/core/block_size_dispatch.hpp"
#include "solvers/core/error.hpp"
#include "solvers/core/prefetch.hpp"

namespace tb {

Bilu0Factors bilu0_symbolic(const BsrMatrix& a) {
  a.validate();
  if (a.block_rows != a.block_cols) throw Error("BILU(0): the matrix is not square");
  Bilu0Factors f;
  f.lu = a;
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
  f.l_val.resize(f.l_col.size() * std::size_t(lu.block_entries()));
  f.u_val.resize(f.u_col.size() * std::size_t(lu.block_entries()));
  return f;
}

namespace {

// Copies the factors from A's pattern into the sweep layout.
void fill_sweep_layout(Bilu0Factors& f) {
  const BsrMatrix& lu = f.lu;
  const std::size_t nb = std::size_t(lu.block_entries());
  double* l = f.l_val.data();
  for (index_t i = 0; i < lu.block_rows; ++i)
    for (index_t kp = lu.row_ptr[i]; kp < f.diag[i]; ++kp, l += nb) std::copy(lu.block(kp), lu.block(kp) + nb, l);
  double* u = f.u_val.data();
  for (index_t i = lu.block_rows - 1; i >= 0; --i) {
    std::copy(lu.block(f.diag[i]), lu.block(f.diag[i]) + nb, u);
    u += nb;
    for (index_t up = lu.row_ptr[i + 1] - 1; up > f.diag[i]; --up, u += nb) std::copy(lu.block(up), lu.block(up) + nb, u);
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
        if (ip < row_end && lu.col_idx[ip] == j) dense::multiply_subtract<N>(lu.block(kp), lu.block(up), lu.block(ip), n);
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

}  // namespace

void bilu0_factor_ref(const BsrMatrix& a, Bilu0Factors& f) {
  if (!f.lu.same_pattern(a)) throw Error("BILU(0): the matrix pattern differs from the one at set-up");
  f.lu.values = a.values;
  with_block_size(a.block_size, [&]<int N>() { factor<N>(f); });
  fill_sweep_layout(f);
}

void bilu0_apply_ref(const Bilu0Factors& f, const double* r, double* z) {
  with_block_size(f.lu.block_size, [&]<int N>() { apply<N>(f, r, z); });
}

}  // namespace tb
