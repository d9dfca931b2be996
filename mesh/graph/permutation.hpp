#pragma once
// An ordering of n items as both maps: new_to_old[i] is the old index of the
// item placed at position i, old_to_new its inverse. Orderings are computed
// once per mesh and applied once (reorder_cells), never per time step.
#include <vector>

#include "mesh/graph/graph.hpp"

namespace tb {

struct Permutation {
  std::vector<index_t> new_to_old;
  std::vector<index_t> old_to_new;

  index_t size() const { return static_cast<index_t>(new_to_old.size()); }
  // Throws tb::Error unless `new_to_old` holds each of 0..n-1 exactly once.
  static Permutation from_new_to_old(std::vector<index_t> new_to_old);
  static Permutation identity(index_t n);
};

bool is_permutation(const std::vector<index_t>& p);

// p then q: the item at new position i is old item p.new_to_old[q.new_to_old[i]].
Permutation compose(const Permutation& p, const Permutation& q);

// The same graph with vertex v renamed old_to_new[v].
Graph permute(const Graph& g, const Permutation& p);

// Values indexed by old number -> indexed by new number.
template <class T>
std::vector<T> permute_values(const std::vector<T>& values, const Permutation& p) {
  std::vector<T> out(values.size());
  for (index_t i = 0; i < p.size(); ++i) out[i] = values[p.new_to_old[i]];
  return out;
}

// Bandwidth max|i-j| over edges, and profile (envelope size) sum_i (i - min{j <= i adjacent to i or i}),
// of the symmetric matrix with the graph's pattern in the given order.
struct BandProfile {
  index_t bandwidth = 0;
  long long profile = 0;
};
BandProfile band_profile(const Graph& g, const Permutation& p);
BandProfile band_profile(const Graph& g);

}  // namespace tb
