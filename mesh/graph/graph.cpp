#include "mesh/graph/graph.hpp"

#include <algorithm>
#include <string>

#include "solvers/core/error.hpp"

namespace tb {

Graph graph_from_edges(index_t n, const std::vector<std::pair<index_t, index_t>>& edges) {
  Graph g;
  g.row_ptr.assign(n + 1, 0);
  for (const auto& [a, b] : edges) {
    if (a < 0 || a >= n || b < 0 || b >= n)
      throw Error("graph edge (" + std::to_string(a) + ", " + std::to_string(b) + ") leaves 0.." +
                  std::to_string(n - 1));
    if (a == b) continue;
    ++g.row_ptr[a + 1];
    ++g.row_ptr[b + 1];
  }
  for (index_t v = 0; v < n; ++v) g.row_ptr[v + 1] += g.row_ptr[v];
  g.col_idx.resize(g.row_ptr[n]);
  std::vector<index_t> next(g.row_ptr.begin(), g.row_ptr.end() - 1);
  for (const auto& [a, b] : edges) {
    if (a == b) continue;
    g.col_idx[next[a]++] = b;
    g.col_idx[next[b]++] = a;
  }
  // Sort rows and squeeze out duplicates in place.
  index_t write = 0;
  for (index_t v = 0; v < n; ++v) {
    const index_t first = g.row_ptr[v], last = g.row_ptr[v + 1];
    std::sort(g.col_idx.begin() + first, g.col_idx.begin() + last);
    const index_t start = write;
    for (index_t k = first; k < last; ++k)
      if (k == first || g.col_idx[k] != g.col_idx[k - 1]) g.col_idx[write++] = g.col_idx[k];
    g.row_ptr[v] = start;
  }
  g.row_ptr[n] = write;
  g.col_idx.resize(write);
  return g;
}

Graph graph_from_pattern(index_t n, const index_t* row_ptr, const index_t* col_idx) {
  std::vector<std::pair<index_t, index_t>> edges;
  edges.reserve(row_ptr[n]);
  for (index_t i = 0; i < n; ++i)
    for (index_t k = row_ptr[i]; k < row_ptr[i + 1]; ++k) edges.push_back({i, col_idx[k]});
  return graph_from_edges(n, edges);
}

Graph graph_power(const Graph& g, int hops) {
  if (hops < 1) throw Error("graph_power: " + std::to_string(hops) + " hops, allowed >= 1");
  const index_t n = g.size();
  Graph out;
  out.row_ptr.assign(std::size_t(n) + 1, 0);
  // A breadth-first search of `hops` levels from each vertex; reached[u] == v
  // marks u as seen from v, so the marks need no clearing between vertices.
  std::vector<index_t> reached(std::size_t(n), -1), level, next, row;
  for (index_t v = 0; v < n; ++v) {
    reached[std::size_t(v)] = v;
    level.assign(1, v);
    row.clear();
    for (int h = 0; h < hops && !level.empty(); ++h) {
      next.clear();
      for (index_t x : level)
        for (const index_t* u = g.begin(x); u != g.end(x); ++u)
          if (reached[std::size_t(*u)] != v) {
            reached[std::size_t(*u)] = v;
            next.push_back(*u);
            row.push_back(*u);
          }
      level.swap(next);
    }
    std::sort(row.begin(), row.end());
    out.col_idx.insert(out.col_idx.end(), row.begin(), row.end());
    out.row_ptr[std::size_t(v) + 1] = index_t(out.col_idx.size());
  }
  return out;
}

}  // namespace tb
