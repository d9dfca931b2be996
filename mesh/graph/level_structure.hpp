#pragma once
// Rooted level structures and pseudo-peripheral nodes (George & Liu, "Computer
// Solution of Large Sparse Positive Definite Systems", 1981, §4.4: ROOTLS and
// FNROOT), shared by RCM and one-way dissection.
#include <vector>

#include "mesh/graph/graph.hpp"

namespace tb {

struct LevelStructure {
  std::vector<index_t> nodes;         // breadth-first from the root, level by level
  std::vector<index_t> level_ptr{0};  // level l holds nodes[level_ptr[l] .. level_ptr[l+1])
  index_t depth() const { return static_cast<index_t>(level_ptr.size()) - 1; }
  index_t width() const;
};

// Breadth-first levels of the connected part of {v : active[v] == 1} that holds
// root. `active` is used as scratch and restored on return.
LevelStructure rooted_level_structure(const Graph& g, index_t root, std::vector<char>& active);

// Degree of v counted over active neighbours only.
index_t active_degree(const Graph& g, index_t v, const std::vector<char>& active);

// Starts at `start` and moves to a minimum-degree node of the last level while
// that deepens the structure; returns the root found and leaves its structure in `ls`.
index_t pseudo_peripheral_node(const Graph& g, index_t start, std::vector<char>& active, LevelStructure& ls);

}  // namespace tb
