#pragma once
// Best-of-N timing: the minimum is the run least disturbed by the rest of the
// machine, the convention of STREAM (McCalpin) for bandwidth figures.
#include <algorithm>
#include <limits>

#include "solvers/core/timer.hpp"

namespace tb::bench {

// Seconds of the fastest of 'reps' calls of f, after one untimed warm-up call
// (first touch of pages, lazy CUDA initialisation, cold caches of the code).
template <class F>
double best_seconds(int reps, F&& f) {
  f();
  double best = std::numeric_limits<double>::infinity();
  for (int r = 0; r < std::max(reps, 1); ++r) {
    WallTimer t;
    f();
    best = std::min(best, t.seconds());
  }
  return best;
}

}  // namespace tb::bench
