#pragma once
// Reading and writing by file name: .msh (Gmsh 2.2 or 4.1, told apart by the
// file's version line), .su2, and .vtu (write only).
#include <string>

#include "mesh/mesh2d.hpp"

namespace tb {

Mesh2D read_mesh(const std::string& path);

// .msh writes Gmsh 4.1 unless `gmsh22`; .vtu writes the mesh without fields.
void write_mesh(const std::string& path, const Mesh2D& mesh, bool gmsh22 = false);

}  // namespace tb
