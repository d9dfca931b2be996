#include "fixed_point.hpp"

#include <cmath>
#include <string>

#include "solvers/core/error.hpp"

namespace tb::parilut {

FactorView view(const CsrMatrix& a, IluFactors& f) {
  return {a.row_ptr.data(),   a.col_idx.data(),        a.values.data(),         f.l.row_ptr.data(),
          f.l.col_idx.data(), f.l.values.data(),       f.u.row_ptr.data(),      f.u.col_idx.data(),
          f.u.values.data(),  f.u_cols.col_ptr.data(), f.u_cols.row_idx.data(), f.u_cols.csc_to_csr.data()};
}

void check_factors(const IluFactors& f) {
  for (index_t i = 0; i < f.u.rows; ++i) {
    const double pivot = f.u.values[f.u.row_ptr[i]];
    if (pivot == 0.0 || !std::isfinite(pivot))
      throw Error("parilut: the pivot u_ii of row " + std::to_string(i) + " is " + std::to_string(pivot));
    for (index_t p = f.l.row_ptr[i]; p < f.l.row_ptr[i + 1]; ++p)
      if (!std::isfinite(f.l.values[p])) throw Error("parilut: a non-finite entry of L in row " + std::to_string(i));
    for (index_t p = f.u.row_ptr[i]; p < f.u.row_ptr[i + 1]; ++p)
      if (!std::isfinite(f.u.values[p])) throw Error("parilut: a non-finite entry of U in row " + std::to_string(i));
  }
}

}  // namespace tb::parilut
