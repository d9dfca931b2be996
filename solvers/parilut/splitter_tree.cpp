#include "splitter_tree.hpp"

#include <algorithm>
#include <string>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "kernels.hpp"
#include "solvers/core/error.hpp"
#include "solvers/core/types.hpp"

namespace tb::parilut {

namespace {

int thread_count() {
#ifdef _OPENMP
  return omp_get_max_threads();
#else
  return 1;
#endif
}
int thread_id() {
#ifdef _OPENMP
  return omp_get_thread_num();
#else
  return 0;
#endif
}

void build_tree(const std::vector<double>& sorted, int node, int lo, int hi, SplitterTree& tree) {
  if (lo > hi || node >= tree_splitters) return;
  const int mid = lo + (hi - lo) / 2;
  tree[node] = sorted[mid];
  build_tree(sorted, 2 * node + 1, lo, mid - 1, tree);
  build_tree(sorted, 2 * node + 2, mid + 1, hi, tree);
}

void in_order(const SplitterTree& tree, int node, std::vector<double>& out) {
  if (node >= tree_splitters) return;
  in_order(tree, 2 * node + 1, out);
  out.push_back(tree[node]);
  in_order(tree, 2 * node + 2, out);
}

}  // namespace

SplitterTree pick_splitters(std::span<const double> data, std::vector<double>& sample) {
  const std::size_t n = data.size();
  sample.resize(select_sample);
  for (std::size_t j = 0; j < select_sample; ++j) sample[j] = data[sample_position(n, j)];
  std::sort(sample.begin(), sample.end());
  std::vector<double> quantiles(tree_splitters);
  for (int b = 0; b < tree_splitters; ++b) quantiles[b] = sample[quantile_position(b)];
  SplitterTree tree{};
  build_tree(quantiles, 0, 0, tree_splitters - 1, tree);
  return tree;
}

std::vector<double> sorted_splitters(const SplitterTree& tree) {
  std::vector<double> out;
  out.reserve(tree_splitters);
  in_order(tree, 0, out);
  return out;
}

Bucket bucket_holding(const BucketCounts& counts, std::size_t k) {
  std::size_t below = 0;
  for (int b = 0; b < select_buckets; ++b) {
    if (k < below + counts[b]) return {b, below};
    below += counts[b];
  }
  throw Error("sample_select: rank " + std::to_string(k) + " beyond the " + std::to_string(below) +
              " classified elements");
}

BucketCounts kernels::ref::classify(std::span<const double> data, const SplitterTree& tree,
                                    std::vector<std::uint8_t>& oracles) {
  oracles.resize(data.size());
  BucketCounts counts{};
  for (std::size_t i = 0; i < data.size(); ++i) {
    const int b = bucket_of(tree.data(), data[i]);
    oracles[i] = std::uint8_t(b);
    ++counts[b];
  }
  return counts;
}

// The OpenMP kernel: per-thread counts summed at the end. A single descent is a chain of eight dependent loads; eight
// independent chains keep the core busy (the reason the super-scalar sample sort stores the tree implicitly).
BucketCounts kernels::omp::classify(std::span<const double> data, const SplitterTree& tree,
                                    std::vector<std::uint8_t>& oracles) {
  constexpr std::size_t group = 8;
  const std::size_t n = data.size(), whole = n / group * group;
  oracles.resize(n);
  std::vector<BucketCounts> local(std::size_t(thread_count()), BucketCounts{});
#pragma omp parallel if (n >= std::size_t(openmp_min_length))
  {
    BucketCounts& mine = local[std::size_t(thread_id())];
#pragma omp for schedule(static)
    for (std::size_t g = 0; g < whole; g += group) {
      int node[group] = {};
      for (int level = 0; level < tree_height; ++level)
        for (std::size_t l = 0; l < group; ++l) node[l] = 2 * node[l] + (data[g + l] < tree[node[l]] ? 1 : 2);
      for (std::size_t l = 0; l < group; ++l) {
        const int b = node[l] - tree_splitters;
        oracles[g + l] = std::uint8_t(b);
        ++mine[b];
      }
    }
  }
  for (std::size_t i = whole; i < n; ++i) {
    const int b = bucket_of(tree.data(), data[i]);
    oracles[i] = std::uint8_t(b);
    ++local[0][b];
  }
  BucketCounts total{};
  for (const BucketCounts& c : local)
    for (int b = 0; b < select_buckets; ++b) total[b] += c[b];
  return total;
}

}  // namespace tb::parilut
