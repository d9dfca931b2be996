#pragma once
// Sampleselect on a CUDA device (seed 003 §III, Fig. 3): the host's algorithm
// (sample_select.hpp) with each pass over the data a device step. The host
// drives the recursion: it reads back the 256 bucket counts of each level
// (2 KiB), picks the bucket holding the rank and launches the filter into the
// next level; data stay on the device until at most select_base_case remain.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "sample_select.hpp"
#include "solvers/core/array.hpp"
#include "splitter_tree.hpp"

namespace tb::parilut {

class DeviceSampleSelect {
 public:
  // All device scratch for up to `capacity` elements, allocated once: two
  // level buffers, the oracles, the tree and the counts.
  explicit DeviceSampleSelect(std::size_t capacity);

  std::size_t capacity() const { return capacity_; }

  // The element of rank k of `data` (a CUDA array), with its exact counts
  // below / not above: equal to sample_select(data on the host, k).
  Selection exact(const Vector& data, std::size_t k);

  // One level (the paper's approximate variant): the same threshold and count
  // as sample_select_approx on the host, which draws the same sample.
  Selection approx(const Vector& data, std::size_t k);

  // The same on the first n values at a device pointer (n <= capacity).
  Selection exact(const double* data, std::size_t n, std::size_t k);
  Selection approx(const double* data, std::size_t n, std::size_t k);

 private:
  BucketCounts classify(const double* level, std::size_t n);
  BucketCounts split_off_minimum(const double* level, std::size_t n, double minimum);
  Selection finish_on_host(const double* level, std::size_t n, std::size_t rank, std::size_t offset);

  std::size_t capacity_;
  Vector levels_[2], tree_, splitters_;
  Array<std::uint8_t> oracles_;
  Array<unsigned long long> counts_, block_scratch_;
  std::vector<unsigned long long> host_counts_;
  std::vector<double> host_splitters_, host_rest_;
};

}  // namespace tb::parilut
