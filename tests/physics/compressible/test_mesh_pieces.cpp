// A rank's piece of the mesh (decompose_mesh, two ghost layers) gives
// its owned cells the residual and Jacobian rows of the whole mesh, so a rank
// can assemble its own cells alone: the least-squares gradients with boundary
// ghosts, the limiter, the second-order reconstruction, the viscous terms and
// the wall and far-field conditions all find every neighbour they read. The
// piece's cut faces take any boundary kind (far field here): only the last
// layer's rows, which no owned row reads, see them. Checked on one process for
// METIS parts of the shipped meshes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "compressible_fixtures.hpp"
#include "mesh/decomposition.hpp"
#include "mesh/mesh_graph.hpp"
#include "mesh/partition.hpp"

namespace tb::test {
namespace {

struct Case {
  std::string name;
  Mesh2D mesh;
  std::vector<BoundaryKind> kinds;
  EulerSettings settings;
};

std::vector<Case> cases() {
  std::vector<Case> out;
  {  // The cylinder case's discretisation, with the limiter, on a distorted mesh.
    Mesh2D m = distorted(cylinder_mesh(), 7);
    auto kinds = cylinder_boundaries(m);
    out.push_back(
        {"inviscid cylinder, limiter", std::move(m), std::move(kinds), cylinder_case_settings(FluxScheme::Roe, true)});
  }
  {  // Laminar NACA0012 (M 0.5, Re 5000): no-slip walls, ghosts in the gradients, HLLC residual, Roe Jacobian.
    Mesh2D m = read_mesh(std::string(TB_SOURCE_DIR) + "/inputs/meshes/naca0012_coarse.msh");
    auto kinds = naca0012_laminar_boundaries(m);
    EulerSettings s = naca0012_laminar_settings(1.0, FluxScheme::Hllc);
    s.jacobian_flux = FluxScheme::Roe;
    out.push_back({"laminar NACA0012", m, kinds, s});
    // tb-comp2d's default stencil: the triangles' gradients read the cells at their corners.
    s.gradient_stencil = GradientStencil::TriangleNodes;
    out.push_back({"laminar NACA0012, triangle_nodes", std::move(m), std::move(kinds), s});
  }
  return out;
}

TEST(MeshPieces, OwnedCellsHaveTheWholeMeshResidualAndJacobianRows) {
  if (!metis_available()) GTEST_SKIP() << "built without METIS";
  for (Case& c : cases()) {
    const index_t cells = c.mesh.num_cells();
    EulerDiscretisation whole(c.mesh, c.kinds, c.settings);
    const std::vector<State> w = perturbed_free_stream(c.settings, cells, 0.05, 11);
    std::vector<double> shift(static_cast<std::size_t>(cells));
    for (index_t i = 0; i < cells; ++i) shift[std::size_t(i)] = 1.0 + 0.25 * double(i % 5);
    std::vector<State> r_whole;
    BsrMatrix a_whole = whole.pattern().matrix;
    std::vector<double> radius_whole;
    for (int order : {1, 2}) {
      whole.residual(w, order, r_whole);
      const double scale = max_abs(r_whole);
      whole.assemble_jacobian(w, shift, a_whole);
      whole.spectral_radius_sums(w, radius_whole);
      const Graph reach = reconstruction_graph(c.mesh, c.settings.gradient_stencil);
      for (int parts : {2, 3, 7}) {
        const auto owner = partition_graph(cell_graph(c.mesh), parts);
        for (const MeshPiece& piece : decompose_mesh(c.mesh, owner, parts, 2, &reach)) {
          const auto& global = piece.cells.global;
          std::vector<BoundaryKind> kinds = c.kinds;
          kinds.push_back(BoundaryKind::FarField);  // the cut marker
          ASSERT_EQ(index_t(kinds.size()), piece.mesh.num_markers());
          EulerDiscretisation local(piece.mesh, kinds, c.settings);
          std::vector<State> wl(global.size());
          std::vector<double> shift_l(global.size());
          for (std::size_t k = 0; k < global.size(); ++k) {
            wl[k] = w[std::size_t(global[k])];
            shift_l[k] = shift[std::size_t(global[k])];
          }
          std::vector<State> rl;
          local.residual(wl, order, rl);
          BsrMatrix al = local.pattern().matrix;
          local.assemble_jacobian(wl, shift_l, al);
          std::vector<double> radius_l;
          local.spectral_radius_sums(wl, radius_l);
          const std::string where = c.name + ", order " + std::to_string(order) + ", " + std::to_string(parts) +
                                    " parts, rank " + std::to_string(piece.cells.rank);
          for (index_t i = 0; i < piece.cells.owned; ++i) {
            const index_t g = global[std::size_t(i)];
            for (int q = 0; q < 4; ++q)
              ASSERT_NEAR(rl[std::size_t(i)][q], r_whole[std::size_t(g)][q], 1e-12 * scale) << where << " cell " << g;
            ASSERT_NEAR(radius_l[std::size_t(i)], radius_whole[std::size_t(g)], 1e-12 * radius_whole[std::size_t(g)])
                << where;
            ASSERT_EQ(al.row_ptr[i + 1] - al.row_ptr[i], a_whole.row_ptr[g + 1] - a_whole.row_ptr[g]) << where;
            for (index_t k = al.row_ptr[i]; k < al.row_ptr[i + 1]; ++k) {
              const index_t kg = a_whole.find_block(g, global[std::size_t(al.col_idx[k])]);
              ASSERT_GE(kg, 0) << where;
              for (int e = 0; e < 16; ++e)
                ASSERT_NEAR(al.block(k)[e], a_whole.block(kg)[e], 1e-12 * (1.0 + std::abs(a_whole.block(kg)[e])))
                    << where << " block (" << g << ", " << global[std::size_t(al.col_idx[k])] << ")";
            }
          }
        }
      }
    }
  }
}

// With the piece's numbering (PieceNumbering) the Jacobian has the owned rows
// only, split as the distributed solvers keep them: the owned cells' columns
// in the piece's numbering, the ghosts' apart (named by their global numbers,
// ascending), each block bit for bit the block of the local-numbered piece
// Jacobian it stands for: what the distributed solver copied and split is now
// assembled in place.
TEST(MeshPieces, ThePieceNumberingAssemblesTheOwnedRowsSplitIntoOwnedAndGhostColumns) {
  if (!metis_available()) GTEST_SKIP() << "built without METIS";
  for (Case& c : cases()) {
    const index_t cells = c.mesh.num_cells();
    const std::vector<State> w = perturbed_free_stream(c.settings, cells, 0.05, 5);
    const auto owner = partition_graph(cell_graph(c.mesh), 3);
    for (const MeshPiece& piece : decompose_mesh(c.mesh, owner, 3)) {
      std::vector<BoundaryKind> kinds = c.kinds;
      kinds.push_back(BoundaryKind::FarField);
      const auto& global = piece.cells.global;
      const index_t owned = piece.cells.owned;
      const PieceNumbering numbering{owned, cells, global};
      EulerDiscretisation local(piece.mesh, kinds, c.settings), numbered(piece.mesh, kinds, c.settings, &numbering);
      std::vector<State> wl(global.size()), rl;
      std::vector<double> shift(global.size());
      for (std::size_t k = 0; k < wl.size(); ++k) wl[k] = w[std::size_t(global[k])], shift[k] = 1.0 + double(k % 3);
      local.residual(wl, 2, rl);  // the viscous Jacobian reads no gradient, but the order is the loop's
      BsrMatrix al = local.pattern().matrix, an = numbered.pattern().matrix, off = numbered.pattern().off_rank;
      const std::vector<index_t>& ghosts = numbered.pattern().ghost_columns;
      local.assemble_jacobian(wl, shift, al);
      numbered.assemble_jacobian(wl, shift, an, &off);
      const std::string where = c.name + ", rank " + std::to_string(piece.cells.rank);
      ASSERT_EQ(an.block_rows, owned) << where;
      ASSERT_EQ(an.block_cols, owned) << where;
      ASSERT_EQ(off.block_rows, owned) << where;
      ASSERT_EQ(std::size_t(off.block_cols), ghosts.size()) << where;
      EXPECT_NO_THROW(an.validate()) << where;  // sorted unique columns in range
      EXPECT_NO_THROW(off.validate()) << where;
      EXPECT_TRUE(std::is_sorted(ghosts.begin(), ghosts.end()) &&
                  std::adjacent_find(ghosts.begin(), ghosts.end()) == ghosts.end())
          << where;
      EXPECT_GT(off.nnz_blocks(), 0) << where;  // every piece of three borders another
      for (index_t i = 0; i < owned; ++i) {
        ASSERT_EQ(an.row_ptr[i + 1] - an.row_ptr[i] + off.row_ptr[i + 1] - off.row_ptr[i],
                  al.row_ptr[i + 1] - al.row_ptr[i])
            << where;
        for (index_t k = al.row_ptr[i]; k < al.row_ptr[i + 1]; ++k) {
          const index_t d = al.col_idx[k];
          const double* block = nullptr;
          if (d < owned) {
            const index_t kn = an.find_block(i, d);
            ASSERT_GE(kn, 0) << where << " row " << i;
            block = an.block(kn);
          } else {
            const auto g = std::lower_bound(ghosts.begin(), ghosts.end(), global[std::size_t(d)]);
            ASSERT_TRUE(g != ghosts.end() && *g == global[std::size_t(d)]) << where << " row " << i;
            const index_t kn = off.find_block(i, index_t(g - ghosts.begin()));
            ASSERT_GE(kn, 0) << where << " row " << i;
            block = off.block(kn);
          }
          for (int e = 0; e < 16; ++e) ASSERT_EQ(block[e], al.block(k)[e]) << where << " row " << i;
        }
      }
      EXPECT_EQ(std::size_t(an.nnz_blocks()) * 16, an.values.size()) << where;
      EXPECT_EQ(std::size_t(off.nnz_blocks()) * 16, off.values.size()) << where;
      // Without its off-rank matrix a piece that has ghost columns is refused.
      EXPECT_THROW(numbered.assemble_jacobian(wl, shift, an), Error) << where;
    }
  }
}

// One ghost layer is not enough for the second-order residual: some owned cell
// then differs, which shows that the test above can fail.
// The largest difference between the owned cells' second-order residual on the
// pieces (`layers` layers of `reach`, null: the face neighbours) and the whole
// mesh's, over its largest entry.
double worst_owned_residual(const Case& c, int layers, const Graph* reach) {
  EulerDiscretisation whole(c.mesh, c.kinds, c.settings);
  const std::vector<State> w = perturbed_free_stream(c.settings, c.mesh.num_cells(), 0.05, 11);
  std::vector<State> r_whole;
  whole.residual(w, 2, r_whole);
  const double scale = max_abs(r_whole);
  const auto owner = partition_graph(cell_graph(c.mesh), 3);
  double worst = 0.0;
  for (const MeshPiece& piece : decompose_mesh(c.mesh, owner, 3, layers, reach)) {
    std::vector<BoundaryKind> kinds = c.kinds;
    kinds.push_back(BoundaryKind::FarField);
    EulerDiscretisation local(piece.mesh, kinds, c.settings);
    std::vector<State> wl(piece.cells.global.size()), rl;
    for (std::size_t k = 0; k < wl.size(); ++k) wl[k] = w[std::size_t(piece.cells.global[k])];
    local.residual(wl, 2, rl);
    for (index_t i = 0; i < piece.cells.owned; ++i)
      for (int q = 0; q < 4; ++q)
        worst = std::max(worst,
                         std::abs(rl[std::size_t(i)][q] - r_whole[std::size_t(piece.cells.global[std::size_t(i)])][q]));
  }
  return worst / scale;
}

TEST(MeshPieces, OneGhostLayerIsNotEnoughForTheSecondOrderResidual) {
  if (!metis_available()) GTEST_SKIP() << "built without METIS";
  EXPECT_GT(worst_owned_residual(cases()[1], 1, nullptr), 1e-6);
}

// A triangle's node stencil reads cells that share only a corner with it:
// two layers of face neighbours miss some of them for the first layer's
// gradients; two layers of the reconstruction graph hold them.
TEST(MeshPieces, NodeStencilsNeedTheirOwnGhostLayers) {
  if (!metis_available()) GTEST_SKIP() << "built without METIS";
  const Case c = cases()[2];
  ASSERT_EQ(c.settings.gradient_stencil, GradientStencil::TriangleNodes);
  const Graph reach = reconstruction_graph(c.mesh, c.settings.gradient_stencil);
  EXPECT_GT(worst_owned_residual(c, 2, nullptr), 1e-6);
  EXPECT_LT(worst_owned_residual(c, 2, &reach), 1e-12);
}

}  // namespace
}  // namespace tb::test
