#pragma once
// The device steps of the Krylov room: GMRES's scalar steps (gmres_scalars.hpp)
// declared once, ref:: running the loop bodies here, cuda:: one thread each
// (cuda/kernels.cu); the View's arrays live on the backend named. A step that
// reads a reduction takes its vectors and makes the reduction first: on a
// device the dot products' last block runs the step, in one launch
// (solvers/core/cuda/dot_kernels.cuh); on the host the vector kernels' dot
// products (kernels::omp, the host method's bits), then the step.
#include <cstddef>

#include "gmres_scalars.hpp"
#include "solvers/core/array.hpp"
#include "solvers/core/backend.hpp"

namespace tb::gmres_scalars {

// n entries a vector. begin_cycle reduces ||r||^2 into slot[norm_sq];
// add_projection basis[i] . w into coef[i] for i <= j (k = j + 1 vectors);
// take_projection basis_i . w into coef[i]; close_column ||w||^2 into
// slot[norm_sq]; close_column_after_projection first w += coef[i] basis[i]
// for i <= j (the update of classical Gram-Schmidt's last pass), then as
// close_column.
#define TB_GMRES_SCALAR_KERNELS                                                                                    \
  void begin_cycle(View v, const double* r, std::size_t n, int it, StopFactors f);                                 \
  void add_projection(View v, const double* const* basis, const double* w, std::size_t n, int j, bool first_pass); \
  void take_projection(View v, const double* basis_i, const double* w, std::size_t n, int i, int j);               \
  void close_column(View v, const double* w, std::size_t n, int j, int it, StopFactors f);                         \
  void close_column_after_projection(View v, const double* const* basis, double* w, std::size_t n, int j, int it,  \
                                     StopFactors f);                                                               \
  void solve_for_y(View v, int j);

namespace kernels::ref {
TB_GMRES_SCALAR_KERNELS
}
namespace kernels::cuda {
TB_GMRES_SCALAR_KERNELS
}

namespace kernels {
// ref:: where the scalars are on the host, cuda:: on a device; the vectors on the same backend.
void begin_cycle(Backend b, View v, const Vector& r, int it, StopFactors f);
// basis: the data of j + 1 vectors on b.
void add_projection(Backend b, View v, const double* const* basis, const Vector& w, int j, bool first_pass);
void take_projection(Backend b, View v, const Vector& basis_i, const Vector& w, int i, int j);
void close_column(Backend b, View v, const Vector& w, int j, int it, StopFactors f);
void close_column_after_projection(Backend b, View v, const double* const* basis, Vector& w, int j, int it,
                                   StopFactors f);
void solve_for_y(Backend b, View v, int j);
}  // namespace kernels

}  // namespace tb::gmres_scalars
