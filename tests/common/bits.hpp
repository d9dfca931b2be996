#pragma once
// Bit-for-bit comparison of twins (a kernel against its ref:: version): the
// first index where two arrays differ, and a gtest assertion that names it.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstring>
#include <span>
#include <string>
#include <vector>

namespace tb::test {

// The first index where a and b differ in any bit, -1 where they are equal
// (0 when their lengths differ).
inline long first_difference(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() != b.size()) return 0;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (std::memcmp(&a[i], &b[i], sizeof(double)) != 0) return long(i);
  return -1;
}

inline bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// Whole arrays: the same length and every bit alike.
inline bool same_bits(std::span<const double> a, std::span<const double> b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

// A gtest failure naming `what` and the first index where a and b differ.
inline void expect_bitwise(const std::vector<double>& a, const std::vector<double>& b, const std::string& what) {
  ASSERT_EQ(a.size(), b.size()) << what;
  const long at = first_difference(a, b);
  EXPECT_EQ(at, -1) << what << " differs at " << at << ": " << (at >= 0 ? a[std::size_t(at)] : 0.0) << " against "
                    << (at >= 0 ? b[std::size_t(at)] : 0.0);
}

}  // namespace tb::test

#define EXPECT_SAME_BITS(a, b)                                                                                     \
  do {                                                                                                             \
    const long at = ::tb::test::first_difference(a, b);                                                            \
    EXPECT_EQ(at, -1) << #a << " and " << #b << " differ at " << at << ": " << (a)[std::size_t(at)] << " against " \
                      << (b)[std::size_t(at)];                                                                     \
  } while (0)
