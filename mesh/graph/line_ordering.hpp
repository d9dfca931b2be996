#pragma once
// Line and hybrid line-X orderings (seed 001 §5.1-5.2): cells of a line are
// numbered contiguously, and lines and the cells in no line are ordered as the
// vertices of a contracted graph.
#include "mesh/graph/line_detection.hpp"
#include "mesh/graph/permutation.hpp"

namespace tb {

// The graph of seed 001 figure 2: one vertex per line and per vertex in no line,
// numbered in the order their first member appears; an edge wherever a member of
// one couples to a member of the other.
struct ContractedGraph {
  Graph graph;
  std::vector<index_t> member_ptr{0};  // contracted vertex k stands for members[member_ptr[k] .. member_ptr[k+1])
  std::vector<index_t> members;        // a line's cells in line order
};
ContractedGraph contract_lines(const Graph& g, const Lines& lines);

enum class LineCoarseOrder { Natural, Rcm, OneWayDissection };

// Natural gives the plain line ordering (lines gathered where their first cell
// was); Rcm and OneWayDissection give line-RCM and line-1WD.
Permutation line_ordering(const Graph& g, const Lines& lines, LineCoarseOrder coarse);

// Lines renumbered by an ordering of the vertices (what reorder_cells does to a mesh).
Lines permute_lines(const Lines& lines, const Permutation& p);

}  // namespace tb
