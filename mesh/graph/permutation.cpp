#include "mesh/graph/permutation.hpp"

#include <algorithm>
#include <string>

#include "solvers/core/error.hpp"

namespace tb {

bool is_permutation(const std::vector<index_t>& p) {
  std::vector<char> seen(p.size(), 0);
  for (index_t v : p) {
    if (v < 0 || static_cast<std::size_t>(v) >= p.size() || seen[v]) return false;
    seen[v] = 1;
  }
  return true;
}

Permutation Permutation::from_new_to_old(std::vector<index_t> new_to_old) {
  if (!is_permutation(new_to_old))
    throw Error("an ordering of " + std::to_string(new_to_old.size()) + " items is not a permutation");
  Permutation p;
  p.new_to_old = std::move(new_to_old);
  p.old_to_new.resize(p.new_to_old.size());
  for (index_t i = 0; i < p.size(); ++i) p.old_to_new[p.new_to_old[i]] = i;
  return p;
}

Permutation Permutation::identity(index_t n) {
  std::vector<index_t> id(n);
  for (index_t i = 0; i < n; ++i) id[i] = i;
  return from_new_to_old(std::move(id));
}

Permutation compose(const Permutation& p, const Permutation& q) {
  if (p.size() != q.size()) throw Error("composing orderings of different sizes");
  std::vector<index_t> n2o(p.size());
  for (index_t i = 0; i < p.size(); ++i) n2o[i] = p.new_to_old[q.new_to_old[i]];
  return Permutation::from_new_to_old(std::move(n2o));
}

Graph permute(const Graph& g, const Permutation& p) {
  if (p.size() != g.size()) throw Error("ordering size differs from graph size");
  Graph out;
  out.row_ptr.assign(g.size() + 1, 0);
  out.col_idx.reserve(g.col_idx.size());
  for (index_t i = 0; i < g.size(); ++i) {
    const index_t old = p.new_to_old[i];
    for (const index_t* u = g.begin(old); u != g.end(old); ++u) out.col_idx.push_back(p.old_to_new[*u]);
    std::sort(out.col_idx.begin() + out.row_ptr[i], out.col_idx.end());
    out.row_ptr[i + 1] = static_cast<index_t>(out.col_idx.size());
  }
  return out;
}

BandProfile band_profile(const Graph& g, const Permutation& p) {
  BandProfile b;
  for (index_t i = 0; i < g.size(); ++i) {
    const index_t old = p.new_to_old[i];
    index_t first = i;
    for (const index_t* u = g.begin(old); u != g.end(old); ++u) {
      const index_t j = p.old_to_new[*u];
      b.bandwidth = std::max(b.bandwidth, i > j ? i - j : j - i);
      first = std::min(first, j);
    }
    b.profile += i - first;
  }
  return b;
}

BandProfile band_profile(const Graph& g) { return band_profile(g, Permutation::identity(g.size())); }

}  // namespace tb
