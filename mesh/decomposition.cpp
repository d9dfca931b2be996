#include "mesh/decomposition.hpp"

#include <algorithm>

#include "mesh/mesh_graph.hpp"
#include "solvers/core/error.hpp"

namespace tb {

namespace {

// The faces of each cell (CSR), built once for all pieces.
struct CellFaces {
  std::vector<index_t> ptr, faces;
};

CellFaces cell_faces(const Mesh2D& mesh) {
  CellFaces cf;
  cf.ptr.assign(mesh.num_cells() + 1, 0);
  for (const Face& f : mesh.faces) {
    ++cf.ptr[f.left + 1];
    if (!f.is_boundary()) ++cf.ptr[f.right + 1];
  }
  for (index_t c = 0; c < mesh.num_cells(); ++c) cf.ptr[c + 1] += cf.ptr[c];
  cf.faces.resize(cf.ptr.back());
  std::vector<index_t> next(cf.ptr.begin(), cf.ptr.end() - 1);
  for (index_t f = 0; f < mesh.num_faces(); ++f) {
    cf.faces[next[mesh.faces[f].left]++] = f;
    if (!mesh.faces[f].is_boundary()) cf.faces[next[mesh.faces[f].right]++] = f;
  }
  return cf;
}

// Local nodes: the nodes of the held cells, ascending global. `node_local`
// (one entry per global node, -1 = not in this piece) is shared by all pieces
// and left as found.
void add_cells(const Mesh2D& mesh, MeshPiece& piece, std::vector<index_t>& node_local) {
  for (index_t c : piece.cells.global)
    piece.node_global.insert(piece.node_global.end(), mesh.cell_begin(c), mesh.cell_begin(c) + mesh.cell_size(c));
  std::sort(piece.node_global.begin(), piece.node_global.end());
  piece.node_global.erase(std::unique(piece.node_global.begin(), piece.node_global.end()), piece.node_global.end());
  for (index_t n = 0; n < static_cast<index_t>(piece.node_global.size()); ++n) {
    node_local[piece.node_global[n]] = n;
    piece.mesh.nodes.push_back(mesh.nodes[piece.node_global[n]]);
  }
  index_t local[4];
  for (index_t c : piece.cells.global) {
    for (index_t k = 0; k < mesh.cell_size(c); ++k) local[k] = node_local[mesh.cell_begin(c)[k]];
    piece.mesh.add_cell(local, mesh.cell_size(c));
  }
}

// Boundary edges for build_faces: the global boundary faces of held cells with
// their markers, and the faces to cells not held with the cut marker.
void add_boundary_edges(const Mesh2D& mesh, const CellFaces& cf, MeshPiece& piece,
                        const std::vector<index_t>& node_local) {
  for (index_t c : piece.cells.global)
    for (index_t k = cf.ptr[c]; k < cf.ptr[c + 1]; ++k) {
      const Face& f = mesh.faces[cf.faces[k]];
      const BoundaryEdge edge{{node_local[f.nodes[0]], node_local[f.nodes[1]]}, f.marker};
      if (f.is_boundary()) {
        if (f.marker >= 0) piece.mesh.boundary_edges.push_back(edge);
      } else if (piece.cells.local_of(f.left == c ? f.right : f.left) < 0) {
        piece.mesh.boundary_edges.push_back({edge.nodes, piece.cut_marker});
      }
    }
}

}  // namespace

namespace {

// The piece of one subdomain: its cells as a local mesh, markers kept, cut marker appended.
MeshPiece make_piece(const Mesh2D& mesh, const CellFaces& cf, Subdomain cells, std::vector<index_t>& node_local) {
  MeshPiece piece;
  piece.cells = std::move(cells);
  piece.mesh.marker_names = mesh.marker_names;
  // Appended rather than looked up: the global marker indices stay valid in
  // every piece, and the cut marker is never one of them.
  piece.mesh.marker_names.push_back(kPartitionCutMarker);
  piece.cut_marker = mesh.num_markers();
  add_cells(mesh, piece, node_local);
  add_boundary_edges(mesh, cf, piece, node_local);
  for (index_t n : piece.node_global) node_local[n] = -1;
  build_faces(piece.mesh);
  return piece;
}

// decompose over `reach`, or over the cell graph when there is none (built only then).
std::vector<Subdomain> subdomains_of(const Mesh2D& mesh, std::span<const index_t> cell_owner, int parts,
                                     int ghost_layers, const Graph* reach) {
  if (reach) return decompose(*reach, cell_owner, parts, ghost_layers);
  return decompose(cell_graph(mesh), cell_owner, parts, ghost_layers);
}

}  // namespace

std::vector<MeshPiece> decompose_mesh(const Mesh2D& mesh, std::span<const index_t> cell_owner, int parts,
                                      int ghost_layers, const Graph* reach) {
  std::vector<Subdomain> subdomains = subdomains_of(mesh, cell_owner, parts, ghost_layers, reach);
  const CellFaces cf = cell_faces(mesh);
  std::vector<index_t> node_local(mesh.num_nodes(), -1);
  std::vector<MeshPiece> pieces;
  for (int p = 0; p < parts; ++p) pieces.push_back(make_piece(mesh, cf, std::move(subdomains[p]), node_local));
  return pieces;
}

void put_piece(ByteWriter& out, const MeshPiece& piece) {
  const Subdomain& c = piece.cells;
  out.put(c.rank);
  out.put_array(c.global);
  out.put(c.owned);
  out.put_array(c.layer_end);
  out.put_array(c.ghost_owner);
  out.put_array(c.halo.neighbours);
  out.put_array(c.halo.send_offsets);
  out.put_array(c.halo.send_items);
  out.put_array(c.halo.recv_offsets);
  out.put_array(c.halo.recv_items);
  out.put_array(c.by_global);
  const Mesh2D& m = piece.mesh;
  out.put_array(m.nodes);
  out.put_array(m.cell_ptr);
  out.put_array(m.cell_nodes);
  out.put_array(m.boundary_edges);
  out.put(std::uint64_t(m.marker_names.size()));
  for (const std::string& name : m.marker_names) out.put_string(name);
  out.put_array(m.faces);
  out.put(m.num_interior_faces);
  out.put(m.flipped_cells);
  out.put(m.unmatched_edges);
  out.put_array(piece.node_global);
  out.put(piece.cut_marker);
}

MeshPiece get_piece(ByteReader& in) {
  MeshPiece piece;
  Subdomain& c = piece.cells;
  c.rank = in.get<int>("the rank");
  c.global = in.get_array<index_t>("the global cells");
  c.owned = in.get<index_t>("the owned count");
  c.layer_end = in.get_array<index_t>("the ghost layers");
  c.ghost_owner = in.get_array<int>("the ghosts' owners");
  c.halo.neighbours = in.get_array<int>("the halo's neighbours");
  c.halo.send_offsets = in.get_array<index_t>("the halo's send offsets");
  c.halo.send_items = in.get_array<index_t>("the halo's send items");
  c.halo.recv_offsets = in.get_array<index_t>("the halo's receive offsets");
  c.halo.recv_items = in.get_array<index_t>("the halo's receive items");
  c.by_global = in.get_array<index_t>("the cells by global number");
  Mesh2D& m = piece.mesh;
  m.nodes = in.get_array<Vec2>("the nodes");
  m.cell_ptr = in.get_array<index_t>("the cell offsets");
  m.cell_nodes = in.get_array<index_t>("the cells' nodes");
  m.boundary_edges = in.get_array<BoundaryEdge>("the boundary edges");
  const auto markers = in.get<std::uint64_t>("the marker count");
  for (std::uint64_t k = 0; k < markers; ++k) m.marker_names.push_back(in.get_string("a marker name"));
  m.faces = in.get_array<Face>("the faces");
  m.num_interior_faces = in.get<index_t>("the interior face count");
  m.flipped_cells = in.get<index_t>("the flipped cell count");
  m.unmatched_edges = in.get<index_t>("the unmatched edge count");
  piece.node_global = in.get_array<index_t>("the global nodes");
  piece.cut_marker = in.get<index_t>("the cut marker");
  // What the physics indexes with: cells, their nodes and the faces' cells and nodes.
  const index_t cells = m.num_cells(), nodes = m.num_nodes();
  bool ok = !m.cell_ptr.empty() && m.cell_ptr.front() == 0 && std::size_t(m.cell_ptr.back()) == m.cell_nodes.size() &&
            std::size_t(cells) == c.global.size() && c.owned >= 0 && c.owned <= cells &&
            piece.node_global.size() == m.nodes.size() && m.num_interior_faces >= 0 &&
            m.num_interior_faces <= m.num_faces();
  for (std::size_t k = 1; ok && k < m.cell_ptr.size(); ++k) ok = m.cell_ptr[k] >= m.cell_ptr[k - 1];
  for (index_t v : m.cell_nodes) ok = ok && v >= 0 && v < nodes;
  for (const Face& f : m.faces)
    ok = ok && f.left >= 0 && f.left < cells && f.right < cells && f.nodes[0] >= 0 && f.nodes[0] < nodes &&
         f.nodes[1] >= 0 && f.nodes[1] < nodes && f.marker < m.num_markers();
  if (!ok)
    throw Error("a mesh piece whose cells, nodes and faces do not fit together (rank " + std::to_string(c.rank) + ")");
  return piece;
}

}  // namespace tb
