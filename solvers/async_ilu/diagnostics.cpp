#include "diagnostics.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "solvers/core/block_size_dispatch.hpp"
#include "solvers/precond/dense_block.hpp"

namespace tb::async_ilu {

double fixed_point_residual(const FactorView& f, std::span<const double> lu, std::span<const double> dinv,
                            std::span<double> scratch_lu, std::span<double> scratch_dinv) {
  // One Jacobi evaluation of g at x; a failed inversion only affects
  // scratch_dinv, which the residual does not read.
  with_block_size(f.block_size, [&]<int N>() {
    for (index_t i = 0; i < f.block_rows; ++i)
      (void)factor_row<N>(f, i, lu.data(), dinv.data(), scratch_lu.data(), scratch_dinv.data());
  });
  double s = 0.0;
  for (std::size_t k = 0; k < lu.size(); ++k) s += std::abs(lu[k] - scratch_lu[k]);
  return s;
}

double lower_jacobi_norm(const FactorView& f, std::span<const double> lu) {
  const index_t n = f.block_size;
  const index_t nb = n * n;
  double worst = 0.0;
  for (index_t i = 0; i < f.block_rows; ++i)
    for (index_t r = 0; r < n; ++r) {
      double s = 0.0;
      for (index_t p = f.row_ptr[i]; p < f.diag[i]; ++p)
        for (index_t c = 0; c < n; ++c) s += std::abs(lu[std::size_t(p * nb + r * n + c)]);
      worst = std::max(worst, s);
    }
  return worst;
}

double upper_jacobi_norm(const FactorView& f, std::span<const double> lu, std::span<const double> dinv) {
  const index_t n = f.block_size;
  const index_t nb = n * n;
  std::vector<double> m(std::size_t(nb), 0.0), sums(std::size_t(n), 0.0);
  double worst = 0.0;
  for (index_t i = 0; i < f.block_rows; ++i) {
    std::fill(sums.begin(), sums.end(), 0.0);
    for (index_t p = f.diag[i] + 1; p < f.row_ptr[i + 1]; ++p) {
      dense::multiply(dinv.data() + i * nb, lu.data() + p * nb, m.data(), n);
      for (index_t r = 0; r < n; ++r)
        for (index_t c = 0; c < n; ++c) sums[std::size_t(r)] += std::abs(m[std::size_t(r * n + c)]);
    }
    for (double s : sums) worst = std::max(worst, s);
  }
  return worst;
}

double error_against(const FactorView& f, std::span<const double> lu, std::span<const double> dinv,
                     std::span<const double> exact_lu) {
  const index_t nb = f.block_size * f.block_size;
  double diff = 0.0, scale = 0.0;
  for (index_t i = 0; i < f.block_rows; ++i)
    for (index_t p = f.row_ptr[i]; p < f.row_ptr[i + 1]; ++p) {
      const double* mine = p == f.diag[i] ? dinv.data() + i * nb : lu.data() + p * nb;
      for (index_t e = 0; e < nb; ++e) {
        const double x = exact_lu[std::size_t(p * nb + e)];
        diff = std::max(diff, std::abs(mine[e] - x));
        scale = std::max(scale, std::abs(x));
      }
    }
  return scale > 0.0 ? diff / scale : diff;
}

}  // namespace tb::async_ilu
