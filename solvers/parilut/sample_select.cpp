#include "sample_select.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "solvers/core/error.hpp"
#include "solvers/core/types.hpp"

namespace tb::parilut {

namespace {

constexpr int tree_height = 8;
constexpr int splitters = select_buckets - 1;
using Counts = std::array<std::size_t, select_buckets>;
using Tree = std::array<double, splitters>;

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

// Fig. 4: sorted splitters into a complete binary tree in level order (root 0,
// children of i at 2i+1 and 2i+2).
void build_tree(const std::vector<double>& sorted, int node, int lo, int hi, Tree& tree) {
  if (lo > hi || node >= splitters) return;
  const int mid = lo + (hi - lo) / 2;
  tree[node] = sorted[mid];
  build_tree(sorted, 2 * node + 1, lo, mid - 1, tree);
  build_tree(sorted, 2 * node + 2, mid + 1, hi, tree);
}

// Fig. 5: the descent; bucket b holds the elements in [s_b, s_{b+1}) of the
// sorted splitters s_1 .. s_255 (s_0 = -inf, s_256 = +inf).
inline int bucket_of(const Tree& tree, double e) {
  int i = 0;
  for (int level = 0; level < tree_height; ++level) i = 2 * i + (e < tree[i] ? 1 : 2);
  return i - splitters;
}

// A deterministic sample at spread-out positions (a fixed odd stride modulo n
// visits distinct positions), sorted, and its 255 quantiles as the tree.
Tree pick_splitters(std::span<const double> data, std::vector<double>& sample) {
  const std::size_t n = data.size();
  sample.resize(select_sample);
  std::size_t pos = n / 2;
  const std::size_t stride = (n / select_sample) | 1;
  for (double& s : sample) {
    s = data[pos % n];
    pos += stride + 7919;  // a prime offset breaks any period of the input
  }
  std::sort(sample.begin(), sample.end());
  std::vector<double> quantiles(splitters);
  for (int b = 0; b < splitters; ++b) quantiles[b] = sample[(std::size_t(b) + 1) * select_sample / select_buckets];
  Tree tree{};
  build_tree(quantiles, 0, 0, splitters - 1, tree);
  return tree;
}

// Classification: each element's oracle, and the bucket sizes summed over
// threads. Eight elements descend the tree together: one descent is a chain of
// eight dependent loads, and eight independent chains keep the core busy (the
// super-scalar sample sort's reason for the implicit tree).
Counts count_buckets(std::span<const double> data, const Tree& tree, std::vector<std::uint8_t>& oracles) {
  constexpr std::size_t group = 8;
  const std::size_t n = data.size(), whole = n / group * group;
  oracles.resize(n);
  std::vector<Counts> local(std::size_t(thread_count()), Counts{});
#pragma omp parallel if (n >= std::size_t(openmp_min_length))
  {
    Counts& mine = local[std::size_t(thread_id())];
#pragma omp for schedule(static)
    for (std::size_t g = 0; g < whole; g += group) {
      int node[group] = {};
      for (int level = 0; level < tree_height; ++level)
        for (std::size_t l = 0; l < group; ++l) node[l] = 2 * node[l] + (data[g + l] < tree[node[l]] ? 1 : 2);
      for (std::size_t l = 0; l < group; ++l) {
        const int b = node[l] - splitters;
        oracles[g + l] = std::uint8_t(b);
        ++mine[b];
      }
    }
  }
  for (std::size_t i = whole; i < n; ++i) {
    const int b = bucket_of(tree, data[i]);
    oracles[i] = std::uint8_t(b);
    ++local[0][b];
  }
  Counts total{};
  for (const Counts& c : local)
    for (int b = 0; b < select_buckets; ++b) total[b] += c[b];
  return total;
}

// The elements of one bucket, in input order, read through the oracles.
void extract_bucket(std::span<const double> data, const std::vector<std::uint8_t>& oracles, int bucket,
                    std::vector<double>& out) {
  out.clear();
  for (std::size_t i = 0; i < data.size(); ++i)
    if (oracles[i] == bucket) out.push_back(data[i]);
}

struct Bucket {
  int index = 0;
  std::size_t rank_offset = 0;  // elements in lower buckets
};

Bucket bucket_holding(const Counts& counts, std::size_t k) {
  std::size_t below = 0;
  for (int b = 0; b < select_buckets; ++b) {
    if (k < below + counts[b]) return {b, below};
    below += counts[b];
  }
  throw Error("sample_select: rank beyond the data");  // unreachable for k < n
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
    const Tree tree = pick_splitters(level, sample);
    const Counts counts = count_buckets(level, tree, oracles);
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
  const Tree tree = pick_splitters(data, sample);
  const Counts counts = count_buckets(data, tree, oracles);
  const Bucket t = bucket_holding(counts, k);
  if (t.index == select_buckets - 1) return sample_select(data, k);
  // The upper splitter of bucket t: the sorted splitters are the tree's in-order walk.
  std::vector<double> sorted_splitters(tree.begin(), tree.end());
  std::sort(sorted_splitters.begin(), sorted_splitters.end());
  const double upper = sorted_splitters[t.index];
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
