// GMRES's scalar steps on the host: the loop bodies of gmres_scalars.hpp,
// after the reductions they read, made by the vector kernels the host method
// uses (kernels::omp: its dot products' bits, whatever the thread count).
#include "kernels.hpp"
#include "solvers/core/kernels.hpp"

namespace tb::gmres_scalars::kernels::ref {

namespace omp = tb::kernels::omp;

void begin_cycle(View v, const double* r, std::size_t n, int it, StopFactors f) {
  v.slot[norm_sq] = omp::dot(r, r, n);
  gmres_scalars::begin_cycle(v, it, f);
}

void add_projection(View v, const double* const* basis, const double* w, std::size_t n, int j, bool first_pass) {
  omp::multi_dot(basis, j + 1, w, v.coef, n);
  gmres_scalars::add_projection(v, j, first_pass);
}

void take_projection(View v, const double* basis_i, const double* w, std::size_t n, int i, int j) {
  v.coef[i] = omp::dot(basis_i, w, n);
  gmres_scalars::take_projection(v, i, j);
}

void close_column(View v, const double* w, std::size_t n, int j, int it, StopFactors f) {
  v.slot[norm_sq] = omp::dot(w, w, n);
  gmres_scalars::close_column(v, j, it, f);
}

// The update as kernels::multi_axpy_from makes it on the host.
void close_column_after_projection(View v, const double* const* basis, double* w, std::size_t n, int j, int it,
                                   StopFactors f) {
  omp::multi_axpy(v.coef, basis, j + 1, w, n);
  close_column(v, w, n, j, it, f);
}

void solve_for_y(View v, int j) { gmres_scalars::solve_for_y(v, j); }

}  // namespace tb::gmres_scalars::kernels::ref
