#include "bilu0.hpp"

#include <string>
#include <vector>

#include "dense_block.hpp"
#include "solvers/core/error.hpp"

namespace tb {

Bilu0Factors bilu0_symbolic(const BsrMatrix& a) {
  a.validate();
  if (a.block_rows != a.block_cols) throw Error("BILU(0): the matrix is not square");
  Bilu0Factors f;
  f.lu = a;
  f.diag = a.diagonal_positions();
  return f;
}

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

template <int N>
void apply(const Bilu0Factors& f, const double* r, double* z) {
  const BsrMatrix& lu = f.lu;
  const index_t n = dense::dim<N>(lu.block_size);
  double t[max_block_size];  // no allocation: apply runs once per Krylov iteration
  // Forward: L y = r with unit diagonal blocks, y stored in z.
  for (index_t i = 0; i < lu.block_rows; ++i) {
    double* zi = z + std::size_t(i) * n;
    for (index_t c = 0; c < n; ++c) zi[c] = r[std::size_t(i) * n + c];
    for (index_t kp = lu.row_ptr[i]; kp < f.diag[i]; ++kp)
      dense::matvec_subtract<N>(lu.block(kp), z + std::size_t(lu.col_idx[kp]) * n, zi, n);
  }
  // Backward: U x = y, multiplying by the stored inverse of each diagonal block.
  for (index_t i = lu.block_rows - 1; i >= 0; --i) {
    double* zi = z + std::size_t(i) * n;
    for (index_t c = 0; c < n; ++c) t[c] = zi[c];
    for (index_t up = f.diag[i] + 1; up < lu.row_ptr[i + 1]; ++up)
      dense::matvec_subtract<N>(lu.block(up), z + std::size_t(lu.col_idx[up]) * n, t, n);
    dense::matvec<N>(lu.block(f.diag[i]), t, zi, n);
  }
}

}  // namespace

void bilu0_factor_ref(const BsrMatrix& a, Bilu0Factors& f) {
  if (!f.lu.same_pattern(a)) throw Error("BILU(0): the matrix pattern differs from the one at set-up");
  f.lu.values = a.values;
  dense::with_block_size(a.block_size, [&]<int N>() { factor<N>(f); });
}

void bilu0_apply_ref(const Bilu0Factors& f, const double* r, double* z) {
  dense::with_block_size(f.lu.block_size, [&]<int N>() { apply<N>(f, r, z); });
}

}  // namespace tb
