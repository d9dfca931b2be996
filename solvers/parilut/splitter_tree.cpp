#include "splitter_tree.hpp"

#include <algorithm>
#include <string>

#include "solvers/core/error.hpp"
#include "solvers/core/types.hpp"

namespace tb::parilut {

namespace {

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

}  // namespace tb::parilut
