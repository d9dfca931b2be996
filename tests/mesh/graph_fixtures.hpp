#pragma once
#include <random>
#include <utility>
#include <vector>

#include "mesh/graph/permutation.hpp"

namespace tb::testing {

// 5-point grid graph, vertex j*nx + i.
inline Graph grid_graph(index_t nx, index_t ny) {
  std::vector<std::pair<index_t, index_t>> edges;
  for (index_t j = 0; j < ny; ++j)
    for (index_t i = 0; i < nx; ++i) {
      if (i + 1 < nx) edges.push_back({j * nx + i, j * nx + i + 1});
      if (j + 1 < ny) edges.push_back({j * nx + i, (j + 1) * nx + i});
    }
  return graph_from_edges(nx * ny, edges);
}

// A fixed pseudo-random order (own Fisher-Yates: std::shuffle differs across libraries).
inline Permutation scrambled(index_t n, unsigned seed = 12345) {
  std::mt19937 rng(seed);
  std::vector<index_t> p(n);
  for (index_t i = 0; i < n; ++i) p[i] = i;
  for (index_t i = n - 1; i > 0; --i) std::swap(p[i], p[rng() % static_cast<unsigned>(i + 1)]);
  return Permutation::from_new_to_old(std::move(p));
}

}  // namespace tb::testing
