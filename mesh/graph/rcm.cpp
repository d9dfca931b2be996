#include "mesh/graph/rcm.hpp"

#include <algorithm>

#include "mesh/graph/level_structure.hpp"

namespace tb {

Permutation rcm_ordering(const Graph& g) {
  const index_t n = g.size();
  std::vector<char> active(n, 1);
  std::vector<index_t> order;
  order.reserve(n);
  std::vector<index_t> children;
  LevelStructure ls;
  for (index_t start = 0; start < n; ++start) {
    if (!active[start]) continue;
    const index_t root = pseudo_peripheral_node(g, start, active, ls);
    const std::size_t first = order.size();
    order.push_back(root);
    active[root] = 0;
    for (std::size_t k = first; k < order.size(); ++k) {
      children.clear();
      for (const index_t* u = g.begin(order[k]); u != g.end(order[k]); ++u)
        if (active[*u]) {
          children.push_back(*u);
          active[*u] = 0;
        }
      std::stable_sort(children.begin(), children.end(),
                       [&](index_t a, index_t b) { return g.degree(a) < g.degree(b); });
      order.insert(order.end(), children.begin(), children.end());
    }
    std::reverse(order.begin() + static_cast<std::ptrdiff_t>(first), order.end());
  }
  return Permutation::from_new_to_old(std::move(order));
}

}  // namespace tb
