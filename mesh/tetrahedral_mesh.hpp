#pragma once
// Linear tetrahedra in 3D as a Gmsh volume mesh gives them: nodes and cells,
// nothing else. They serve seed 002's test matrices, whose block pattern is the
// node adjacency of a tetrahedral mesh (FUN3D stores its unknowns at the
// nodes); no solver here discretises on them, so there are no faces or markers.
#include <array>
#include <vector>

#include "solvers/core/types.hpp"

namespace tb {

struct Point3 {
  double x = 0.0, y = 0.0, z = 0.0;
};

struct TetrahedralMesh {
  std::vector<Point3> nodes;
  std::vector<std::array<index_t, 4>> cells;

  index_t num_nodes() const { return static_cast<index_t>(nodes.size()); }
  index_t num_cells() const { return static_cast<index_t>(cells.size()); }
};

}  // namespace tb
