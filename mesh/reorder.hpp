#pragma once
#include "mesh/graph/permutation.hpp"
#include "mesh/mesh2d.hpp"

namespace tb {

// The mesh with cell i of the result being cell p.new_to_old[i] of `mesh`;
// nodes and markers unchanged, faces rebuilt. Apply once, before a run.
Mesh2D reorder_cells(const Mesh2D& mesh, const Permutation& p);

}  // namespace tb
