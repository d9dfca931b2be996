#pragma once
// Lines of strongly coupled cells (seed 001 §5.1, after Mavriplis): starting at
// boundary cells, a line follows the strongest coupling while cells stay
// anisotropic, giving the wall-normal lines of a boundary layer.
#include <string>
#include <vector>

#include "mesh/graph/graph.hpp"

namespace tb {

struct Lines {
  std::vector<index_t> line_ptr{0};  // line l: cells[line_ptr[l] .. line_ptr[l+1]), from the seed outward
  std::vector<index_t> cells;
  std::vector<index_t> line_of;  // per vertex: its line, or -1
  index_t num_lines() const { return static_cast<index_t>(line_ptr.size()) - 1; }
  index_t num_line_cells() const { return static_cast<index_t>(cells.size()); }
};

// Anisotropy of v: its strongest coupling over its weakest (1 with fewer than 2 neighbours).
std::vector<double> anisotropy(const Graph& g, const std::vector<double>& weight);

// `weight` holds a coupling strength per adjacency entry (same layout as
// g.col_idx, symmetric). A line starts at each seed (in order) with anisotropy
// >= threshold that is in no line yet, and grows to the unassigned neighbour of
// its last vertex with the strongest coupling w while (a) that neighbour's
// anisotropy is >= threshold, (b) w is at least threshold times the last
// vertex's weakest coupling (the step goes along the strong direction) and
// (c) w is among the neighbour's two strongest couplings (the coupling is
// strong seen from both ends; an interior line cell has two strong neighbours).
// Lines shorter than min_length are dropped.
Lines detect_lines(const Graph& g, const std::vector<double>& weight, const std::vector<index_t>& seeds,
                   double threshold, index_t min_length = 2);

}  // namespace tb
