#pragma once
// The classification step of Sampleselect (seed 003 §III, Fig. 4-5):
// splitters from a sorted sample, stored as a complete binary search tree in
// level order, and each element's bucket (its "oracle", one byte) found by
// descending the tree, with the bucket sizes. The sample positions, the tree
// layout and the bucket choice are shared by the host Sampleselect and the
// device one (device_sample_select.hpp), so that both pick the same splitters.
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "sample_select.hpp"
#include "solvers/core/host_device.hpp"

namespace tb::parilut {

inline constexpr int tree_height = 8;
inline constexpr int tree_splitters = select_buckets - 1;
using SplitterTree = std::array<double, tree_splitters>;
using BucketCounts = std::array<std::size_t, select_buckets>;

// A deterministic spread-out sample of `data`, sorted, and its 255 quantiles as
// a level-order tree (root 0, children of i at 2i+1 and 2i+2).
SplitterTree pick_splitters(std::span<const double> data, std::vector<double>& sample);

// Where pick_splitters draws sample element j (0 <= j < select_sample) from n
// values: a stride through the data with a prime offset that breaks any period
// of the input. Shared with the CUDA sample kernel so that both draw the same.
TB_HOST_DEVICE inline std::size_t sample_position(std::size_t n, std::size_t j) {
  const std::size_t stride = (n / select_sample) | 1;
  return (n / 2 + j * (stride + 7919)) % n;
}

// The sorted sample's element that becomes splitter b (0 <= b < 255): its
// (b + 1)-th 256-quantile.
TB_HOST_DEVICE inline std::size_t quantile_position(int b) {
  return (std::size_t(b) + 1) * select_sample / select_buckets;
}

// The rank among the sorted splitters of the level-order tree node `node`: in
// a complete tree a node at depth d, the p-th of its level, is the in-order
// element (2p + 1) 2^(7 - d) - 1 (Fig. 4, left and right).
TB_HOST_DEVICE inline int splitter_rank(int node) {
  int depth = 0;
  while ((2 << depth) <= node + 1) ++depth;
  const int p = node + 1 - (1 << depth);
  return ((2 * p + 1) << (tree_height - 1 - depth)) - 1;
}

// Fig. 5: bucket b holds the elements in [s_b, s_{b+1}) of the sorted
// splitters s_1 .. s_255 (s_0 = -inf, s_256 = +inf).
TB_HOST_DEVICE inline int bucket_of(const double* tree, double e) {
  int i = 0;
  for (int level = 0; level < tree_height; ++level) i = 2 * i + (e < tree[i] ? 1 : 2);
  return i - tree_splitters;
}

// Oracles and bucket sizes over bucket_of: kernels::ref::classify and
// kernels::omp::classify (kernels.hpp).

// The sorted splitters (the tree's in-order walk).
std::vector<double> sorted_splitters(const SplitterTree& tree);

// §III "Selecting the k-th element": the bucket t holding rank k and the lowest
// rank r_t in it (the exclusive scan of the counts, searched).
struct Bucket {
  int index = 0;
  std::size_t rank_offset = 0;  // elements in lower buckets
};
Bucket bucket_holding(const BucketCounts& counts, std::size_t k);

}  // namespace tb::parilut
