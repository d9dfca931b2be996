#pragma once
#include <string>

#include "mesh/mesh2d.hpp"
#include "mesh/tetrahedral_mesh.hpp"

namespace tb {

// Gmsh ASCII mesh, format 2.2 or 4.1. Triangles and quadrilaterals become cells;
// line elements become boundary edges whose marker is their physical group's
// name (or its number when unnamed, or "curve<tag>" outside every group).
// Throws tb::ParseError (file:line) on malformed input.
Mesh2D read_gmsh(const std::string& path);

// The linear tetrahedra of a Gmsh ASCII volume mesh (2.2 or 4.1); its points,
// lines, triangles and quadrilaterals are skipped, and the nodes no tetrahedron
// uses dropped. Other 3D elements are refused; so is a file without tetrahedra.
TetrahedralMesh read_gmsh_tetrahedra(const std::string& path);

enum class GmshVersion { V22, V41 };

// Writes cells and marked boundary faces, one physical group per marker and
// "fluid" for the cells; atomically (a temporary file renamed into place).
void write_gmsh(const std::string& path, const Mesh2D& mesh, GmshVersion version = GmshVersion::V41);

}  // namespace tb
