#include "device_sample_select.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <span>
#include <string>

#include "cuda/kernels.hpp"
#include "solvers/core/cuda_call.hpp"
#include "solvers/core/error.hpp"
#include "splitter_tree.hpp"

namespace tb::parilut {

namespace {

void check_input(const Vector& data) {
  if (data.backend() != Backend::cuda) throw Error("DeviceSampleSelect: data must be a CUDA array, got a host array");
}

void check_size(std::size_t n, std::size_t k, std::size_t capacity) {
  if (n > capacity)
    throw Error("DeviceSampleSelect: " + std::to_string(n) + " elements exceed the workspace capacity " +
                std::to_string(capacity));
  if (k >= n) throw Error("select: rank " + std::to_string(k) + " of " + std::to_string(n) + " elements");
}

}  // namespace

DeviceSampleSelect::DeviceSampleSelect(std::size_t capacity)
    : capacity_(capacity),
      levels_{Vector(Backend::cuda, capacity), Vector(Backend::cuda, capacity)},
      tree_(Backend::cuda, tree_splitters),
      splitters_(Backend::cuda, tree_splitters),
      oracles_(Backend::cuda, capacity),
      counts_(Backend::cuda, select_buckets),
      block_scratch_(Backend::cuda, kernels::cuda::filter_block_limit),
      host_counts_(select_buckets),
      host_splitters_(tree_splitters) {
  host_rest_.reserve(select_base_case);
}

BucketCounts DeviceSampleSelect::classify(const double* level, std::size_t n) {
  TB_CUDA_CALL(kernels::cuda::classify(level, n, tree_.data(), oracles_.data(), counts_.data()));
  counts_.copy_to_host(host_counts_);
  BucketCounts counts{};
  std::copy(host_counts_.begin(), host_counts_.end(), counts.begin());
  return counts;
}

// Every element lies in one bucket only when all splitters equal the level's
// minimum (a splitter is an element of its own bucket, so that bucket is the
// top one, [s_255, inf), and holds the sample). Splitting at the next double
// above the minimum puts its copies in bucket 0 and the rest in bucket 255.
BucketCounts DeviceSampleSelect::split_off_minimum(const double* level, std::size_t n, double minimum) {
  SplitterTree ties;
  ties.fill(std::nextafter(minimum, std::numeric_limits<double>::infinity()));
  tree_.copy_from_host(ties);
  return classify(level, n);
}

Selection DeviceSampleSelect::finish_on_host(const double* level, std::size_t n, std::size_t rank, std::size_t offset) {
  host_rest_.resize(n);  // beyond select_base_case only for data the splitting cannot shrink
  TB_CUDA_CALL(kernels::cuda::copy_to_host(level, n, host_rest_.data()));
  std::nth_element(host_rest_.begin(), host_rest_.begin() + std::ptrdiff_t(rank), host_rest_.end());
  Selection s = rank_of(host_rest_, host_rest_[rank]);
  s.below += offset;
  s.not_above += offset;
  return s;
}

// Fig. 3. Buckets are disjoint intervals in order, so the elements of the lower
// buckets (`offset`) are all below the result and those of the higher ones all
// above: the counts within the last level complete the exact ranks.
Selection DeviceSampleSelect::exact(const Vector& data, std::size_t k) {
  check_input(data);
  return exact(data.data(), data.size(), k);
}

Selection DeviceSampleSelect::approx(const Vector& data, std::size_t k) {
  check_input(data);
  return approx(data.data(), data.size(), k);
}

Selection DeviceSampleSelect::exact(const double* data, std::size_t size, std::size_t k) {
  check_size(size, k, capacity_);
  const double* level = data;
  std::size_t n = size, rank = k, offset = 0;
  int next = 0;
  while (n > select_base_case) {
    TB_CUDA_CALL(kernels::cuda::pick_splitters(level, n, tree_.data(), splitters_.data()));
    BucketCounts counts = classify(level, n);
    Bucket t = bucket_holding(counts, rank);
    if (counts[std::size_t(t.index)] == n) {
      splitters_.copy_to_host(host_splitters_);
      const double minimum = host_splitters_.back();
      counts = split_off_minimum(level, n, minimum);
      t = bucket_holding(counts, rank);
      if (t.index == 0) return {minimum, offset, offset + counts[0]};
      if (counts[std::size_t(t.index)] == n) break;  // no double above the minimum (infinite data)
    }
    double* out = levels_[next].data();
    TB_CUDA_CALL(kernels::cuda::extract_bucket(level, oracles_.data(), n, t.index, out, block_scratch_.data()));
    offset += t.rank_offset;
    rank -= t.rank_offset;
    n = counts[std::size_t(t.index)];
    level = out;
    next = 1 - next;
  }
  return finish_on_host(level, n, rank, offset);
}

Selection DeviceSampleSelect::approx(const double* data, std::size_t n, std::size_t k) {
  check_size(n, k, capacity_);
  if (n <= select_base_case) return exact(data, n, k);
  TB_CUDA_CALL(kernels::cuda::pick_splitters(data, n, tree_.data(), splitters_.data()));
  const BucketCounts counts = classify(data, n);
  const Bucket t = bucket_holding(counts, k);
  if (t.index == select_buckets - 1) return exact(data, n, k);
  splitters_.copy_to_host(host_splitters_);
  // As on the host: the upper splitter of bucket t, all of buckets 0..t below it.
  const std::size_t below = t.rank_offset + counts[std::size_t(t.index)];
  return {host_splitters_[std::size_t(t.index)], below, below};
}

}  // namespace tb::parilut
