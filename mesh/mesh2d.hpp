#pragma once
// An unstructured 2D mesh of linear triangles and quadrilaterals, cell-centred:
// cells are the unknowns, faces (edges) carry the fluxes between them.
#include <array>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "solvers/core/types.hpp"

namespace tb {

struct Vec2 {
  double x = 0.0;
  double y = 0.0;
};

enum class CellType : std::uint8_t { Triangle = 3, Quadrilateral = 4 };

// An edge of the boundary as a file lists it, before faces exist.
struct BoundaryEdge {
  std::array<index_t, 2> nodes;
  index_t marker;
};

// A face between cell `left` and cell `right` (or the outside when right < 0).
// Its nodes run so that the normal (dy, -dx) points from left to right, which is
// outward for the left cell because cells are stored counter-clockwise.
struct Face {
  std::array<index_t, 2> nodes;
  index_t left;
  index_t right;
  index_t marker;  // boundary marker, or -1 (interior, or a boundary edge the file left unmarked)
  bool is_boundary() const { return right < 0; }
};

class Mesh2D {
 public:
  std::vector<Vec2> nodes;
  std::vector<index_t> cell_ptr{0};  // cell c has nodes cell_nodes[cell_ptr[c] .. cell_ptr[c+1])
  std::vector<index_t> cell_nodes;
  std::vector<BoundaryEdge> boundary_edges;
  std::vector<std::string> marker_names;
  // Built by build_faces(): interior faces first, then boundary faces by marker.
  std::vector<Face> faces;
  index_t num_interior_faces = 0;
  // Counts found while building; check_mesh() turns them into messages.
  index_t flipped_cells = 0;    // clockwise cells made counter-clockwise
  index_t unmatched_edges = 0;  // marker edges that are no boundary face

  index_t num_nodes() const { return static_cast<index_t>(nodes.size()); }
  index_t num_cells() const { return static_cast<index_t>(cell_ptr.size()) - 1; }
  index_t num_faces() const { return static_cast<index_t>(faces.size()); }
  index_t num_markers() const { return static_cast<index_t>(marker_names.size()); }
  index_t cell_size(index_t c) const { return cell_ptr[c + 1] - cell_ptr[c]; }
  CellType cell_type(index_t c) const { return static_cast<CellType>(cell_size(c)); }
  const index_t* cell_begin(index_t c) const { return cell_nodes.data() + cell_ptr[c]; }

  void add_cell(std::initializer_list<index_t> cell_node_list);
  void add_cell(const index_t* first, index_t count);
  // Marker index for `name`, appended when new.
  index_t marker_index(const std::string& name);
  // -1 when no marker has that name.
  index_t find_marker(const std::string& name) const;
};

// Orients cells counter-clockwise and builds faces with left/right cells and the
// markers of boundary_edges. Readers call it; call it again after editing cells.
// Throws tb::Error on an index out of range or a cell with a repeated node.
void build_faces(Mesh2D& mesh);

}  // namespace tb
