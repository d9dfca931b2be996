#pragma once
// A rank's piece of a Mesh2D for the cell-centred finite-volume code: its
// owned cells and the ghost layers around them as a mesh of their own, faces
// built, so the physics assembles a piece as it assembles a whole mesh.
// Computed on one process for all ranks (no MPI here); put_piece and
// get_piece carry a piece from that process to its rank.
#include <span>
#include <vector>

#include "mesh/graph/subdomain.hpp"
#include "mesh/mesh2d.hpp"
#include "solvers/core/byte_buffer.hpp"

namespace tb {

// The marker name of a piece's artificial boundary (see MeshPiece::cut_marker).
inline constexpr const char* kPartitionCutMarker = "partition_cut";

struct MeshPiece {
  // Over the cell graph: local cell c of `mesh` is global cell cells.global[c].
  Subdomain cells;
  // Owned cells, then the ghost layers, in that local order; nodes renumbered
  // locally; faces built. Boundary faces of the global mesh keep their markers
  // (same indices and names); the cut marker is appended after them.
  Mesh2D mesh;
  std::vector<index_t> node_global;  // local node -> global node, ascending
  // Marker of the faces where the last ghost layer meets cells this piece does
  // not hold (the piece's artificial boundary), = the global marker count.
  // Residuals of the last layer are not meaningful: its cells miss neighbours.
  index_t cut_marker = -1;
};

// The pieces of `mesh` for a partition of its cells (`cell_owner`, in [0,
// parts), e.g. partition_graph on cell_graph(mesh)) with `ghost_layers` layers:
// 2 by default, as the second-order reconstruction needs gradients on the first
// layer, and those need the second layer's states. The layers are those of
// `reach` (null: cell_graph(mesh)); a gradient stencil wider than the face
// neighbours passes its own graph, which must hold the face neighbours.
// Throws tb::Error as decompose does on bad arguments.
std::vector<MeshPiece> decompose_mesh(const Mesh2D& mesh, std::span<const index_t> cell_owner, int parts,
                                      int ghost_layers = 2, const Graph* reach = nullptr);

// A piece as bytes and back, for the rank that decomposed to send each rank its
// own: every member as it is, faces and halo plan included, so the piece a rank
// reads equals the one built for it, bit for bit. put_piece appends to `out`;
// get_piece reads one piece from `in` (tb::Error on a short or inconsistent one).
void put_piece(ByteWriter& out, const MeshPiece& piece);
MeshPiece get_piece(ByteReader& in);

}  // namespace tb
