#include "sample_select.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include "kernels.hpp"
#include "solvers/core/error.hpp"
#include "solvers/core/types.hpp"
#include "splitter_tree.hpp"

namespace tb::parilut {

namespace {

// The elements of one bucket, in input order, read through the oracles.
void extract_bucket(std::span<const double> data, const std::vector<std::uint8_t>& oracles, int bucket,
                    std::vector<double>& out) {
  out.clear();
  for (std::size_t i = 0; i < data.size(); ++i)
    if (oracles[i] == bucket) out.push_back(data[i]);
}

void check_rank(std::span<const double> data, std::size_t k) {
  if (k >= data.size())
    throw Error("select: rank " + std::to_string(k) + " of " + std::to_string(data.size()) + " elements");
}

double sorted_base_case(std::span<const double> data, std::size_t k) {
  std::vector<double> copy(data.begin(), data.end());
  std::nth_element(copy.begin(), copy.begin() + std::ptrdiff_t(k), copy.end());
  return copy[k];
}

}  // namespace

Selection rank_of(std::span<const double> data, double v) {
  Selection s{v, 0, 0};
  for (double e : data) {
    s.below += e < v;
    s.not_above += e <= v;
  }
  return s;
}

Selection sample_select(std::span<const double> data, std::size_t k) {
  check_rank(data, k);
  std::vector<double> sample, current, next;
  std::vector<std::uint8_t> oracles;
  std::span<const double> level = data;
  std::size_t rank = k;
  while (level.size() > select_base_case) {
    const SplitterTree tree = pick_splitters(level, sample);
    // Sampleselect has no kernel option: the OpenMP classification always (ref:: is its test twin).
    const BucketCounts counts = kernels::omp::classify(level, tree, oracles);
    const Bucket t = bucket_holding(counts, rank);
    // A bucket as large as its parent means the sample saw only equal values
    // there: the selection no longer shrinks, so finish by sorting.
    if (counts[t.index] == level.size()) break;
    extract_bucket(level, oracles, t.index, next);
    rank -= t.rank_offset;
    current.swap(next);
    level = current;
  }
  const double v = sorted_base_case(level, rank);
  return rank_of(data, v);
}

Selection sample_select_approx(std::span<const double> data, std::size_t k) {
  check_rank(data, k);
  if (data.size() <= select_base_case) return sample_select(data, k);
  std::vector<double> sample;
  std::vector<std::uint8_t> oracles;
  const SplitterTree tree = pick_splitters(data, sample);
  const BucketCounts counts = kernels::omp::classify(data, tree, oracles);
  const Bucket t = bucket_holding(counts, k);
  if (t.index == select_buckets - 1) return sample_select(data, k);
  // The upper splitter of bucket t: the sorted splitters are the tree's in-order walk.
  const double upper = sorted_splitters(tree)[std::size_t(t.index)];
  // Buckets 0..t hold exactly the elements below the splitter; ties with it
  // lie above and are not counted (no second pass over the data).
  const std::size_t below = t.rank_offset + counts[t.index];
  return {upper, below, below};
}

Selection quick_select(std::span<const double> data, std::size_t k) {
  check_rank(data, k);
  return rank_of(data, sorted_base_case(data, k));
}

}  // namespace tb::parilut
