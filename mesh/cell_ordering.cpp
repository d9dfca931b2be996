#include "mesh/cell_ordering.hpp"

#include "mesh/graph/colouring.hpp"
#include "mesh/graph/line_ordering.hpp"
#include "mesh/graph/one_way_dissection.hpp"
#include "mesh/graph/rcm.hpp"
#include "mesh/mesh_graph.hpp"
#include "solvers/core/error.hpp"

namespace tb {

CellOrdering parse_cell_ordering(const std::string& name) {
  if (name == "natural") return CellOrdering::Natural;
  if (name == "rcm") return CellOrdering::Rcm;
  if (name == "1wd") return CellOrdering::OneWayDissection;
  if (name == "line") return CellOrdering::Line;
  if (name == "line-rcm") return CellOrdering::LineRcm;
  if (name == "line-1wd") return CellOrdering::Line1wd;
  if (name == "colour" || name == "color") return CellOrdering::Colour;
  throw Error("unknown cell ordering '" + name + "' (allowed: natural, rcm, 1wd, line, line-rcm, line-1wd, colour)");
}

std::string cell_ordering_name(CellOrdering ordering) {
  switch (ordering) {
    case CellOrdering::Natural:
      return "natural";
    case CellOrdering::Rcm:
      return "rcm";
    case CellOrdering::OneWayDissection:
      return "1wd";
    case CellOrdering::Line:
      return "line";
    case CellOrdering::LineRcm:
      return "line-rcm";
    case CellOrdering::Line1wd:
      return "line-1wd";
    case CellOrdering::Colour:
      return "colour";
  }
  return "?";
}

Permutation order_cells(const Mesh2D& mesh, CellOrdering ordering, const LineOptions& line_options) {
  const Graph g = cell_graph(mesh);
  switch (ordering) {
    case CellOrdering::Natural:
      return Permutation::identity(g.size());
    case CellOrdering::Rcm:
      return rcm_ordering(g);
    case CellOrdering::OneWayDissection:
      return one_way_dissection_ordering(g);
    case CellOrdering::Colour: {
      const Permutation rcm = rcm_ordering(g);
      Colouring c = greedy_colouring(permute(g, rcm));
      balance_colours(permute(g, rcm), c);
      return compose(rcm, colour_ordering(c));
    }
    default:
      break;
  }
  const Lines lines = detect_mesh_lines(mesh, compute_geometry(mesh), g, line_options);
  const LineCoarseOrder coarse = ordering == CellOrdering::LineRcm   ? LineCoarseOrder::Rcm
                                 : ordering == CellOrdering::Line1wd ? LineCoarseOrder::OneWayDissection
                                                                     : LineCoarseOrder::Natural;
  return line_ordering(g, lines, coarse);
}

}  // namespace tb
