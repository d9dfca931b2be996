#include "mesh/graph/colouring.hpp"

#include <algorithm>

namespace tb {

std::vector<index_t> Colouring::sizes() const {
  std::vector<index_t> s(num_colours, 0);
  for (index_t c : colour) ++s[c];
  return s;
}

Colouring greedy_colouring(const Graph& g) {
  Colouring c;
  c.colour.assign(g.size(), -1);
  std::vector<index_t> used_by(g.size() + 1, -1);  // colour k is taken by a neighbour of v when used_by[k] == v
  for (index_t v = 0; v < g.size(); ++v) {
    for (const index_t* u = g.begin(v); u != g.end(v); ++u)
      if (c.colour[*u] >= 0) used_by[c.colour[*u]] = v;
    index_t k = 0;
    while (used_by[k] == v) ++k;
    c.colour[v] = k;
    c.num_colours = std::max(c.num_colours, k + 1);
  }
  return c;
}

void balance_colours(const Graph& g, Colouring& c) {
  if (c.num_colours <= 1) return;
  std::vector<index_t> size = c.sizes();
  const index_t target = (g.size() + c.num_colours - 1) / c.num_colours;
  std::vector<index_t> used_by(c.num_colours, -1);
  for (index_t v = 0; v < g.size(); ++v) {
    if (size[c.colour[v]] <= target) continue;
    for (const index_t* u = g.begin(v); u != g.end(v); ++u) used_by[c.colour[*u]] = v;
    index_t best = -1;
    for (index_t k = 0; k < c.num_colours; ++k)
      if (used_by[k] != v && size[k] < target && (best < 0 || size[k] < size[best])) best = k;
    if (best < 0) continue;
    --size[c.colour[v]];
    ++size[best];
    c.colour[v] = best;
  }
}

bool is_valid_colouring(const Graph& g, const Colouring& c) {
  if (static_cast<index_t>(c.colour.size()) != g.size()) return false;
  for (index_t v = 0; v < g.size(); ++v) {
    if (c.colour[v] < 0 || c.colour[v] >= c.num_colours) return false;
    for (const index_t* u = g.begin(v); u != g.end(v); ++u)
      if (c.colour[*u] == c.colour[v]) return false;
  }
  return true;
}

Permutation colour_ordering(const Colouring& c) {
  std::vector<index_t> start(c.num_colours + 1, 0);
  for (index_t k : c.colour) ++start[k + 1];
  for (index_t k = 0; k < c.num_colours; ++k) start[k + 1] += start[k];
  std::vector<index_t> n2o(c.colour.size());
  for (index_t v = 0; v < static_cast<index_t>(c.colour.size()); ++v) n2o[start[c.colour[v]]++] = v;
  return Permutation::from_new_to_old(std::move(n2o));
}

}  // namespace tb
