#pragma once
// The measures seed 001 uses to explain its results (Fig. 7 and 9), computed
// on host copies and only when asked for (diagnostics=true).
#include <span>

#include "row_kernels.hpp"

namespace tb::async_ilu {

struct Diagnostics {
  double initial_residual = 0.0;   // ||x0 - g(x0)||_1 before the build sweeps
  double final_residual = 0.0;     // ||x - g(x)||_1 after them
  double relative_residual = 0.0;  // final / initial (Fig. 7a, 9a); 0 when initial is 0
  double l_jacobi_norm = 0.0;      // ||D_L^{-1} (L - D_L)||_inf (Fig. 7c, 9c)
  double u_jacobi_norm = 0.0;      // ||D_U^{-1} (U - D_U)||_inf (Fig. 7b, 9b)
  double error_vs_exact = 0.0;     // max |x - x_BILU(0)| / max |x_BILU(0)|, U_ii compared as inverses
};

// ||x - g(x)||_1 over every entry of L and U, g the map of Eq. 18 / 22
// (host pointers, scratch of the sizes of lu and dinv).
double fixed_point_residual(const FactorView& f, std::span<const double> lu, std::span<const double> dinv,
                            std::span<double> scratch_lu, std::span<double> scratch_dinv);
// Max-norms of the block-Jacobi iteration matrices of the triangular solves:
// L's diagonal blocks are identities, U's are inverted by dinv.
double lower_jacobi_norm(const FactorView& f, std::span<const double> lu);
double upper_jacobi_norm(const FactorView& f, std::span<const double> lu, std::span<const double> dinv);
// Relative max-norm distance to the exact factors (exact_lu: sequential
// BILU(0) on the same pattern, its diagonal blocks stored inverted).
double error_against(const FactorView& f, std::span<const double> lu, std::span<const double> dinv,
                     std::span<const double> exact_lu);

}  // namespace tb::async_ilu
