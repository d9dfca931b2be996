#pragma once
// Geometric multigrid for scalar systems on structured grids (the pressure
// Poisson equations of tb-incomp and tb-ib) as a preconditioner: one V- or
// W-cycle over the hierarchy of hierarchy.hpp from a zero initial guess, with
// a smoother on every level and the dense inverse on the coarsest.
//
// M^{-1} is a fixed linear operator; where A is symmetric it is symmetric
// (R = P^T, the post-smoother the pre-smoother's adjoint: the same polynomial,
// or the colours in reverse order), and positive definite for the smoothers
// that converge on their own, so CG may use it. With an ILU smoother it is
// symmetric where the ILU's M is (BILU(0) of a symmetric matrix is).
#include <memory>
#include <string_view>

#include "hierarchy.hpp"
#include "solvers/krylov/preconditioner.hpp"

namespace tb::mg {

// chebyshev: a Chebyshev polynomial in D^{-1} A on [0.1, 1] L, L the estimate
// of its largest eigenvalue (Hierarchy::largest_eigenvalue; the interval is
// PETSc's Chebyshev smoother's); jacobi: damped Jacobi, omega = 2d / (2d + 1)
// 2 / L in d dimensions (the Laplacian's best smoothing damping, 6/7 in 3D,
// where L = 2); gauss_seidel: multicolour
// Gauss-Seidel (red-black on the 7-point finest level, eight colours on the
// 27-point coarse levels; forward before, backward after the coarse
// correction); ilu: a preconditioner handed in (FGBILU, asynchronous ILU) on
// the finest level, x += M^{-1} (b - A x), and Chebyshev below it.
enum class Smoother { chebyshev, jacobi, gauss_seidel, ilu };
std::string_view to_string(Smoother s);

enum class Cycle { v, w };

struct Options {
  HierarchyOptions hierarchy;
  StructuredIndex grid{0, 0, 0};  // all 0: inferred from the pattern
  Smoother smoother = Smoother::chebyshev;
  int sweeps = 1;  // smoothing steps before and after the coarse correction
  int degree = 3;  // of the Chebyshev polynomial
  Cycle cycle = Cycle::v;
  // Smoothing steps on a coarsest level too large for its dense inverse.
  int coarse_sweeps = 10;
  // cuda: the cycle recorded once as a CUDA graph and replayed (not with ilu,
  // whose preconditioner launches on the default stream).
  bool graph = true;
};

// The Chebyshev interval's lower end as a fraction of L (PETSc's default,
// -ksp_chebyshev_esteig 0,0.1,0,1.1, whose 1.1 is lanczos_margin here).
inline constexpr double chebyshev_lower_fraction = 0.1;

// The hierarchy of a multigrid preconditioner after setup, or nullptr when p
// is none (for tests and the benchmark's report).
const Hierarchy* hierarchy_of(const Preconditioner& p);

// ilu_smoother: the finest level's smoother for Smoother::ilu (required then,
// refused otherwise); set up on the same matrix and backend.
std::unique_ptr<Preconditioner> make_preconditioner(const Options& o,
                                                    std::unique_ptr<Preconditioner> ilu_smoother = nullptr);

}  // namespace tb::mg
