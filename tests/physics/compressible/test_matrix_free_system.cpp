// The second-order system without its matrix (jacobian.form = matrix_free):
// its product against the coloured Jacobian's (the residual's own,
// assembled), and its outer FGMRES against that matrix's equations.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "compressible_fixtures.hpp"
#include "physics/compressible/coloured_jacobian.hpp"
#include "physics/compressible/matrix_free_system.hpp"
#include "solvers/factory/registry.hpp"

namespace tb::test {
namespace {

struct Case {
  Mesh2D mesh = distorted(cylinder_mesh(), 21);
  EulerSettings settings = settings_at(0.38, 0.05);
  std::vector<State> w, r;
  std::vector<double> shift;
  Case() {
    w = perturbed_free_stream(settings, mesh.num_cells(), 0.05, 17);
    shift.resize(w.size());
    for (std::size_t i = 0; i < shift.size(); ++i) shift[i] = 0.5 + 0.01 * double(i % 7);
  }
};

double relative_difference(const std::vector<double>& a, const std::vector<double>& b) {
  double d = 0.0, s = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) d += (a[i] - b[i]) * (a[i] - b[i]), s += b[i] * b[i];
  return std::sqrt(d / s);
}

// The difference product equals the assembled exact Jacobian's to the
// truncation error of a one-sided difference; without the second order it
// equals the analytic first-order Jacobian's. A product that dropped the
// shift, the difference's scale or a ghost update would be off by O(1).
TEST(MatrixFreeSystem, ItsProductIsTheExactJacobiansProduct) {
  for (const int order : {1, 2}) {
    Case c;
    EulerDiscretisation disc(c.mesh, cylinder_boundaries(c.mesh), c.settings);
    disc.residual(c.w, order, c.r);
    ColouredJacobian jac(reconstruction_graph(c.mesh, c.settings.gradient_stencil));
    BsrMatrix exact;
    jac.assemble(disc, c.w, c.r, order, c.shift, exact);
    const index_t cells = c.mesh.num_cells();
    MatrixFreeSystem system(disc, nullptr, cells, {});
    for (const unsigned seed : {1u, 2u}) {
      const std::vector<double> x = random_vector(std::size_t(cells) * num_vars, seed);
      std::vector<double> want(x.size()), got(x.size());
      spmv(exact, x.data(), want.data());
      system.apply(c.w, c.r, order, c.shift, x, got);
      EXPECT_LT(relative_difference(got, want), 1e-6) << "order " << order << ", seed " << seed;
    }
  }
}

// Preconditioned by an accurate solve of the first-order system, the outer
// FGMRES meets its tolerance on the exact Jacobian's equations: the solution
// satisfies the assembled system to about that tolerance, and each outer
// iteration cost one preconditioner solve.
TEST(MatrixFreeSystem, SolvesTheSecondOrderSystemPreconditionedByTheFirstOrderOne) {
  Case c;
  EulerDiscretisation disc(c.mesh, cylinder_boundaries(c.mesh), c.settings);
  disc.residual(c.w, 2, c.r);
  const index_t cells = c.mesh.num_cells();
  BsrMatrix first = disc.pattern().matrix;
  disc.assemble_jacobian(c.w, c.shift, first);
  ColouredJacobian jac(reconstruction_graph(c.mesh, c.settings.gradient_stencil));
  BsrMatrix exact;
  jac.assemble(disc, c.w, c.r, 2, c.shift, exact);
  auto inner = make_solver("fgmres(restart=50,rtol=1e-10,maxit=200)+bilu0");
  inner->setup(first);
  const LinearSolve inner_solve = [&](const BsrMatrix&, std::span<const double> b, std::span<double> x) {
    return inner->solve(b, x);
  };
  FunctionSystems systems(inner_solve);

  MatrixFreeSystem system(disc, nullptr, cells, {.rtol = 1e-6, .maxit = 40, .inner_maxit = 0});
  std::vector<double> rhs(std::size_t(cells) * num_vars), dw(rhs.size());
  for (std::size_t i = 0; i < std::size_t(cells); ++i)
    for (int k = 0; k < num_vars; ++k) rhs[i * num_vars + std::size_t(k)] = -c.r[i][std::size_t(k)];
  std::vector<SolveStats> solves;
  double inner_seconds = 0.0;
  const SolveStats outer =
      system.solve(c.w, c.r, 2, c.shift, rhs, dw, {systems, systems::SystemId(0), &first}, solves, inner_seconds);
  EXPECT_TRUE(outer.converged()) << outer.line();
  EXPECT_EQ(int(solves.size()), outer.iterations);
  std::vector<double> lhs(rhs.size());
  spmv(exact, dw.data(), lhs.data());
  EXPECT_LT(relative_difference(lhs, rhs), 1e-5);
  // The first-order Jacobian alone solves another system: its update misses these equations by far more.
  std::vector<double> dw1(rhs.size(), 0.0);
  inner->solve(rhs, dw1);
  spmv(exact, dw1.data(), lhs.data());
  EXPECT_GT(relative_difference(lhs, rhs), 1e-3);
}

}  // namespace
}  // namespace tb::test
