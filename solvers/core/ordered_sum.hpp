#pragma once
// Sums whose rounding does not depend on the thread count. The range [0, n) is
// cut into ordered_parts contiguous parts fixed by n alone; each part is summed
// in index order and the parts are then added in order. Any team size, one
// thread included, gives the same bits, so threading::adapt_to_load() may change
// the team between steps and a restarted run still repeats its first run exactly.
#include <array>
#include <cstddef>

#include "solvers/core/threading.hpp"

namespace tb {

inline constexpr int ordered_parts = 64;

// First index of part p of [0, n).
inline std::ptrdiff_t ordered_part_begin(std::ptrdiff_t n, int p) {
  return std::ptrdiff_t((static_cast<unsigned long long>(n) * unsigned(p)) / unsigned(ordered_parts));
}

// M partial results at once: body(i, acc) folds element i into acc[0..M-1]
// (starting from zeros), combine(total, part) folds one part's acc into the
// total. Threads come from threading::threads_for(n, grain).
template <int M, class Body, class Combine>
std::array<double, M> ordered_reduce(std::ptrdiff_t n, long grain, Body&& body, Combine&& combine) {
  double part[ordered_parts][M];
  const int threads = threading::threads_for(long(n), grain);
#pragma omp parallel for schedule(static) num_threads(threads) if (threads > 1)
  for (int p = 0; p < ordered_parts; ++p) {
    double acc[M] = {};
    const std::ptrdiff_t end = ordered_part_begin(n, p + 1);
    for (std::ptrdiff_t i = ordered_part_begin(n, p); i < end; ++i) body(i, acc);
    for (int m = 0; m < M; ++m) part[p][m] = acc[m];
  }
  std::array<double, M> total{};
  for (int p = 0; p < ordered_parts; ++p) combine(total.data(), part[p]);
  return total;
}

// M sums: body(i, acc) adds element i's terms into acc[0..M-1].
template <int M, class Body>
std::array<double, M> ordered_sums(std::ptrdiff_t n, long grain, Body&& body) {
  return ordered_reduce<M>(n, grain, body, [](double* total, const double* part) {
    for (int m = 0; m < M; ++m) total[m] += part[m];
  });
}

}  // namespace tb
