// The finite-volume residual and its Jacobian on the shipped cylinder mesh:
// free-stream preservation to round-off on a distorted mesh (orders 1 and 2,
// limited), conservation (interior faces cancel), exact least-squares gradients
// of linear fields, the limiter's bounds, the fixed block pattern, and the
// assembled first-order Jacobian against central differences of the residual
// for an interior, a far-field and a wall cell.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "compressible_fixtures.hpp"
#include "mesh/mesh_graph.hpp"

namespace tb::test {
namespace {

TEST(EulerDiscretisation, PreservesTheFreeStreamOnADistortedMesh) {
  const Mesh2D mesh = distorted(cylinder_mesh(), 7);
  for (FluxScheme flux : {FluxScheme::Roe, FluxScheme::Hllc, FluxScheme::Rusanov})
    for (int order : {1, 2}) {
      const EulerSettings s = settings_at(0.38, 0.1, flux, order == 2);
      EulerDiscretisation disc(mesh, cylinder_boundaries(mesh, true), s);
      std::vector<State> r;
      disc.residual(std::vector<State>(std::size_t(mesh.num_cells()), s.free_stream), order, r);
      // Fluxes are O(1) and face lengths up to ~5: round-off is ~1e-15 per face.
      EXPECT_LT(max_abs(r), 1e-13) << flux_scheme_name(flux) << ", order " << order;
    }
}

TEST(EulerDiscretisation, InteriorFacesCancelInTheSumOverABox) {
  const Mesh2D mesh = distorted(cylinder_mesh(), 3);
  const EulerSettings s = settings_at(0.5, 0.2, FluxScheme::Roe);
  EulerDiscretisation disc(mesh, cylinder_boundaries(mesh), s);
  const std::vector<State> w = perturbed_free_stream(s, mesh.num_cells(), 0.1, 11);
  std::vector<State> r;
  disc.residual(w, 1, r);
  // The box [1, 4] x [-2, 2] off the cylinder: sum of r over its cells = net flux out of it.
  const auto inside = [&](index_t c) {
    const Vec2 x = disc.geometry().cell_centroid[std::size_t(c)];
    return c >= 0 && x.x > 1.0 && x.x < 4.0 && std::abs(x.y) < 2.0;
  };
  State sum{}, expected{};
  int cells = 0;
  for (index_t c = 0; c < mesh.num_cells(); ++c)
    if (inside(c)) {
      ++cells;
      for (int k = 0; k < num_vars; ++k) sum[k] += r[std::size_t(c)][k];
    }
  for (index_t f = 0; f < mesh.num_interior_faces; ++f) {
    const Face& face = mesh.faces[std::size_t(f)];
    if (inside(face.left) == inside(face.right)) continue;
    const Vec2 n = disc.geometry().face_normal[std::size_t(f)];
    const State flux = roe_flux(s.gas, w[std::size_t(face.left)], w[std::size_t(face.right)], n.x, n.y, s.roe);
    const double sign = inside(face.left) ? 1.0 : -1.0;
    for (int k = 0; k < num_vars; ++k) expected[k] += sign * flux[k] * disc.geometry().face_length[std::size_t(f)];
  }
  EXPECT_GT(cells, 50);
  for (int k = 0; k < num_vars; ++k) EXPECT_NEAR(sum[k], expected[k], 1e-12) << "equation " << k;
}

TEST(EulerDiscretisation, SecondOrderResidualSumsToTheBoundaryFluxes) {
  const Mesh2D mesh = distorted(cylinder_mesh(), 5);
  const EulerSettings s = settings_at(0.38, 0.0, FluxScheme::Roe, true);
  EulerDiscretisation disc(mesh, cylinder_boundaries(mesh), s);
  const std::vector<State> w = perturbed_free_stream(s, mesh.num_cells(), 0.1, 13);
  std::vector<State> r;
  disc.residual(w, 2, r);
  State sum{}, boundary{};
  for (const State& x : r)
    for (int k = 0; k < num_vars; ++k) sum[k] += x[k];
  for (index_t f = mesh.num_interior_faces; f < mesh.num_faces(); ++f) {
    const Vec2 n = disc.geometry().face_normal[std::size_t(f)];
    const State flux = boundary_flux(disc.boundary_kind(f), s.flux, s.gas, disc.face_state(w, 2, f), s.free_stream, n.x,
                                     n.y, s.wall_flux, s.roe);
    for (int k = 0; k < num_vars; ++k) boundary[k] += flux[k] * disc.geometry().face_length[std::size_t(f)];
  }
  for (int k = 0; k < num_vars; ++k) EXPECT_NEAR(sum[k], boundary[k], 1e-11) << "equation " << k;
}

// Every stencil, on quadrilaterals and on a hybrid mesh.
TEST(LeastSquaresGradients, AreExactForLinearFields) {
  for (const bool hybrid : {false, true})
    for (const GradientStencil stencil :
         {GradientStencil::Faces, GradientStencil::Nodes, GradientStencil::TriangleNodes}) {
      const Mesh2D quads = distorted(cylinder_mesh(), 9);
      const Mesh2D mesh = hybrid ? half_triangulated(quads) : quads;
      const MeshGeometry g = compute_geometry(mesh);
      LeastSquaresGradients ls(mesh, g, {}, stencil);
      std::vector<State> q(std::size_t(mesh.num_cells()));
      for (std::size_t c = 0; c < q.size(); ++c) {
        const Vec2 x = g.cell_centroid[c];
        q[c] = {1.0 + 0.1 * x.x - 0.2 * x.y, -0.3 * x.x, 2.0 * x.y, 0.5};
      }
      const std::vector<Gradient> grad = ls_gradients(mesh, g, ls, q);
      const Gradient exact = {0.1, -0.2, -0.3, 0.0, 0.0, 2.0, 0.0, 0.0};
      for (const Gradient& gc : grad)
        for (int k = 0; k < 2 * num_vars; ++k)
          ASSERT_NEAR(gc[k], exact[k], 1e-11) << "stencil " << int(stencil) << ", hybrid " << hybrid;
    }
}

// The default reconstruction on a stretched hybrid mesh: quadrilateral layers
// with wall cells of aspect ratio up to 1e4 on a curved wall, triangles beyond
// (stretched_hybrid_ogrid), every stencil with the boundary ghosts the
// discretisation places (the centroid mirrored in a wall face, the midpoint of a
// far-field face): a linear field's gradient is exact in every cell, and so is
// its reconstruction at every face midpoint.
TEST(LeastSquaresGradients, AreExactForLinearFieldsOnAStretchedHybridMesh) {
  for (const double first : {5e-4, 5e-6}) {
    const Mesh2D mesh = stretched_hybrid_ogrid(64, 30, 12, first, 1.3);
    const MeshGeometry g = compute_geometry(mesh);
    double aspect = 0.0;
    for (index_t c = 0; c < mesh.num_cells(); ++c) {
      const index_t* v = mesh.cell_begin(c);
      const auto len = [&](int a, int b) {
        const Vec2 p = mesh.nodes[std::size_t(v[a])], q = mesh.nodes[std::size_t(v[b])];
        return std::hypot(p.x - q.x, p.y - q.y);
      };
      if (mesh.cell_size(c) == 4) aspect = std::max(aspect, len(0, 1) / len(1, 2));
    }
    const auto field = [](const Vec2& x) { return State{1.0 + 0.1 * x.x - 0.2 * x.y, -0.3 * x.x, 2.0 * x.y, 0.5}; };
    std::vector<Vec2> offsets;
    std::vector<State> ghost;
    for (index_t f = mesh.num_interior_faces; f < mesh.num_faces(); ++f) {
      const Vec2 x = g.cell_centroid[std::size_t(mesh.faces[std::size_t(f)].left)];
      const Vec2 m = g.face_midpoint[std::size_t(f)], n = g.face_normal[std::size_t(f)];
      const double d = (m.x - x.x) * n.x + (m.y - x.y) * n.y;
      offsets.push_back(mesh.faces[std::size_t(f)].marker == 0 ? Vec2{2.0 * d * n.x, 2.0 * d * n.y}
                                                               : Vec2{m.x - x.x, m.y - x.y});
      ghost.push_back(field({x.x + offsets.back().x, x.y + offsets.back().y}));
    }
    std::vector<State> q(std::size_t(mesh.num_cells()));
    for (std::size_t c = 0; c < q.size(); ++c) q[c] = field(g.cell_centroid[c]);
    const Gradient exact = {0.1, -0.2, -0.3, 0.0, 0.0, 2.0, 0.0, 0.0};
    for (const GradientStencil stencil :
         {GradientStencil::Faces, GradientStencil::Nodes, GradientStencil::TriangleNodes}) {
      LeastSquaresGradients ls(mesh, g, offsets, stencil);
      const std::vector<Gradient> grad = ls_gradients(mesh, g, ls, q, ghost);
      double worst = 0.0, worst_face = 0.0;
      for (const Gradient& gc : grad)
        for (int k = 0; k < 2 * num_vars; ++k) worst = std::max(worst, std::abs(gc[k] - exact[k]));
      for (index_t f = 0; f < mesh.num_faces(); ++f) {
        const std::size_t c = std::size_t(mesh.faces[std::size_t(f)].left);
        const Vec2 x = g.cell_centroid[c], m = g.face_midpoint[std::size_t(f)];
        const State at = field(m);
        for (int k = 0; k < num_vars; ++k) {
          const double rec = q[c][k] + grad[c][2 * k] * (m.x - x.x) + grad[c][2 * k + 1] * (m.y - x.y);
          worst_face = std::max(worst_face, std::abs(rec - at[k]));
        }
      }
      EXPECT_LT(worst, 1e-9) << "stencil " << int(stencil) << ", first height " << first << ", aspect " << aspect;
      EXPECT_LT(worst_face, 1e-12) << "stencil " << int(stencil) << ", first height " << first;
    }
    EXPECT_GT(aspect, first < 1e-5 ? 9e3 : 90.0);
  }
}

// Which cells each stencil reads: a change in one cell moves the gradients of
// exactly the cells whose stencil holds it. On the hybrid mesh a triangle reads
// the cells at its corners under Nodes and TriangleNodes, a quadrilateral only
// under Nodes; Faces reads face neighbours everywhere.
TEST(LeastSquaresGradients, EachStencilReadsTheCellsItNames) {
  const Mesh2D mesh = half_triangulated(distorted(cylinder_mesh(), 9));
  const MeshGeometry g = compute_geometry(mesh);
  const Graph faces = cell_graph(mesh), nodes = cell_graph_through_nodes(mesh);
  std::vector<State> q(std::size_t(mesh.num_cells()), State{1.0, 0.1, 0.0, 0.7});
  const index_t poked = mesh.num_cells() / 2;
  std::vector<State> q2 = q;
  q2[std::size_t(poked)][0] += 1.0;
  int corner_only_triangles = 0, corner_only_quads = 0;
  for (const GradientStencil stencil :
       {GradientStencil::Faces, GradientStencil::Nodes, GradientStencil::TriangleNodes}) {
    LeastSquaresGradients ls(mesh, g, {}, stencil);
    const std::vector<Gradient> before = ls_gradients(mesh, g, ls, q), after = ls_gradients(mesh, g, ls, q2);
    for (index_t c = 0; c < mesh.num_cells(); ++c) {
      const bool by_face = std::binary_search(faces.begin(c), faces.end(c), poked);
      const bool by_node = std::binary_search(nodes.begin(c), nodes.end(c), poked);
      const bool triangle = mesh.cell_type(c) == CellType::Triangle;
      const bool reads = stencil == GradientStencil::Faces   ? by_face
                         : stencil == GradientStencil::Nodes ? by_node
                                                             : (triangle ? by_node : by_face);
      const bool moved = std::abs(after[std::size_t(c)][0] - before[std::size_t(c)][0]) > 1e-12 ||
                         std::abs(after[std::size_t(c)][1] - before[std::size_t(c)][1]) > 1e-12;
      if (c != poked) {
        EXPECT_EQ(moved, reads) << "stencil " << int(stencil) << ", cell " << c;
      }
      if (stencil == GradientStencil::Nodes && by_node && !by_face) {
        ++(triangle ? corner_only_triangles : corner_only_quads);
      }
    }
  }
  EXPECT_GT(corner_only_triangles, 0);
  EXPECT_GT(corner_only_quads, 0);
}

// tb-comp2d's default changes nothing on a mesh without triangles, to the bit.
TEST(LeastSquaresGradients, TriangleNodesOnQuadrilateralsIsFacesBitForBit) {
  const Mesh2D mesh = distorted(cylinder_mesh(), 9);
  const MeshGeometry g = compute_geometry(mesh);
  const EulerSettings s = settings_at(0.38, 0.05);
  const std::vector<State> q = perturbed_free_stream(s, mesh.num_cells(), 0.05, 3);
  const LeastSquaresGradients faces(mesh, g, {}, GradientStencil::Faces),
      mixed(mesh, g, {}, GradientStencil::TriangleNodes);
  EXPECT_EQ(ls_gradients(mesh, g, faces, q), ls_gradients(mesh, g, mixed, q));
}

// The reach of the reconstruction: symmetric, the face graph for Faces, the
// node graph for Nodes, and between them for TriangleNodes.
TEST(LeastSquaresGradients, ReconstructionGraphJoinsEachCellToItsStencil) {
  const Mesh2D mesh = half_triangulated(distorted(cylinder_mesh(), 9));
  const Graph faces = cell_graph(mesh), nodes = cell_graph_through_nodes(mesh);
  EXPECT_EQ(reconstruction_graph(mesh, GradientStencil::Faces).col_idx, faces.col_idx);
  EXPECT_EQ(reconstruction_graph(mesh, GradientStencil::Nodes).col_idx, nodes.col_idx);
  const Graph mixed = reconstruction_graph(mesh, GradientStencil::TriangleNodes);
  EXPECT_GT(mixed.num_edges(), faces.num_edges());
  EXPECT_LT(mixed.num_edges(), nodes.num_edges());
  for (index_t c = 0; c < mesh.num_cells(); ++c) {
    for (const index_t* j = faces.begin(c); j != faces.end(c); ++j)
      EXPECT_TRUE(std::binary_search(mixed.begin(c), mixed.end(c), *j));
    for (const index_t* j = mixed.begin(c); j != mixed.end(c); ++j) {
      EXPECT_TRUE(std::binary_search(mixed.begin(*j), mixed.end(*j), c)) << "not symmetric";
      const bool a_triangle = mesh.cell_type(c) == CellType::Triangle || mesh.cell_type(*j) == CellType::Triangle;
      EXPECT_TRUE(std::binary_search(faces.begin(c), faces.end(c), *j) || a_triangle) << c << " " << *j;
    }
  }
  EXPECT_EQ(parse_gradient_stencil("triangle_nodes"), GradientStencil::TriangleNodes);
  EXPECT_THROW(parse_gradient_stencil("edges"), Error);
}

// With a ghost per boundary face holding the field's value at the ghost's place,
// the gradients stay exact for linear fields, boundary cells included; with the
// ghosts off the boundary side, the boundary cells' gradients change and the
// interior cells' do not.
TEST(LeastSquaresGradients, WithBoundaryGhostsAreExactForLinearFieldsAndChangeOnlyBoundaryCells) {
  const Mesh2D mesh = distorted(cylinder_mesh(), 9);
  const MeshGeometry g = compute_geometry(mesh);
  const auto field = [](const Vec2& x) { return State{1.0 + 0.1 * x.x - 0.2 * x.y, -0.3 * x.x, 2.0 * x.y, 0.5}; };
  std::vector<Vec2> offsets;
  std::vector<State> ghost, far_ghost;
  std::vector<bool> boundary_cell(std::size_t(mesh.num_cells()), false);
  for (index_t f = mesh.num_interior_faces; f < mesh.num_faces(); ++f) {
    const std::size_t c = std::size_t(mesh.faces[std::size_t(f)].left);
    const Vec2 x = g.cell_centroid[c], m = g.face_midpoint[std::size_t(f)];
    // Alternately at the midpoint and at the centroid mirrored through it.
    const double scale = f % 2 == 0 ? 1.0 : 2.0;
    offsets.push_back({scale * (m.x - x.x), scale * (m.y - x.y)});
    ghost.push_back(field({x.x + offsets.back().x, x.y + offsets.back().y}));
    far_ghost.push_back({3.0, 1.0, -1.0, 0.5});
    boundary_cell[c] = true;
  }
  LeastSquaresGradients with(mesh, g, offsets), without(mesh, g);
  std::vector<State> q(std::size_t(mesh.num_cells()));
  for (std::size_t c = 0; c < q.size(); ++c) q[c] = field(g.cell_centroid[c]);
  const std::vector<Gradient> grad = ls_gradients(mesh, g, with, q, ghost);
  const Gradient exact = {0.1, -0.2, -0.3, 0.0, 0.0, 2.0, 0.0, 0.0};
  for (const Gradient& gc : grad)
    for (int k = 0; k < 2 * num_vars; ++k) ASSERT_NEAR(gc[k], exact[k], 1e-11);
  const std::vector<Gradient> other = ls_gradients(mesh, g, with, q, far_ghost),
                              plain = ls_gradients(mesh, g, without, q);
  int changed = 0;
  for (std::size_t c = 0; c < q.size(); ++c) {
    const bool differs = std::abs(other[c][0] - plain[c][0]) > 1e-6;
    EXPECT_EQ(differs, bool(boundary_cell[c])) << "cell " << c;
    changed += differs;
  }
  EXPECT_GT(changed, 100);
  EXPECT_THROW(LeastSquaresGradients(mesh, g, std::vector<Vec2>(3)), Error);  // ghost offsets miscounted
}

TEST(Limiter, KeepsFaceValuesWithinTheNeighbourRangeWithoutMargin) {
  const Mesh2D mesh = distorted(cylinder_mesh(), 4);
  const MeshGeometry g = compute_geometry(mesh);
  LeastSquaresGradients ls(mesh, g);
  std::vector<State> q(std::size_t(mesh.num_cells()));
  for (std::size_t c = 0; c < q.size(); ++c) {
    const Vec2 x = g.cell_centroid[c];
    q[c] = {x.x > 2.0 ? 1.0 : 0.2, std::sin(x.y), x.x * x.y, 1.0};
  }
  const std::vector<Gradient> grad = ls_gradients(mesh, g, ls, q);
  // K = 0: no smoothing margin.
  const KernelMesh km = build_kernel_mesh(mesh, g, std::vector<double>(std::size_t(mesh.num_faces()), 1.0),
                                          cylinder_boundaries(mesh), &ls, 0.0);
  std::vector<State> phi(q.size());
  compressible::kernels::ref::limiter_phi(km.view(), q.front().data(), grad.front().data(), phi.front().data());
  std::vector<State> lo(q), hi(q);
  for (index_t f = 0; f < mesh.num_interior_faces; ++f) {
    const Face& face = mesh.faces[std::size_t(f)];
    for (int v = 0; v < num_vars; ++v)
      for (auto [a, b] : {std::pair{face.left, face.right}, std::pair{face.right, face.left}}) {
        lo[std::size_t(a)][v] = std::min(lo[std::size_t(a)][v], q[std::size_t(b)][v]);
        hi[std::size_t(a)][v] = std::max(hi[std::size_t(a)][v], q[std::size_t(b)][v]);
      }
  }
  int limited = 0;
  for (index_t f = 0; f < mesh.num_faces(); ++f) {
    const Face& face = mesh.faces[std::size_t(f)];
    const Vec2 m = g.face_midpoint[std::size_t(f)], x = g.cell_centroid[std::size_t(face.left)];
    const std::size_t c = std::size_t(face.left);
    for (int v = 0; v < num_vars; ++v) {
      ASSERT_GE(phi[c][v], 0.0);
      ASSERT_LE(phi[c][v], 1.0);
      limited += phi[c][v] < 1.0;
      const double value = q[c][v] + phi[c][v] * (grad[c][2 * v] * (m.x - x.x) + grad[c][2 * v + 1] * (m.y - x.y));
      EXPECT_GE(value, lo[c][v] - 1e-12);
      EXPECT_LE(value, hi[c][v] + 1e-12);
    }
  }
  EXPECT_GT(limited, 100);  // the jump at x = 2 and the curved fields are limited
}

TEST(JacobianPattern, HasTheDiagonalAndOneSortedBlockPerNeighbour) {
  const Mesh2D mesh = cylinder_mesh();
  const JacobianPattern p = build_jacobian_pattern(mesh);
  EXPECT_TRUE(p.matrix.values.empty());  // symbolic: the values are the pseudo-time solver's
  BsrMatrix sized = p.matrix;
  sized.values.assign(sized.col_idx.size() * 16, 0.0);
  EXPECT_NO_THROW(sized.validate());
  EXPECT_EQ(p.matrix.block_size, 4);
  std::vector<index_t> neighbours(std::size_t(mesh.num_cells()), 0);
  for (index_t f = 0; f < mesh.num_interior_faces; ++f) {
    ++neighbours[std::size_t(mesh.faces[std::size_t(f)].left)];
    ++neighbours[std::size_t(mesh.faces[std::size_t(f)].right)];
  }
  for (index_t c = 0; c < mesh.num_cells(); ++c)
    EXPECT_EQ(p.matrix.row_ptr[std::size_t(c) + 1] - p.matrix.row_ptr[std::size_t(c)], 1 + neighbours[std::size_t(c)]);
  EXPECT_EQ(p.matrix.nnz_blocks(), mesh.num_cells() + 2 * mesh.num_interior_faces);
}

// The largest difference between the assembled Jacobian and central differences
// of the first-order residual over the columns of a wall cell, a far-field cell
// and an interior cell (relative to 1 + |fd|); every row is compared, so a block
// outside the pattern would show.
// The Jacobian assembled with `jacobian`'s settings against central differences
// of the first-order residual with `residual`'s.
double jacobian_error_of(const EulerSettings& residual, const EulerSettings& jacobian) {
  const Mesh2D mesh = distorted(cylinder_mesh(), 21);
  EulerDiscretisation disc(mesh, cylinder_boundaries(mesh), residual);
  const std::vector<State> w = perturbed_free_stream(residual, mesh.num_cells(), 0.05, 17);
  const std::vector<double> shift(w.size(), 0.0);
  BsrMatrix a = disc.pattern().matrix;
  EulerDiscretisation(mesh, cylinder_boundaries(mesh), jacobian).assemble_jacobian(w, shift, a);
  EXPECT_TRUE(a.same_pattern(disc.pattern().matrix));

  // A cell on the wall, one on the far field, one in between.
  index_t wall = -1, far = -1;
  for (index_t f = mesh.num_interior_faces; f < mesh.num_faces(); ++f)
    (disc.boundary_kind(f) == BoundaryKind::SlipWall ? wall : far) = mesh.faces[std::size_t(f)].left;
  const index_t interior = mesh.faces[std::size_t(mesh.num_interior_faces / 2)].left;
  EXPECT_GE(wall, 0);
  EXPECT_GE(far, 0);
  double worst = 0.0;
  std::vector<State> rp, rm, wp = w;
  for (index_t j : {interior, far, wall}) {
    for (int m = 0; m < num_vars; ++m) {
      const double h = 1e-6 * (1.0 + std::abs(w[std::size_t(j)][m]));
      wp[std::size_t(j)][m] = w[std::size_t(j)][m] + h;
      disc.residual(wp, 1, rp);
      wp[std::size_t(j)][m] = w[std::size_t(j)][m] - h;
      disc.residual(wp, 1, rm);
      wp[std::size_t(j)][m] = w[std::size_t(j)][m];
      // Column (j, m) of the Jacobian is non-zero in j's own row and its neighbours' rows only.
      for (index_t i = 0; i < mesh.num_cells(); ++i) {
        const index_t pos = a.find_block(i, j);
        for (int k = 0; k < num_vars; ++k) {
          const double fd = (rp[std::size_t(i)][k] - rm[std::size_t(i)][k]) / (2.0 * h);
          const double an = pos < 0 ? 0.0 : a.block(pos)[k * num_vars + m];
          worst = std::max(worst, std::abs(an - fd) / (1.0 + std::abs(fd)));
        }
      }
    }
  }
  return worst;
}

double jacobian_error(const EulerSettings& s) { return jacobian_error_of(s, s); }

TEST(EulerDiscretisation, JacobianMatchesFiniteDifferencesOfTheFirstOrderResidual) {
  // jacobian.flux defaults to the residual's flux: the exact first-order Jacobian,
  // far-field (Riemann flux against the free stream) and wall faces included.
  for (FluxScheme flux : {FluxScheme::Roe, FluxScheme::Hllc, FluxScheme::Rusanov}) {
    const EulerSettings s = settings_at(0.38, 0.05, flux);
    EXPECT_LT(jacobian_error(s), 1e-6) << flux_scheme_name(flux);
  }
}

TEST(EulerDiscretisation, LowMachRoeJacobianMatchesFiniteDifferencesOfTheFirstOrderResidual) {
  EulerSettings s = settings_at(0.38, 0.05, FluxScheme::Roe);
  s.roe.low_mach_floor = 0.19;  // tb-comp2d's scheme.low_mach_cutoff 0.5 at M 0.38
  EXPECT_LT(jacobian_error(s), 1e-6);
  // The residual did change: the plain Roe Jacobian is off by more than the tolerance.
  EulerSettings plain_jacobian = s;
  plain_jacobian.roe.low_mach_floor = 1.0;
  EXPECT_GT(jacobian_error_of(s, plain_jacobian), 1e-4);
}

TEST(EulerDiscretisation, RusanovJacobianIsOnlyApproximateForRoesResidual) {
  EulerSettings s = settings_at(0.38, 0.05, FluxScheme::Roe);
  s.jacobian_flux = FluxScheme::Rusanov;
  EXPECT_GT(jacobian_error(s), 1e-2);
}

TEST(BoundaryMap, NamesAnUnknownMarkerAndAnUnmappedOne) {
  const Mesh2D mesh = cylinder_mesh();
  BoundaryMap map;
  map.far_field = {"farfield"};
  map.slip_wall = {"cylindre"};
  try {
    boundary_kinds_by_marker(mesh, map);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("'cylindre' is not a marker"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("'cylinder'"), std::string::npos) << e.what();
  }
  map.slip_wall.clear();
  try {
    boundary_kinds_by_marker(mesh, map);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("marker 'cylinder' carries boundary faces"), std::string::npos) << e.what();
  }
  EXPECT_EQ(split_marker_list(" a, b ,c"), (std::vector<std::string>{"a", "b", "c"}));
}

}  // namespace
}  // namespace tb::test
