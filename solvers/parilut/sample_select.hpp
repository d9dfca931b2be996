#pragma once
// Sampleselect (seed 003 §III, Fig. 3-5): the k-th smallest element of a
// sequence by recursive bucketing. A sorted random sample gives 255 splitters,
// stored as an implicit search tree in level order; each element descends the
// tree to its bucket (its "oracle", one byte), bucket sizes are counted per
// thread and summed (on the host the analogue of the paper's shared-memory
// atomics), the bucket holding rank k is extracted and the search recurses on
// it until it is small enough to sort. These are the reference twins of the
// device Sampleselect (device_sample_select.hpp).
#include <cstddef>
#include <span>

namespace tb::parilut {

inline constexpr int select_buckets = 256;          // a tree of height 8; oracles fit a byte
inline constexpr std::size_t select_sample = 1024;  // sample size per level
inline constexpr std::size_t select_base_case = 2048;

struct Selection {
  double value = 0.0;
  // Elements strictly below `value`, and those not above it: an exact k-th
  // smallest has below <= k < not_above.
  std::size_t below = 0, not_above = 0;
};

// The element of rank k (0-based) in sorted order.
Selection sample_select(std::span<const double> data, std::size_t k);

// One level of Sampleselect without extraction (the paper's approximate
// variant): the upper splitter of the bucket holding rank k, so that at least
// k + 1 elements lie strictly below it and at most one bucket's worth more
// (`below` is exact, `not_above` is set equal to it: ties are not counted).
// Falls back to the exact search when rank k lies in the top bucket or the
// data are small.
Selection sample_select_approx(std::span<const double> data, std::size_t k);

// The comparison: std::nth_element (introselect, a quickselect) on a copy.
Selection quick_select(std::span<const double> data, std::size_t k);

// How many elements are below, and not above, v (for tests and diagnostics).
Selection rank_of(std::span<const double> data, double v);

}  // namespace tb::parilut
