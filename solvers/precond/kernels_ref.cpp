// The sequential BILU(0) kernels (kernels.hpp): the numeric factorisation row
// by row in natural order, and the forward and backward block sweeps over the
// sweep layout of bilu0.hpp; and the inverted diagonal blocks of point and
// block Jacobi (diagonal_inverse.hpp).
#include <algorithm>
#include <vector>

#include "bilu0.hpp"
#include "dense_block.hpp"
#include "diagonal_inverse.hpp"
#include "kernels.hpp"
#include "solvers/core/block_size_dispatch.hpp"
#include "solvers/core/error.hpp"
#include "solvers/core/prefetch.hpp"

namespace tb {

namespace {

// A's values into the sweep layout, each block to its place: the numbers the
// elimination starts from. The first call sizes `values` (zeroed, then
// written: the blocks land out of order); later calls allocate nothing.
void scatter_values(const BsrMatrix& a, Bilu0Factors& f) {
  const std::size_t nb = f.block_entries();
  f.values.resize(a.values.size());
  for (std::size_t k = 0; k < f.place.size(); ++k) std::copy_n(a.values.data() + k * nb, nb, f.block(index_t(k)));
}

// Block IKJ elimination restricted to A's pattern (seed 000, Eq. 1): for each
// block row i and each k < i in the row, L_ik = A_ik U_kk^{-1}, then
// A_ij -= L_ik U_kj for every j > k present in both rows i and k.
template <int N>
void factor(Bilu0Factors& f) {
  const BsrMatrix& lu = f.pattern;
  const index_t n = dense::dim<N>(lu.block_size);
  double tmp[max_block_size * max_block_size];
  for (index_t i = 0; i < lu.block_rows; ++i) {
    const index_t row_end = lu.row_ptr[i + 1];
    for (index_t kp = lu.row_ptr[i]; kp < f.diag[i]; ++kp) {
      const index_t k = lu.col_idx[kp];
      dense::multiply<N>(f.block(kp), f.block(f.diag[k]), tmp, n);
      std::copy(tmp, tmp + n * n, f.block(kp));
      index_t ip = kp + 1;
      for (index_t up = f.diag[k] + 1; up < lu.row_ptr[k + 1] && ip < row_end; ++up) {
        const index_t j = lu.col_idx[up];
        while (ip < row_end && lu.col_idx[ip] < j) ++ip;
        if (ip < row_end && lu.col_idx[ip] == j) dense::multiply_subtract<N>(f.block(kp), f.block(up), f.block(ip), n);
      }
    }
    if (!dense::invert(f.block(f.diag[i]), n))
      throw Error("BILU(0): singular or non-finite pivot block in block row " + std::to_string(i));
  }
}

// Each block row accumulates in a local array: it cannot alias z, so for a
// compile-time N it stays in registers. In the backward sweep the block of the
// row just computed (i+1) comes last, which shortens the dependency chain.
template <int N>
void apply(const Bilu0Factors& f, const double* r, double* z) {
  const index_t rows = f.pattern.block_rows;
  const index_t n = dense::dim<N>(f.pattern.block_size);
  const std::size_t nb = std::size_t(n) * n;
  double acc[N > 0 ? N : max_block_size];
  const double *l = f.l_values(), *l_end = f.u_values();
  const double *u = f.u_values(), *u_end = f.values.data() + f.values.size();
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
  const index_t rows = f.pattern.block_rows;
  const double* l = f.l_values();
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
  const double* u = f.u_values();
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
  if (!f.pattern.same_pattern(a)) throw Error("BILU(0): the matrix pattern differs from the one at set-up");
  scatter_values(a, f);
  with_block_size(a.block_size, [&]<int N>() { factor<N>(f); });
}

void bilu0_apply(const Bilu0Factors& f, const double* r, double* z) {
  if (f.pattern.block_size == 1) return apply_scalar(f, r, z);
  bilu0_apply_blocks(f, r, z);
}

index_t invert_diagonal(const BsrView& a, const index_t* diagonal, bool whole_blocks, double* inverse, index_t*) {
  for (index_t i = 0; i < a.block_rows; ++i)
    if (!invert_diagonal_row(a, diagonal, whole_blocks, inverse, i)) return i;
  return -1;
}

}  // namespace precond::kernels::ref

void bilu0_apply_blocks(const Bilu0Factors& f, const double* r, double* z) {
  with_block_size(f.pattern.block_size, [&]<int N>() { apply<N>(f, r, z); });
}

}  // namespace tb
