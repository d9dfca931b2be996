#pragma once
// The graphs of a mesh: what needs a Mesh2D or a TetrahedralMesh stays in
// tb_mesh; the graph algorithms below them are in mesh/graph (tb_graph).
#include "mesh/graph/graph.hpp"

namespace tb {

class Mesh2D;
struct TetrahedralMesh;

// Cells are vertices, interior faces are edges.
Graph cell_graph(const Mesh2D& mesh);

// Cells are vertices, cells that share a node are adjacent (a face, or a
// corner only): the wider stencil of least-squares gradients on triangles.
Graph cell_graph_through_nodes(const Mesh2D& mesh);

// Nodes are vertices, the six edges of every tetrahedron are edges: the block
// pattern of a node-centred scheme on the mesh (seed 002 §V).
Graph node_graph(const TetrahedralMesh& mesh);

}  // namespace tb
