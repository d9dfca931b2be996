#pragma once
// The classification step of Sampleselect (seed 003 §III, Fig. 4-5), the one
// device step of the selection: splitters from a sorted sample, stored as a
// complete binary search tree in level order, and each element's bucket (its
// "oracle", one byte) found by descending the tree, with the bucket sizes.
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

// Fig. 5: bucket b holds the elements in [s_b, s_{b+1}) of the sorted
// splitters s_1 .. s_255 (s_0 = -inf, s_256 = +inf).
TB_HOST_DEVICE inline int bucket_of(const double* tree, double e) {
  int i = 0;
  for (int level = 0; level < tree_height; ++level) i = 2 * i + (e < tree[i] ? 1 : 2);
  return i - tree_splitters;
}

// Oracles and bucket sizes: the sequential reference, and the OpenMP kernel
// (per-thread counts summed at the end, eight elements descending together).
BucketCounts classify_ref(std::span<const double> data, const SplitterTree& tree, std::vector<std::uint8_t>& oracles);
BucketCounts classify_omp(std::span<const double> data, const SplitterTree& tree, std::vector<std::uint8_t>& oracles);

// The sorted splitters (the tree's in-order walk).
std::vector<double> sorted_splitters(const SplitterTree& tree);

}  // namespace tb::parilut
