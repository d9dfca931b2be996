#pragma once
// Consistency checks of a Mesh2D: problems make a mesh unfit for a solver,
// notes are worth a line in a report but harmless.
#include <string>
#include <vector>

#include "mesh/mesh2d.hpp"

namespace tb {

struct MeshCheck {
  std::vector<std::string> problems;
  std::vector<std::string> notes;
  bool ok() const { return problems.empty(); }
};

// Degenerate cells, cells that are not closed (sum of outward normal x length
// over their faces), overlapping neighbours (a shared face run the same way by
// both cells), duplicate nodes, boundary faces without a marker, marker edges
// that are no boundary face. Tolerances are relative to the mesh extent.
MeshCheck check_mesh(const Mesh2D& mesh);

// Throws tb::Error listing every problem; `what` names the mesh (its file).
void require_valid_mesh(const Mesh2D& mesh, const std::string& what);

}  // namespace tb
