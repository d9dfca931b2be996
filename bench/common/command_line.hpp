#pragma once
// Option values shared by the benchmark programs: counts and comma-separated
// lists with errors that name the flag, and the OpenMP thread count.
#include <charconv>
#include <string>
#include <vector>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "solvers/core/error.hpp"

namespace tb::bench {

inline long long parse_count(const std::string& flag, const std::string& text, long long lo) {
  long long v = 0;
  const auto res = std::from_chars(text.data(), text.data() + text.size(), v);
  if (res.ec != std::errc() || res.ptr != text.data() + text.size() || v < lo)
    throw Error(flag + " needs an integer >= " + std::to_string(lo) + ", got '" + text + "'");
  return v;
}

// "1,4,5" -> {1, 4, 5}, each in lo..hi.
inline std::vector<long long> parse_count_list(const std::string& flag, const std::string& text, long long lo,
                                               long long hi) {
  std::vector<long long> out;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    const long long v = parse_count(flag, text.substr(start, comma - start), lo);
    if (v > hi) throw Error(flag + ": " + std::to_string(v) + " is above the largest allowed, " + std::to_string(hi));
    out.push_back(v);
    start = comma + 1;
  }
  return out;
}

inline void set_host_threads(int n) {
#ifdef _OPENMP
  omp_set_num_threads(n);
#else
  (void)n;
#endif
}

}  // namespace tb::bench
