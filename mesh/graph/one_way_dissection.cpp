#include "mesh/graph/one_way_dissection.hpp"

#include <algorithm>
#include <cmath>

#include "mesh/graph/level_structure.hpp"

namespace tb {
namespace {

// FN1WD: marks separator nodes of the component holding `root` inactive and
// appends them to `order`; returns the component's level structure.
// `in_next` is all-zero scratch of the graph's size, left all-zero.
LevelStructure find_separators(const Graph& g, index_t root, std::vector<char>& active, std::vector<char>& in_next,
                               std::vector<index_t>& order) {
  LevelStructure ls;
  pseudo_peripheral_node(g, root, active, ls);
  const index_t depth = ls.depth();
  const auto size = static_cast<index_t>(ls.nodes.size());
  if (depth < 3) {  // too shallow to dissect: the whole component is one separator
    for (index_t v : ls.nodes) active[v] = 0, order.push_back(v);
    return ls;
  }
  const double width = static_cast<double>(size) / depth;
  const double step = 1.0 + std::sqrt((3.0 * width + 13.0) / 2.0);
  for (index_t k = 1;; ++k) {
    // 1-based level i = round(k * step) as in FN1WD; it must leave a level after it.
    const auto level = static_cast<index_t>(std::floor(k * step + 0.5)) - 1;
    if (level + 1 >= depth) break;
    for (index_t j = ls.level_ptr[level + 1]; j < ls.level_ptr[level + 2]; ++j) in_next[ls.nodes[j]] = 1;
    // Only the nodes of level i that touch level i+1 separate them.
    for (index_t j = ls.level_ptr[level]; j < ls.level_ptr[level + 1]; ++j) {
      const index_t v = ls.nodes[j];
      for (const index_t* u = g.begin(v); u != g.end(v); ++u)
        if (in_next[*u]) {
          active[v] = 0;
          order.push_back(v);
          break;
        }
    }
    for (index_t j = ls.level_ptr[level + 1]; j < ls.level_ptr[level + 2]; ++j) in_next[ls.nodes[j]] = 0;
  }
  return ls;
}

}  // namespace

OneWayDissection one_way_dissection(const Graph& g) {
  const index_t n = g.size();
  std::vector<char> active(n, 1), in_next(n, 0);
  std::vector<index_t> order;  // separators of each component, then its blocks; reversed at the end
  order.reserve(n);
  std::vector<index_t> block_end;  // end of each block in `order`
  std::vector<char> is_separator;
  LevelStructure block;
  for (index_t start = 0; start < n; ++start) {
    if (!active[start]) continue;
    const std::size_t first = order.size();
    const LevelStructure component = find_separators(g, start, active, in_next, order);
    if (order.size() > first) block_end.push_back(static_cast<index_t>(order.size())), is_separator.push_back(1);
    for (index_t v : component.nodes) {
      if (!active[v]) continue;
      pseudo_peripheral_node(g, v, active, block);
      for (index_t u : block.nodes) active[u] = 0, order.push_back(u);
      block_end.push_back(static_cast<index_t>(order.size())), is_separator.push_back(0);
    }
  }
  std::reverse(order.begin(), order.end());
  OneWayDissection out;
  out.permutation = Permutation::from_new_to_old(std::move(order));
  // Block b of `order` spans [end[b-1], end[b]); reversed, it spans [n - end[b], n - end[b-1]).
  for (std::size_t b = block_end.size(); b-- > 0;) {
    out.block_ptr.push_back(n - (b == 0 ? 0 : block_end[b - 1]));
    out.separator_block.push_back(is_separator[b]);
  }
  return out;
}

Permutation one_way_dissection_ordering(const Graph& g) { return one_way_dissection(g).permutation; }

}  // namespace tb
