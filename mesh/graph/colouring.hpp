#pragma once
// Distance-1 colourings of a graph: vertices of one colour share no edge, so a
// multicolour point-implicit sweep (seed 002 §III) updates each colour in parallel.
#include <vector>

#include "mesh/graph/permutation.hpp"

namespace tb {

struct Colouring {
  std::vector<index_t> colour;  // per vertex, 0 .. num_colours-1
  index_t num_colours = 0;
  std::vector<index_t> sizes() const;
};

// First-fit greedy in vertex order (at most max degree + 1 colours).
Colouring greedy_colouring(const Graph& g);

// Moves vertices out of over-full colours into the smallest admissible colour
// below the average size, keeping the colouring valid and the number of colours;
// seed 002 notes the last colours of a greedy colouring hold few rows, which
// starves a GPU of parallel work on them.
void balance_colours(const Graph& g, Colouring& c);

bool is_valid_colouring(const Graph& g, const Colouring& c);

// Colour-major order, original order kept within a colour (seed 002 renumbers
// "such that unknowns of the same color appear in consecutive order").
Permutation colour_ordering(const Colouring& c);

}  // namespace tb
