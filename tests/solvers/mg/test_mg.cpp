// The multigrid room against independent references: the grid read off a
// pattern, the Galerkin operators against P^T A P formed by Eigen, the
// interpolation against the cell centres, the preconditioner's symmetry,
// solutions against a sparse direct solve, iteration counts that do not grow
// with the grid, the pure Neumann problem, semi-coarsening, rows outside the
// stencil, numeric updates, and the registry's refusals.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <Eigen/Sparse>
#include <cmath>
#include <numeric>
#include <string>

#include "../../common/systems.hpp"
#include "solvers/core/error.hpp"
#include "solvers/factory/registry.hpp"
#include "solvers/matrix/poisson.hpp"
#include "solvers/mg/multigrid.hpp"

namespace tb {
namespace {

using Sparse = Eigen::SparseMatrix<double>;

BsrMatrix cavity(index_t n, bool pin = true, double beta = 1.0) {
  PoissonParams s;
  s.nx = s.ny = s.nz = n;
  s.pin = pin;
  s.cluster[0] = s.cluster[1] = s.cluster[2] = beta;
  return generate_poisson(s);
}

// b with every frequency; zero mean where the problem is pure Neumann, zero in
// the fixed cell where it is pinned.
std::vector<double> rhs(const BsrMatrix& a, bool neumann, bool pin) {
  std::vector<double> b(static_cast<std::size_t>(a.rows()));
  for (std::size_t i = 0; i < b.size(); ++i) b[i] = std::sin(0.37 * double(i)) + (i % 7 == 0 ? 1.0 : 0.0);
  if (neumann) {
    const double mean = std::accumulate(b.begin(), b.end(), 0.0) / double(b.size());
    for (double& v : b) v -= mean;
  }
  if (pin) b[0] = 0.0;
  return b;
}

SolveStats solve(const std::string& spec, const BsrMatrix& a, const std::vector<double>& b, std::vector<double>& x) {
  auto solver = make_solver(spec);
  solver->setup(a);
  x.assign(b.size(), 0.0);
  return solver->solve(b, x);
}

const mg::Hierarchy& hierarchy(LinearSolver& s) {
  const mg::Hierarchy* h = mg::hierarchy_of(s.preconditioner());
  if (!h) throw Error("not a multigrid preconditioner");
  return *h;
}

// P of level l as a sparse matrix (fine rows, coarse columns), from the transfer's weights.
Sparse prolongation(const mg::Hierarchy& h, int l) {
  const mg::TransferView t = h.transfer(l);
  std::vector<Eigen::Triplet<double>> e;
  for (index_t f = 0; f < t.fine.cells(); ++f) {
    const mg::Parents p[3] = {mg::parents_of(t, 0, t.fine.i_of(f)), mg::parents_of(t, 1, t.fine.j_of(f)),
                              mg::parents_of(t, 2, t.fine.k_of(f))};
    for (int c = 0; c < p[2].count; ++c)
      for (int b = 0; b < p[1].count; ++b)
        for (int a = 0; a < p[0].count; ++a) {
          const double w = (c ? p[2].w_hi : p[2].w_lo) * (b ? p[1].w_hi : p[1].w_lo) * (a ? p[0].w_hi : p[0].w_lo);
          e.emplace_back(f, t.coarse.natural(p[0].first + a, p[1].first + b, p[2].first + c), w);
        }
  }
  Sparse p(t.fine.cells(), t.coarse.cells());
  p.setFromTriplets(e.begin(), e.end());
  return p;
}

// A stencil (with its remainder, if the view has one) as a sparse matrix.
Sparse stencil_matrix(const mg::StencilView& v, const mg::StencilPoints& pts) {
  const StructuredIndex g = v.grid;
  const std::size_t n = std::size_t(g.cells());
  std::vector<Eigen::Triplet<double>> e;
  for (index_t c = 0; c < g.cells(); ++c) {
    const index_t ijk[3] = {g.i_of(c), g.j_of(c), g.k_of(c)};
    for (int p = 0; p < pts.count; ++p) {
      const double a = v.coef[std::size_t(p) * n + std::size_t(c)];
      if (a != 0.0)
        e.emplace_back(c, g.natural(ijk[0] + pts.delta[p][0], ijk[1] + pts.delta[p][1], ijk[2] + pts.delta[p][2]), a);
    }
    if (v.rest_ptr)
      for (index_t k = v.rest_ptr[c]; k < v.rest_ptr[c + 1]; ++k) e.emplace_back(c, v.rest_col[k], v.rest_val[k]);
  }
  Sparse m(g.cells(), g.cells());
  m.setFromTriplets(e.begin(), e.end());
  return m;
}

// Level l's operator (the finest with its remainder).
Sparse level_matrix(const mg::Hierarchy& h, int l) { return stencil_matrix(h.view(l), h.level(l).points); }

double max_abs(const Sparse& m) {
  double v = 0.0;
  for (int k = 0; k < m.outerSize(); ++k)
    for (Sparse::InnerIterator it(m, k); it; ++it) v = std::max(v, std::abs(it.value()));
  return v;
}

TEST(Mg, InfersTheGridFromThePattern) {
  for (StructuredIndex g :
       {StructuredIndex{12, 10, 7}, StructuredIndex{9, 14, 1}, StructuredIndex{20, 1, 1}, StructuredIndex{2, 2, 2}}) {
    PoissonParams s;
    s.nx = g.ni, s.ny = g.nj, s.nz = g.nk, s.pin = true;
    const StructuredIndex got = mg::infer_grid(generate_poisson(s));
    EXPECT_EQ(got.ni, g.ni);
    EXPECT_EQ(got.nj, g.nj);
    EXPECT_EQ(got.nk, g.nk);
  }
  // Periodic columns are no offset a quarter of the rows share: the grid stands, they go to the remainder.
  PoissonParams s;
  s.nx = 8, s.ny = 6, s.nz = 5, s.periodic_i = true;
  const BsrMatrix a = generate_poisson(s);
  const StructuredIndex g = mg::infer_grid(a);
  EXPECT_EQ(g.ni, 8);
  EXPECT_EQ(g.nj, 6);
  const mg::StructuredOperator op = mg::structured_operator(a, g);
  EXPECT_EQ(op.rest_col.size(), std::size_t(2 * 6 * 5));
  EXPECT_EQ(op.irregular_rows.size(), std::size_t(2 * 6 * 5));
  EXPECT_TRUE(op.symmetric);
}

TEST(Mg, RefusesWhatIsNotAStructuredScalarSystem) {
  const BsrMatrix a = cavity(6);
  try {
    const StructuredIndex wrong{6, 6, 5};
    mg::infer_grid(a, &wrong);
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("grid 6 x 6 x 5 (nx, ny, nz) has 180 cells; the matrix has 216 rows"),
              std::string::npos)
        << e.what();
  }
  Stencil7Params p;
  p.nx = p.ny = p.nz = 4, p.block_size = 3;
  try {
    make_solver("cg+mg")->setup(generate_stencil7(p));
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("block size 1"), std::string::npos) << e.what();
  }
  // A grid that holds the rows but not the pattern: most entries outside its stencil.
  try {
    make_solver("cg+mg(nx=216,ny=1,nz=1)")->setup(a);
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("not a structured system"), std::string::npos) << e.what();
  }
}

TEST(Mg, RegistryRefusesBadLevels) {
  for (const char* spec : {"cg+mg(levels=1)", "cg+mg(levels=x)", "cg+mg(levels=31)"}) {
    try {
      make_solver(spec);
      FAIL() << spec;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("mg.levels: given"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("allowed auto or an integer in [2, 30]"), std::string::npos) << e.what();
    }
  }
  EXPECT_THROW(make_solver("cg+mg(coarse_size=1025)"), Error);
  EXPECT_THROW(make_solver("cg+mg(nx=4)")->setup(cavity(4)), Error);
  EXPECT_THROW(make_solver("cg+mg(smoother=sor)"), Error);
}

// Every coarse operator equals P^T A P formed by Eigen from the same P, on a
// stretched grid with the fixed cell, odd and even extents, with and without
// semi-coarsening.
TEST(Mg, CoarseOperatorsAreGalerkinProducts) {
  for (double semi : {0.0, 0.9}) {
    PoissonParams s;
    s.nx = 13, s.ny = 10, s.nz = 9, s.pin = true, s.cluster[0] = 1.5, s.cluster[2] = 1.0, s.length[1] = 0.4;
    const BsrMatrix a = generate_poisson(s);
    auto solver = make_solver("cg+mg(coarse_size=8,semicoarsening=" + std::to_string(semi) + ")");
    solver->setup(a);
    const mg::Hierarchy& h = hierarchy(*solver);
    ASSERT_GE(h.levels(), 3);
    for (int l = 0; l + 1 < h.levels(); ++l) {
      const Sparse p = prolongation(h, l);
      const Sparse want = Sparse(p.transpose()) * level_matrix(h, l) * p;
      const Sparse diff = level_matrix(h, l + 1) - want;
      EXPECT_LE(max_abs(diff), 1e-13 * max_abs(want)) << "level " << l + 1 << ", semicoarsening " << semi;
    }
  }
}

// On a tensor-product grid the weights are linear interpolation between the
// cell centres: w = (x_{i+1} - x_i) / (x_{i+1} - x_{i-1}).
TEST(Mg, InterpolationIsLinearBetweenCellCentres) {
  PoissonParams s;
  s.nx = 24, s.ny = 6, s.nz = 5, s.cluster[0] = 2.0;
  auto solver = make_solver("cg+mg(semicoarsening=0.0,coarse_size=100)");
  solver->setup(generate_poisson(s));
  const mg::Level& fine = hierarchy(*solver).level(0);
  ASSERT_TRUE(fine.coarsened[0]);
  const std::vector<double> h = clustered_widths(24, 1.0, 2.0);
  for (index_t i = 1; i + 1 < 24; i += 2) {
    const double d_lo = 0.5 * (h[std::size_t(i) - 1] + h[std::size_t(i)]);
    const double d_hi = 0.5 * (h[std::size_t(i)] + h[std::size_t(i) + 1]);
    EXPECT_NEAR(fine.weight[0][std::size_t(i)], d_hi / (d_lo + d_hi), 1e-14) << i;
  }
  EXPECT_EQ(fine.weight[0][23], 1.0);  // the last odd index has no upper parent
}

// The smoothers' scale L covers the spectrum of D^{-1} A on every level, by at
// most the margin: at least the largest eigenvalue (from Eigen's dense
// symmetric solver on D^{-1/2} A D^{-1/2}), at most 1.1 times it or
// Gershgorin's bound.
TEST(Mg, EigenvalueEstimateCoversTheSpectrum) {
  auto solver = make_solver("cg+mg(coarse_size=30)");
  solver->setup(cavity(10));
  const mg::Hierarchy& h = hierarchy(*solver);
  ASSERT_GE(h.levels(), 3);
  for (int l = 0; l < h.levels(); ++l) {
    const Sparse a = level_matrix(h, l);
    const Eigen::VectorXd d = Eigen::MatrixXd(a).diagonal().cwiseAbs().cwiseSqrt().cwiseInverse();
    const Eigen::MatrixXd s = d.asDiagonal() * Eigen::MatrixXd(a) * d.asDiagonal();
    const double largest = Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(s).eigenvalues().maxCoeff();
    const double estimate = h.level(l).largest_eigenvalue;
    EXPECT_GE(estimate, largest * (1.0 - 1e-12)) << "level " << l;
    EXPECT_LE(estimate, 1.1 * largest * (1.0 + 1e-12)) << "level " << l;
  }
}

// <M u, v> = <u, M v> and <M u, u> > 0 for every smoother and both cycles.
TEST(Mg, PreconditionerIsSymmetricPositiveDefinite) {
  const BsrMatrix a = cavity(15);
  const index_t n = a.rows();
  Vector u(Backend::host, std::size_t(n)), v(Backend::host, std::size_t(n)), mu(Backend::host, std::size_t(n)),
      mv(Backend::host, std::size_t(n));
  for (index_t i = 0; i < n; ++i) u[std::size_t(i)] = std::sin(0.3 * i), v[std::size_t(i)] = std::cos(0.71 * i + 0.2);
  for (const char* spec : {"mg", "mg(smoother=jacobi)", "mg(smoother=gauss_seidel)", "mg(smoother=fgbilu)",
                           "mg(cycle=w,degree=3)", "mg(smoother=gauss_seidel,sweeps=2,cycle=w)", "mg(levels=2)"}) {
    auto solver = make_solver(std::string("cg+") + spec);
    solver->setup(a);
    const Preconditioner& m = solver->preconditioner();
    m.apply(u, mu);
    m.apply(v, mv);
    double umv = 0.0, vmu = 0.0, umu = 0.0;
    for (index_t i = 0; i < n; ++i) {
      umv += u[std::size_t(i)] * mv[std::size_t(i)];
      vmu += v[std::size_t(i)] * mu[std::size_t(i)];
      umu += u[std::size_t(i)] * mu[std::size_t(i)];
    }
    EXPECT_NEAR(umv, vmu, 1e-11 * (std::abs(umv) + std::abs(vmu))) << spec;
    EXPECT_GT(umu, 0.0) << spec;
  }
}

TEST(Mg, SolvesToTheDirectSolution) {
  const BsrMatrix a = cavity(12);
  const std::vector<double> b = rhs(a, false, true);
  const std::vector<double> want = test::direct_solve(a, b);
  for (const char* spec : {"cg(rtol=1e-12,maxit=100)+mg", "cg(rtol=1e-12,maxit=100)+mg(smoother=gauss_seidel)",
                           "bicgstab(rtol=1e-12,maxit=100)+mg(smoother=async_ilu)"}) {
    std::vector<double> x;
    const SolveStats st = solve(spec, a, b, x);
    EXPECT_TRUE(st.converged()) << spec;
    EXPECT_LE(test::max_abs_diff(x, want), 1e-9 * test::max_abs(want)) << spec;
  }
}

// Nearly grid-independent from 16^3 to 48^3 (CG to 1e-9, the pinned cavity
// matrix): on a uniform grid with every smoother; on the cavity's tanh
// wall clustering (cells 2.4 times thinner at the walls, couplings up to 5.8
// times stronger in one direction) with the Chebyshev and ILU smoothers; the
// point smoothers' counts grow there (docs/multigrid.md).
TEST(Mg, IterationsDoNotGrowWithTheGrid) {
  struct Case {
    double beta;
    const char* smoother;
    int most;
  };
  for (const Case& c : {Case{0.0, "chebyshev", 11}, Case{0.0, "gauss_seidel", 14}, Case{0.0, "jacobi", 16},
                        Case{1.0, "chebyshev", 12}, Case{1.0, "fgbilu", 9}}) {
    int least = 1000, most = 0;
    for (index_t n : {16, 32, 48}) {
      const BsrMatrix a = cavity(n, true, c.beta);
      std::vector<double> x;
      const SolveStats st =
          solve(std::string("cg(rtol=1e-9,maxit=200)+mg(smoother=") + c.smoother + ")", a, rhs(a, false, true), x);
      ASSERT_TRUE(st.converged()) << c.smoother << " " << n;
      least = std::min(least, st.iterations);
      most = std::max(most, st.iterations);
    }
    EXPECT_LE(most, c.most) << c.smoother << ", beta " << c.beta;
    EXPECT_LE(most - least, 2) << c.smoother << ", beta " << c.beta;
  }
}

// The pure Neumann matrix is singular (constants): the coarsest solve projects
// them out, and CG converges on a consistent right-hand side to a solution
// that differs from the pinned problem's by a constant.
TEST(Mg, SolvesThePureNeumannProblem) {
  const BsrMatrix a = cavity(16, false);
  const std::vector<double> b = rhs(a, true, false);
  auto solver = make_solver("cg(rtol=1e-11,maxit=100)+mg");
  solver->setup(a);
  EXPECT_TRUE(hierarchy(*solver).coarse().singular());
  std::vector<double> x(b.size(), 0.0);
  const SolveStats st = solver->solve(b, x);
  ASSERT_TRUE(st.converged());
  EXPECT_LE(st.iterations, 12);
  EXPECT_LE(residual_norm(a, x, b), 1e-10 * test::max_abs(b) * std::sqrt(double(b.size())));
  // The pinned problem's solution, shifted to x's value in cell 0.
  BsrMatrix pinned = a;
  for (index_t k = pinned.row_ptr[0]; k < pinned.row_ptr[1]; ++k)
    pinned.values[std::size_t(k)] = pinned.col_idx[std::size_t(k)] == 0 ? 1.0 : 0.0;
  for (index_t r = 1; r < pinned.block_rows; ++r)
    for (index_t k = pinned.row_ptr[r]; k < pinned.row_ptr[r + 1]; ++k)
      if (pinned.col_idx[std::size_t(k)] == 0) pinned.values[std::size_t(k)] = 0.0;
  std::vector<double> bp = b;
  bp[0] = 0.0;
  std::vector<double> want = test::direct_solve(pinned, bp);
  for (double& v : want) v += x[0];
  EXPECT_LE(test::max_abs_diff(x, want), 1e-8 * test::max_abs(want));
}

// Thin cells in k couple k most strongly: the first levels coarsen k alone,
// and semi-coarsening takes fewer iterations than coarsening every direction.
TEST(Mg, SemiCoarsensAcrossThinCells) {
  PoissonParams s;
  s.nx = s.ny = s.nz = 32, s.length[2] = 0.25, s.pin = true;
  const BsrMatrix a = generate_poisson(s);
  const std::vector<double> b = rhs(a, false, true);
  auto solver = make_solver("cg(rtol=1e-9,maxit=200)+mg");
  solver->setup(a);
  const mg::Hierarchy& h = hierarchy(*solver);
  EXPECT_FALSE(h.level(0).coarsened[0]);
  EXPECT_FALSE(h.level(0).coarsened[1]);
  EXPECT_TRUE(h.level(0).coarsened[2]);
  EXPECT_EQ(h.level(1).grid.nk, 16);
  std::vector<double> x(b.size(), 0.0);
  const int semi = solver->solve(b, x).iterations;
  const int full = solve("cg(rtol=1e-9,maxit=200)+mg(semicoarsening=0)", a, b, x).iterations;
  EXPECT_LT(semi, full);
  EXPECT_LE(semi, 12);
}

// Periodic columns lie outside the stencil: in the Galerkin operators (lumped
// to the centre beyond the box, so the coarse rows still sum to zero) or in the
// finest smoother only; both converge, with the fine residual honest. The
// coarse levels are not periodic, so the counts are about twice the walled
// box's.
TEST(Mg, PeriodicColumnsInTheHierarchyOrTheSmoother) {
  PoissonParams s;
  s.nx = 24, s.ny = 16, s.nz = 8, s.periodic_i = true, s.cluster[1] = 1.0;
  const BsrMatrix a = generate_poisson(s);
  const std::vector<double> b = rhs(a, true, false);
  for (const char* rest : {"galerkin", "smoother"})
    for (const char* smoother : {"chebyshev", "gauss_seidel"}) {
      const std::string spec =
          std::string("cg(rtol=1e-10,maxit=300)+mg(remainder=") + rest + ",smoother=" + smoother + ")";
      auto solver = make_solver(spec);
      solver->setup(a);
      std::vector<double> x(b.size(), 0.0);
      const SolveStats st = solver->solve(b, x);
      EXPECT_TRUE(st.converged()) << spec;
      EXPECT_LE(residual_norm(a, x, b), 1e-9 * test::max_abs(b) * std::sqrt(double(b.size()))) << spec;
      if (std::string(rest) == "galerkin") {
        const Sparse c = level_matrix(hierarchy(*solver), 1);
        Eigen::VectorXd ones = Eigen::VectorXd::Ones(c.cols());
        EXPECT_LE((c * ones).cwiseAbs().maxCoeff(), 1e-12 * max_abs(c)) << spec;
        EXPECT_TRUE(hierarchy(*solver).coarse().singular()) << spec;
        EXPECT_LE(st.iterations, 25) << spec;
      }
    }
}

// A cavity matrix whose cells in a ball are rows like tb-ib's ghost cells:
// the identity and -1/4 on four cells two planes up (image-point weights
// reaching outside the stencil), so the matrix is nonsymmetric.
BsrMatrix with_image_rows(index_t n) {
  const BsrMatrix a = cavity(n, true, 0.0);
  const StructuredIndex g{n, n, n};
  const CsrMatrix c = bsr_to_csr(a);
  std::vector<Eigen::Triplet<double>> t;
  for (index_t r = 0; r < c.rows; ++r) {
    const index_t i = g.i_of(r), j = g.j_of(r), k = g.k_of(r);
    const double h = 0.5 * double(n - 1);
    const double d2 = (i - h) * (i - h) + (j - h) * (j - h) + (k - h + 1.5) * (k - h + 1.5);
    if (d2 < 4.0) {
      t.emplace_back(r, r, 1.0);
      for (index_t di : {0, 1})
        for (index_t dj : {0, 1}) t.emplace_back(r, g.natural(i + di, j + dj, k + 2), -0.25);
      continue;
    }
    for (index_t q = c.row_ptr[r]; q < c.row_ptr[r + 1]; ++q) t.emplace_back(r, c.col_idx[q], c.values[q]);
  }
  Eigen::SparseMatrix<double, Eigen::RowMajor> m(c.rows, c.cols);
  m.setFromTriplets(t.begin(), t.end());
  CsrMatrix mc;
  mc.rows = mc.cols = c.rows;
  mc.row_ptr.assign(m.outerIndexPtr(), m.outerIndexPtr() + c.rows + 1);
  mc.col_idx.assign(m.innerIndexPtr(), m.innerIndexPtr() + m.nonZeros());
  mc.values.assign(m.valuePtr(), m.valuePtr() + m.nonZeros());
  return csr_to_bsr(mc, 1);
}

// BiCGStab with either treatment of those rows reaches the direct solution.
TEST(Mg, RowsOutsideTheStencilLikeImmersedBoundaries) {
  const BsrMatrix a = with_image_rows(14);
  std::vector<double> b = rhs(a, false, true);
  const std::vector<double> want = test::direct_solve(a, b);
  for (const char* rest : {"galerkin", "smoother"})
    for (const char* smoother : {"chebyshev", "gauss_seidel"}) {
      const std::string spec =
          std::string("bicgstab(rtol=1e-11,maxit=200)+mg(remainder=") + rest + ",smoother=" + smoother + ")";
      std::vector<double> x;
      const SolveStats st = solve(spec, a, b, x);
      EXPECT_TRUE(st.converged()) << spec;
      EXPECT_LE(st.iterations, 25) << spec;
      EXPECT_LE(test::max_abs_diff(x, want), 1e-8 * test::max_abs(want)) << spec;
    }
}

// With remainder=galerkin the first coarse operator is P^T S A P, S scaling
// each image-point row to the largest diagonal of the regular cells next to it
// (here the cavity's 6h = 6/14 over the rows' 1, or 1 for the rows with no
// regular cell next to them); with remainder=smoother it is the product of
// the 7-point part alone.
TEST(Mg, ImageRowsAreScaledInTheGalerkinProduct) {
  const BsrMatrix a = with_image_rows(14);
  for (const char* rest : {"galerkin", "smoother"}) {
    auto solver = make_solver(std::string("bicgstab+mg(coarse_size=8,remainder=") + rest + ")");
    solver->setup(a);
    const mg::Hierarchy& h = hierarchy(*solver);
    const mg::StructuredOperator& f = h.finest();
    ASSERT_FALSE(f.symmetric);
    ASSERT_TRUE(f.scaled());
    ASSERT_FALSE(f.irregular_rows.empty());
    int scaled = 0;
    for (double s : f.row_scale) {
      EXPECT_TRUE(std::abs(s - 6.0 / 14.0) < 1e-12 || s == 1.0) << s;
      scaled += s != 1.0;
    }
    EXPECT_GE(scaled, 20);
    Sparse fine;
    if (std::string(rest) == "galerkin") {
      Eigen::VectorXd scale(a.rows());
      for (index_t c = 0; c < a.rows(); ++c) scale[c] = f.cell_scale[std::size_t(c)];
      fine = scale.asDiagonal() * level_matrix(h, 0);
    } else {
      fine = stencil_matrix(f.view(false), f.points);  // the 7-point part alone
    }
    const Sparse p = prolongation(h, 0);
    const Sparse want = Sparse(p.transpose()) * fine * p;
    // Products beyond the coarse box go to the diagonal: compare the row sums
    // and the off-diagonal entries.
    const Sparse got = level_matrix(h, 1);
    const Eigen::VectorXd ones = Eigen::VectorXd::Ones(got.cols());
    EXPECT_LE((got * ones - want * ones).cwiseAbs().maxCoeff(), 1e-12 * max_abs(want)) << rest;
    double worst = 0.0;
    for (int k = 0; k < got.outerSize(); ++k)
      for (Sparse::InnerIterator it(got, k); it; ++it)
        if (it.row() != it.col()) worst = std::max(worst, std::abs(it.value() - want.coeff(it.row(), it.col())));
    EXPECT_LE(worst, 1e-12 * max_abs(want)) << rest;
  }
}

// update() refreshes the numbers in place: A scaled by 3 gives x / 3 with the
// same iterations, and no level's storage moves.
TEST(Mg, UpdateRefreshesValuesInPlace) {
  BsrMatrix a = cavity(20);
  const std::vector<double> b = rhs(a, false, true);
  auto solver = make_solver("cg(rtol=1e-10,maxit=100)+mg");
  solver->setup(a);
  const mg::Hierarchy& h = hierarchy(*solver);
  const double* coarse = h.level(1).coef.data();
  const double* inverse = h.coarse().inverse().data();
  std::vector<double> x1(b.size(), 0.0), x3(b.size(), 0.0);
  const int it1 = solver->solve(b, x1).iterations;
  for (double& v : a.values) v *= 3.0;
  solver->update(a);
  EXPECT_EQ(h.level(1).coef.data(), coarse);
  EXPECT_EQ(h.coarse().inverse().data(), inverse);
  const int it3 = solver->solve(b, x3).iterations;
  EXPECT_EQ(it3, it1);
  for (std::size_t i = 0; i < b.size(); ++i) EXPECT_NEAR(3.0 * x3[i], x1[i], 1e-9 * test::max_abs(x1));
}

// A level limit leaves a coarsest level too large for its dense inverse: it is
// smoothed instead; 2D grids use the 5-point star and the 9-point box.
TEST(Mg, CoarsestBySweepsAnd2DGrids) {
  const BsrMatrix a = cavity(24);
  std::vector<double> x;
  auto solver = make_solver("cg(rtol=1e-9,maxit=300)+mg(levels=2)");
  solver->setup(a);
  EXPECT_FALSE(hierarchy(*solver).direct_coarse());
  x.assign(std::size_t(a.rows()), 0.0);
  EXPECT_TRUE(solver->solve(rhs(a, false, true), x).converged());

  PoissonParams s;
  s.nx = 129, s.ny = 96, s.nz = 1, s.pin = true, s.cluster[0] = s.cluster[1] = 1.0;
  const BsrMatrix a2 = generate_poisson(s);
  auto s2 = make_solver("cg(rtol=1e-9,maxit=100)+mg");
  s2->setup(a2);
  EXPECT_EQ(hierarchy(*s2).level(0).points.count, 5);
  EXPECT_EQ(hierarchy(*s2).level(1).points.count, 9);
  x.assign(std::size_t(a2.rows()), 0.0);
  const SolveStats st = s2->solve(rhs(a2, false, true), x);
  EXPECT_TRUE(st.converged());
  EXPECT_LE(st.iterations, 12);
}

}  // namespace
}  // namespace tb
