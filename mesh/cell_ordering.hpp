#pragma once
// Cell orderings of a mesh by name, as case files and tb-mesh spell them.
#include <string>

#include "mesh/graph/permutation.hpp"
#include "mesh/mesh_lines.hpp"

namespace tb {

enum class CellOrdering { Natural, Rcm, OneWayDissection, Line, LineRcm, Line1wd, Colour };

// "natural", "rcm", "1wd", "line", "line-rcm", "line-1wd", "colour" (or "color");
// anything else is a tb::Error that lists these.
CellOrdering parse_cell_ordering(const std::string& name);
std::string cell_ordering_name(CellOrdering ordering);

// The ordering of the mesh's cells; `lines` configures the line orderings.
// Colour is RCM followed by a balanced greedy colouring, colour-major (seed 002 §III).
Permutation order_cells(const Mesh2D& mesh, CellOrdering ordering, const LineOptions& lines = {});

}  // namespace tb
