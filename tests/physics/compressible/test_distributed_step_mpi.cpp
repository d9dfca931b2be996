// Under mpiexec -n 2 and -n 3: each rank takes its piece of the
// laminar NACA0012 mesh (METIS parts, two ghost layers), receives its ghost
// states through the piece's halo plan (HaloExchange), assembles the residual
// and the backward-Euler Jacobian of its own cells, and the ranks solve one
// pseudo-time step together (FGMRES with restricted additive Schwarz, then
// block Jacobi, around BILU(0)), reading the rows where they were assembled.
// The ghosts, the rows and the update must equal the one-process assembly and
// solve of the whole mesh, and the update that of the solver's own split copy.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "../../solvers/dist/dist_runs.hpp"
#include "compressible_fixtures.hpp"
#include "mesh/decomposition.hpp"
#include "mesh/mesh_graph.hpp"
#include "mesh/partition.hpp"
#include "solvers/dist/halo_exchange.hpp"
#include "solvers/factory/distributed_solver.hpp"

namespace tb::test {
namespace {

constexpr int vars = 4;

struct Naca {
  Mesh2D mesh = read_mesh(std::string(TB_SOURCE_DIR) + "/inputs/meshes/naca0012_coarse.msh");
  std::vector<BoundaryKind> kinds = naca0012_laminar_boundaries(mesh);
  EulerSettings settings = naca0012_laminar_settings(1.0);
};

// diag(V_i / dtau_i): a CFL of 1000 on the spectral-radius sums (seed 001 Eq. 2).
std::vector<double> shifts(const EulerDiscretisation& d, const std::vector<State>& w) {
  std::vector<double> s;
  d.spectral_radius_sums(w, s);
  for (double& v : s) v /= 1000.0;
  return s;
}

// The step over the ranks with owner[cell] the rank that owns it.
void step_over_ranks(const Naca& c, const std::vector<index_t>& owner) {
  const auto world = dist::world();
  const int me = world->rank(), ranks = world->size();
  const index_t cells = c.mesh.num_cells();
  const std::vector<State> w = perturbed_free_stream(c.settings, cells, 0.05, 3);

  // The whole mesh on every rank: the reference.
  EulerDiscretisation whole(c.mesh, c.kinds, c.settings);
  std::vector<State> r_whole;
  whole.residual(w, 2, r_whole);
  BsrMatrix a_whole = whole.pattern().matrix;
  whole.assemble_jacobian(w, shifts(whole, w), a_whole);
  std::vector<double> b_whole(std::size_t(cells) * vars), dw_whole(b_whole.size(), 0.0);
  for (index_t i = 0; i < cells; ++i)
    for (int q = 0; q < vars; ++q) b_whole[std::size_t(i) * vars + q] = -r_whole[std::size_t(i)][q];
  auto serial = make_solver("fgmres(restart=30,rtol=1e-10,maxit=1000)+bilu0");
  serial->setup(a_whole);
  ASSERT_TRUE(serial->solve(b_whole, dw_whole).converged());

  // This rank's piece; the global numbering of the distributed system is part by part.
  const MeshPiece piece = std::move(decompose_mesh(c.mesh, owner, ranks)[std::size_t(me)]);
  const Permutation order = partition_ordering(owner, ranks);
  std::vector<index_t> counts(std::size_t(ranks), 0);
  for (index_t p : owner) ++counts[std::size_t(p)];
  const auto rows = tb::dist::RowDistribution::from_counts(counts);
  const index_t owned = piece.cells.owned;
  ASSERT_EQ(owned, rows.owned(me));

  // Owned states from the rank's own data, ghosts only from the exchange.
  std::vector<State> wl(piece.cells.global.size());
  for (std::size_t k = 0; k < wl.size(); ++k)
    wl[k] = k < std::size_t(owned) ? w[std::size_t(piece.cells.global[k])] : State{NAN, NAN, NAN, NAN};
  tb::dist::HaloExchange halo(world->comm(), piece.cells.halo, vars);
  halo.exchange(wl.empty() ? nullptr : wl.front().data());  // a rank that owns nothing may have no cell at all
  for (std::size_t k = 0; k < wl.size(); ++k) ASSERT_EQ(wl[k], w[std::size_t(piece.cells.global[k])]) << "local " << k;

  std::vector<BoundaryKind> kinds = c.kinds;
  kinds.push_back(BoundaryKind::FarField);
  EulerDiscretisation local(piece.mesh, kinds, c.settings);
  std::vector<State> rl;
  local.residual(wl, 2, rl);
  BsrMatrix al = local.pattern().matrix;
  local.assemble_jacobian(wl, shifts(local, wl), al);

  // This rank's block rows in the distributed numbering, split into the owned
  // cells' columns and the ghosts' (PieceNumbering), as tb-comp2d assembles
  // them and the distributed solver reads them, with no copy.
  std::vector<index_t> numbers(piece.cells.global.size());
  for (std::size_t k = 0; k < numbers.size(); ++k) numbers[k] = order.old_to_new[std::size_t(piece.cells.global[k])];
  for (index_t k = 0; k < owned; ++k) ASSERT_EQ(numbers[std::size_t(k)], rows.first(me) + k);
  const PieceNumbering numbering{owned, cells, numbers};
  EulerDiscretisation numbered(piece.mesh, kinds, c.settings, &numbering);
  BsrMatrix mine = numbered.pattern().matrix, off = numbered.pattern().off_rank;
  const tb::dist::OffRankRows off_rows{&off, numbered.pattern().ghost_columns};
  numbered.assemble_jacobian(wl, shifts(local, wl), mine, &off);
  ASSERT_EQ(mine.block_rows, owned);
  ASSERT_EQ(mine.nnz_blocks() + off.nnz_blocks(), al.row_ptr[owned]);
  // The same rows in global columns: what the solver splits into a copy of its own.
  BsrMatrix joined;
  tb::dist::join_rank_rows(mine, off_rows, rows.first(me), cells, joined);
  std::vector<double> b(std::size_t(owned) * vars);
  for (index_t i = 0; i < owned; ++i)
    for (int q = 0; q < vars; ++q) b[std::size_t(i) * vars + q] = -rl[std::size_t(i)][q];

  double scale = 0.0;
  for (double v : dw_whole) scale = std::max(scale, std::abs(v));
  for (const char* spec : {"fgmres(restart=30,rtol=1e-10,maxit=1000)+asm(overlap=1,local=bilu0)",
                           "fgmres(restart=30,rtol=1e-10,maxit=1000)+bjacobi(local=bilu0)"}) {
    auto in_place = make_distributed_solver(spec, world);
    in_place->setup(mine, off_rows, rows);
    std::vector<double> dw(b.size(), 0.0);
    const SolveStats st = in_place->solve(b, dw);
    ASSERT_TRUE(st.converged()) << spec << ": " << st.line();
    auto copied = make_distributed_solver(spec, world);
    copied->setup(joined, rows);
    std::vector<double> dw_copied(b.size(), 0.0);
    ASSERT_TRUE(copied->solve(b, dw_copied).converged()) << spec;
    // The split rows read in place and the solver's own split copy: the same arithmetic.
    for (std::size_t k = 0; k < dw.size(); ++k) ASSERT_EQ(dw[k], dw_copied[k]) << spec << " entry " << k;
    for (index_t i = 0; i < owned; ++i)
      for (int q = 0; q < vars; ++q) {
        const std::size_t g = std::size_t(piece.cells.global[std::size_t(i)]);
        ASSERT_NEAR(b[std::size_t(i) * vars + q], b_whole[g * vars + q],
                    1e-12 * (1.0 + std::abs(b_whole[g * vars + q])));
        // Both solves stop at 1e-10 of the initial residual; the updates agree to what that allows.
        EXPECT_NEAR(dw[std::size_t(i) * vars + q], dw_whole[g * vars + q], 1e-7 * scale) << spec << ", cell " << g;
      }
  }
}

TEST(DistributedStep, RanksAssembleTheirCellsAndSolveTheWholeMeshStep) {
  if (!metis_available()) GTEST_SKIP() << "built without METIS";
  Naca c;
  step_over_ranks(c, partition_graph(cell_graph(c.mesh), dist::world()->size()));
}

// The last rank owns no cell (METIS parts for one rank fewer): its piece is
// empty, it takes part in every exchange, reduction and solve with nothing,
// and the others' step is still the whole mesh's.
TEST(DistributedStep, ARankThatOwnsNoCellTakesPartWithNothing) {
  if (!metis_available()) GTEST_SKIP() << "built without METIS";
  Naca c;
  const int ranks = dist::world()->size();
  const std::vector<index_t> owner = ranks > 2 ? partition_graph(cell_graph(c.mesh), ranks - 1)
                                               : std::vector<index_t>(std::size_t(c.mesh.num_cells()), 0);
  ASSERT_EQ(std::count(owner.begin(), owner.end(), index_t(ranks - 1)), 0);
  step_over_ranks(c, owner);
}

}  // namespace
}  // namespace tb::test

int main(int argc, char** argv) { return tb::test::dist::run_mpi_tests(argc, argv); }
