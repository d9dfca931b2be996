// decompose_mesh (mesh/decomposition.hpp) on the shipped meshes split by
// METIS: each piece holds the global cells with their geometry, the faces of
// its owned and first-layer cells are the global faces, and cut faces touch
// only the last layer.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <tuple>

#include "mesh/decomposition.hpp"
#include "mesh/geometry.hpp"
#include "mesh/io/mesh_io.hpp"
#include "mesh/mesh_graph.hpp"
#include "mesh/partition.hpp"
#include "mesh_fixtures.hpp"

namespace tb {
namespace {

// Global faces by their sorted node pair.
class FaceLookup {
 public:
  explicit FaceLookup(const Mesh2D& m) {
    for (index_t f = 0; f < m.num_faces(); ++f) keys_.push_back({key(m.faces[f].nodes[0], m.faces[f].nodes[1]), f});
    std::sort(keys_.begin(), keys_.end());
  }
  // -1 when no face joins nodes a and b.
  index_t find(index_t a, index_t b) const {
    auto it = std::lower_bound(keys_.begin(), keys_.end(), std::make_pair(key(a, b), index_t{-1}));
    return it != keys_.end() && it->first == key(a, b) ? it->second : -1;
  }

 private:
  static std::pair<index_t, index_t> key(index_t a, index_t b) { return {std::min(a, b), std::max(a, b)}; }
  std::vector<std::pair<std::pair<index_t, index_t>, index_t>> keys_;
};

bool close(double a, double b) { return std::abs(a - b) <= 1e-13 * (1.0 + std::abs(b)); }

// Cells, nodes, area and centroid of every held cell against the global mesh.
index_t wrong_cells(const Mesh2D& mesh, const MeshGeometry& geo, const MeshPiece& piece) {
  const MeshGeometry pg = compute_geometry(piece.mesh);
  index_t wrong = piece.mesh.num_cells() != piece.cells.size();
  for (index_t c = 0; c < std::min(piece.mesh.num_cells(), piece.cells.size()); ++c) {
    const index_t g = piece.cells.global[c];
    wrong += piece.mesh.cell_size(c) != mesh.cell_size(g);
    for (index_t k = 0; k < std::min(piece.mesh.cell_size(c), mesh.cell_size(g)); ++k)
      wrong += piece.node_global[piece.mesh.cell_begin(c)[k]] != mesh.cell_begin(g)[k];
    wrong += !close(pg.cell_area[c], geo.cell_area[g]) || !close(pg.cell_centroid[c].x, geo.cell_centroid[g].x) ||
             !close(pg.cell_centroid[c].y, geo.cell_centroid[g].y);
  }
  return wrong;
}

// 0: owned, k: ghost layer k.
int layer_of(const Subdomain& s, index_t local) {
  if (local < s.owned) return 0;
  return 1 + static_cast<int>(std::upper_bound(s.layer_end.begin(), s.layer_end.end(), local) - s.layer_end.begin());
}

struct FaceCounts {
  index_t wrong = 0;  // faces that are not the global face they should be
  index_t cut = 0;
};

// Every face of the piece against the global face with the same nodes: an
// interior face joins the same two global cells, a marked boundary face is the
// same boundary face with the same marker, and a cut face is a global interior
// face from a last-layer cell to a cell the piece does not hold.
FaceCounts check_faces(const Mesh2D& mesh, const FaceLookup& lookup, const MeshPiece& piece, int layers) {
  FaceCounts n;
  const Subdomain& s = piece.cells;
  for (const Face& f : piece.mesh.faces) {
    const index_t gf = lookup.find(piece.node_global[f.nodes[0]], piece.node_global[f.nodes[1]]);
    if (gf < 0) {
      ++n.wrong;
      continue;
    }
    const Face& g = mesh.faces[gf];
    const index_t left = s.global[f.left];
    if (!f.is_boundary()) {
      const index_t right = s.global[f.right];
      n.wrong += g.is_boundary() || std::minmax(left, right) != std::minmax(g.left, g.right) || f.marker != -1;
    } else if (f.marker == piece.cut_marker) {
      ++n.cut;
      const index_t outside = g.left == left ? g.right : g.left;
      n.wrong += g.is_boundary() || (g.left != left && g.right != left) || s.local_of(outside) >= 0 ||
                 layer_of(s, f.left) != layers;
    } else {
      n.wrong += !g.is_boundary() || g.left != left || g.marker != f.marker;
    }
  }
  return n;
}

void expect_pieces(const Mesh2D& mesh, const std::vector<index_t>& owner, int parts, int layers) {
  const std::vector<MeshPiece> pieces = decompose_mesh(mesh, owner, parts, layers);
  ASSERT_EQ(static_cast<int>(pieces.size()), parts);
  const MeshGeometry geo = compute_geometry(mesh);
  const FaceLookup lookup(mesh);
  std::vector<index_t> times_owned(mesh.num_cells(), 0);
  index_t cut_faces = 0;
  for (const MeshPiece& piece : pieces) {
    SCOPED_TRACE("piece " + std::to_string(piece.cells.rank) + " of " + std::to_string(parts) + ", " +
                 std::to_string(layers) + " layers");
    EXPECT_EQ(piece.cut_marker, mesh.num_markers());
    ASSERT_EQ(piece.mesh.num_markers(), mesh.num_markers() + 1);
    EXPECT_EQ(piece.mesh.marker_names.back(), "partition_cut");
    EXPECT_TRUE(std::equal(mesh.marker_names.begin(), mesh.marker_names.end(), piece.mesh.marker_names.begin()));
    EXPECT_EQ(piece.mesh.flipped_cells, 0);
    EXPECT_EQ(piece.mesh.unmatched_edges, 0);
    EXPECT_EQ(wrong_cells(mesh, geo, piece), 0);
    const FaceCounts faces = check_faces(mesh, lookup, piece, layers);
    EXPECT_EQ(faces.wrong, 0);
    cut_faces += faces.cut;
    for (index_t c = 0; c < piece.cells.owned; ++c) ++times_owned[piece.cells.global[c]];
  }
  EXPECT_EQ(times_owned, std::vector<index_t>(mesh.num_cells(), 1));
  if (parts > 1) {
    EXPECT_GT(cut_faces, 0);
  }
}

class DecomposeMesh : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    naca_ = new Mesh2D(read_mesh(testing::shipped_mesh("naca0012_coarse.msh")));
    cylinder_ = new Mesh2D(read_mesh(testing::shipped_mesh("cylinder_coarse.msh")));
  }
  static void TearDownTestSuite() {
    delete naca_;
    delete cylinder_;
  }
  static const Mesh2D* naca_;
  static const Mesh2D* cylinder_;
};
const Mesh2D* DecomposeMesh::naca_ = nullptr;
const Mesh2D* DecomposeMesh::cylinder_ = nullptr;

TEST_F(DecomposeMesh, MetisPiecesOfTheShippedMeshesHoldTheGlobalCellsAndFaces) {
  if (!metis_available()) GTEST_SKIP() << "built without METIS";
  for (const Mesh2D* mesh : {naca_, cylinder_}) {
    const Graph g = cell_graph(*mesh);
    for (int parts : {2, 3, 7}) expect_pieces(*mesh, partition_graph(g, parts), parts, 2);
  }
}

TEST_F(DecomposeMesh, OneAndThreeLayersCutOnlyTheLastLayer) {
  // Stripes by centroid x, independent of METIS: a cut runs through every stripe boundary.
  const MeshGeometry geo = compute_geometry(*cylinder_);
  std::vector<index_t> owner(cylinder_->num_cells());
  for (index_t c = 0; c < cylinder_->num_cells(); ++c) owner[c] = geo.cell_centroid[c].x < 0.0 ? 0 : 1;
  for (int layers : {1, 3}) expect_pieces(*cylinder_, owner, 2, layers);
}

TEST_F(DecomposeMesh, OnePartIsTheWholeMesh) {
  const Mesh2D& mesh = *naca_;
  const std::vector<MeshPiece> pieces = decompose_mesh(mesh, std::vector<index_t>(mesh.num_cells(), 0), 1);
  ASSERT_EQ(pieces.size(), 1u);
  const MeshPiece& piece = pieces[0];
  EXPECT_EQ(piece.cells.ghosts(), 0);
  EXPECT_EQ(piece.mesh.num_cells(), mesh.num_cells());
  EXPECT_EQ(piece.mesh.cell_nodes.size(), mesh.cell_nodes.size());
  auto as_global = [](const Mesh2D& m, const std::vector<index_t>& node, const std::vector<index_t>& cell) {
    std::vector<std::tuple<index_t, index_t, index_t, index_t, index_t>> faces;
    for (const Face& f : m.faces)
      faces.push_back({node[f.nodes[0]], node[f.nodes[1]], cell[f.left], f.right < 0 ? -1 : cell[f.right], f.marker});
    std::sort(faces.begin(), faces.end());
    return faces;
  };
  std::vector<index_t> identity_nodes(mesh.num_nodes()), identity_cells(mesh.num_cells());
  for (index_t n = 0; n < mesh.num_nodes(); ++n) identity_nodes[n] = n;
  for (index_t c = 0; c < mesh.num_cells(); ++c) identity_cells[c] = c;
  EXPECT_EQ(as_global(piece.mesh, piece.node_global, piece.cells.global),
            as_global(mesh, identity_nodes, identity_cells));
  EXPECT_EQ(piece.mesh.num_interior_faces, mesh.num_interior_faces);
}

TEST_F(DecomposeMesh, APieceMayOwnNothing) {
  const Mesh2D& mesh = *cylinder_;
  const MeshGeometry geo = compute_geometry(mesh);
  std::vector<index_t> owner(mesh.num_cells());
  for (index_t c = 0; c < mesh.num_cells(); ++c) owner[c] = geo.cell_centroid[c].y < 0.0 ? 0 : 2;
  const std::vector<MeshPiece> pieces = decompose_mesh(mesh, owner, 3);
  EXPECT_EQ(pieces[1].mesh.num_cells(), 0);
  EXPECT_EQ(pieces[1].mesh.num_nodes(), 0);
  EXPECT_EQ(pieces[1].mesh.num_faces(), 0);
  EXPECT_TRUE(pieces[1].node_global.empty());
  expect_pieces(mesh, owner, 3, 2);
}

// The bytes of one member, to compare arrays of structs (Vec2, Face) bit for bit.
template <class T>
std::string bytes_of(const std::vector<T>& v) {
  return std::string(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(T));
}

// put_piece / get_piece carry a piece from the rank that decomposed to its
// own (tb-comp2d under mpiexec): every member arrives as it left, the halo
// plan and the faces included, for a piece that owns nothing too; a short
// buffer and a piece whose faces name cells it does not hold are refused.
TEST_F(DecomposeMesh, APieceReadFromItsBytesIsThePieceBitForBit) {
  const Mesh2D& mesh = *cylinder_;
  const MeshGeometry geo = compute_geometry(mesh);
  std::vector<index_t> owner(mesh.num_cells());
  for (index_t c = 0; c < mesh.num_cells(); ++c) owner[c] = geo.cell_centroid[c].y < 0.0 ? 0 : 2;  // 1 owns nothing
  for (const MeshPiece& sent : decompose_mesh(mesh, owner, 3)) {
    SCOPED_TRACE("rank " + std::to_string(sent.cells.rank));
    ByteWriter out;
    put_piece(out, sent);
    const std::string bytes = out.take();
    ByteReader in(bytes, "the piece");
    const MeshPiece got = get_piece(in);
    EXPECT_TRUE(in.done());
    const Subdomain &a = got.cells, &b = sent.cells;
    EXPECT_EQ(a.rank, b.rank);
    EXPECT_EQ(a.global, b.global);
    EXPECT_EQ(a.owned, b.owned);
    EXPECT_EQ(a.layer_end, b.layer_end);
    EXPECT_EQ(a.ghost_owner, b.ghost_owner);
    EXPECT_EQ(a.halo.neighbours, b.halo.neighbours);
    EXPECT_EQ(a.halo.send_offsets, b.halo.send_offsets);
    EXPECT_EQ(a.halo.send_items, b.halo.send_items);
    EXPECT_EQ(a.halo.recv_offsets, b.halo.recv_offsets);
    EXPECT_EQ(a.halo.recv_items, b.halo.recv_items);
    EXPECT_EQ(a.by_global, b.by_global);
    const Mesh2D &m = got.mesh, &n = sent.mesh;
    EXPECT_EQ(bytes_of(m.nodes), bytes_of(n.nodes));
    EXPECT_EQ(m.cell_ptr, n.cell_ptr);
    EXPECT_EQ(m.cell_nodes, n.cell_nodes);
    EXPECT_EQ(bytes_of(m.boundary_edges), bytes_of(n.boundary_edges));
    EXPECT_EQ(m.marker_names, n.marker_names);
    EXPECT_EQ(bytes_of(m.faces), bytes_of(n.faces));
    EXPECT_EQ(m.num_interior_faces, n.num_interior_faces);
    EXPECT_EQ(m.flipped_cells, n.flipped_cells);
    EXPECT_EQ(m.unmatched_edges, n.unmatched_edges);
    EXPECT_EQ(got.node_global, sent.node_global);
    EXPECT_EQ(got.cut_marker, sent.cut_marker);
    for (std::size_t cut : {std::size_t(0), bytes.size() / 2, bytes.size() - 1}) {
      ByteReader short_in(std::string_view(bytes).substr(0, cut), "the piece");
      EXPECT_THROW(get_piece(short_in), Error) << cut << " of " << bytes.size() << " bytes";
    }
  }
  MeshPiece bad = decompose_mesh(mesh, owner, 3)[0];
  bad.mesh.faces[0].left = bad.mesh.num_cells();
  ByteWriter out;
  put_piece(out, bad);
  const std::string bytes = out.take();
  ByteReader in(bytes, "the piece");
  EXPECT_THROW(get_piece(in), Error);
}

TEST_F(DecomposeMesh, RefusesAnOwnerOfTheWrongSize) {
  EXPECT_THROW(decompose_mesh(*cylinder_, std::vector<index_t>(5, 0), 1), Error);
}

}  // namespace
}  // namespace tb
