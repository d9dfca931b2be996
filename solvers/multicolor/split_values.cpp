#include "split_values.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "solvers/core/error.hpp"

namespace tb::multicolor {

SplitValues allocate_split_values(const ColourPattern& p, Precision precision) {
  const std::size_t bb = std::size_t(p.block_size) * p.block_size;
  SplitValues v;
  v.precision = precision;
  v.d.resize(std::size_t(p.block_rows) * bb);
  if (precision == Precision::mixed)
    v.o32.resize(p.o_source.size() * bb);
  else
    v.o64.resize(p.o_source.size() * bb);
  return v;
}

bool factor_block_lu(double* a, index_t n) {
  for (index_t k = 0; k < n; ++k) {
    const double pivot = a[k * n + k];
    if (pivot == 0.0 || !std::isfinite(pivot)) return false;
    for (index_t i = k + 1; i < n; ++i) {
      const double lik = a[i * n + k] / pivot;
      a[i * n + k] = lik;
      for (index_t j = k + 1; j < n; ++j) a[i * n + j] -= lik * a[k * n + j];
    }
  }
  return true;
}

void fill_split_values(const ColourPattern& p, const BsrMatrix& a, SplitValues& v) {
  if (a.block_size != p.block_size || a.block_rows != p.block_rows)
    throw Error("multicolor: update() with a matrix of another size than setup()");
  const index_t n = p.block_size;
  const std::size_t bb = std::size_t(n) * n;
  for (index_t i = 0; i < p.block_rows; ++i) {
    double* d = v.d.data() + i * bb;
    const double* src = a.block(p.d_source[i]);
    std::copy(src, src + bb, d);
    if (!factor_block_lu(d, n))
      throw Error("multicolor: the diagonal block of block row " + std::to_string(p.new_to_old[i]) +
                  " has a zero or non-finite pivot (LU without pivoting, seed 002 §II)");
  }
  for (index_t i = 0; i < p.block_rows; ++i)
    for (index_t k = p.ia[i]; k < p.ia[i + 1]; ++k) {
      const double* src = a.block(p.o_source[k]);
      if (!std::all_of(src, src + bb, [](double x) { return std::isfinite(x); }))
        throw Error("multicolor: a non-finite value in block row " + std::to_string(p.new_to_old[i]));
      if (v.precision == Precision::mixed) {
        float* dst = v.o32.data() + std::size_t(k) * bb;
        std::transform(src, src + bb, dst, [](double x) { return float(x); });
        if (!std::all_of(dst, dst + bb, [](float x) { return std::isfinite(x); }))
          throw Error("multicolor: a value in block row " + std::to_string(p.new_to_old[i]) +
                      " overflows fp32; use precision=double");
      } else
        std::copy(src, src + bb, v.o64.begin() + std::size_t(k) * bb);
    }
}

}  // namespace tb::multicolor
