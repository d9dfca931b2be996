#include "mesh/graph/level_structure.hpp"

#include <algorithm>

namespace tb {

index_t LevelStructure::width() const {
  index_t w = 0;
  for (index_t l = 0; l < depth(); ++l) w = std::max(w, level_ptr[l + 1] - level_ptr[l]);
  return w;
}

index_t active_degree(const Graph& g, index_t v, const std::vector<char>& active) {
  index_t d = 0;
  for (const index_t* u = g.begin(v); u != g.end(v); ++u) d += active[*u] != 0;
  return d;
}

LevelStructure rooted_level_structure(const Graph& g, index_t root, std::vector<char>& active) {
  LevelStructure ls;
  // Visited nodes are marked 2 in `active` and restored below, so a call costs
  // the size of the component, not of the graph.
  ls.nodes.push_back(root);
  active[root] = 2;
  std::size_t begin = 0;
  while (begin < ls.nodes.size()) {
    const std::size_t end = ls.nodes.size();
    ls.level_ptr.push_back(static_cast<index_t>(end));
    for (std::size_t k = begin; k < end; ++k)
      for (const index_t* u = g.begin(ls.nodes[k]); u != g.end(ls.nodes[k]); ++u)
        if (active[*u] == 1) {
          active[*u] = 2;
          ls.nodes.push_back(*u);
        }
    begin = end;
  }
  for (index_t v : ls.nodes) active[v] = 1;
  return ls;
}

index_t pseudo_peripheral_node(const Graph& g, index_t start, std::vector<char>& active, LevelStructure& ls) {
  index_t root = start;
  ls = rooted_level_structure(g, root, active);
  while (true) {
    const index_t last = ls.depth() - 1;
    if (ls.depth() <= 1 || ls.nodes.size() == 1) return root;
    index_t candidate = ls.nodes[ls.level_ptr[last]];
    index_t min_degree = active_degree(g, candidate, active);
    for (index_t k = ls.level_ptr[last] + 1; k < ls.level_ptr[last + 1]; ++k) {
      const index_t d = active_degree(g, ls.nodes[k], active);
      if (d < min_degree) candidate = ls.nodes[k], min_degree = d;
    }
    LevelStructure trial = rooted_level_structure(g, candidate, active);
    if (trial.depth() <= ls.depth()) return root;
    root = candidate;
    ls = std::move(trial);
  }
}

}  // namespace tb
