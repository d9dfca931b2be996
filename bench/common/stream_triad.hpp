#pragma once
// STREAM triad a[i] = b[i] + s c[i] (McCalpin, STREAM benchmark): the
// attainable memory bandwidth that a bandwidth-bound kernel such as SpMV is
// measured against.
#include <cstddef>

namespace tb::bench {

// Bytes moved by one triad over n doubles by the STREAM convention: two arrays
// read, one written, write-allocate traffic not counted.
constexpr double triad_bytes(std::size_t n) { return 3.0 * 8.0 * double(n); }

// Best seconds of one OpenMP triad over n doubles (arrays first touched by the
// threads that later use them, so pages sit on the right NUMA node).
double host_triad_seconds(std::size_t n, int reps);

}  // namespace tb::bench
