// The threading policy (solvers/core/threading.hpp): the budget from cores, load
// and ranks, the grain below which a region stays serial, and sums whose bits do
// not depend on the team size.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <random>
#include <vector>

#include "solvers/core/kernels.hpp"
#include "solvers/core/ordered_sum.hpp"
#include "solvers/core/process_environment.hpp"
#include "solvers/core/threading.hpp"

namespace tb {
namespace {

TEST(Threading, BudgetLeavesTheBusyCoresAndSplitsAmongRanks) {
  EXPECT_EQ(threading::budget_for(2, 0, 1), 2);
  EXPECT_EQ(threading::budget_for(2, 1, 1), 1);  // one busy process: one thread
  EXPECT_EQ(threading::budget_for(2, 7, 1), 1);  // never fewer than one
  EXPECT_EQ(threading::budget_for(16, 0, 2), 8);
  EXPECT_EQ(threading::budget_for(16, 4, 2), 6);  // the others spread over the ranks
  EXPECT_EQ(threading::budget_for(2, 0, 2), 1);   // two ranks on two cores
  EXPECT_EQ(threading::budget_for(1, 0, 4), 1);
}

TEST(Threading, WaitsArePassiveUnlessTheUserSaidOtherwise) {
  // Every test executable links tb_core, whose .preinit_array sets the policy.
  const char* wait = std::getenv("OMP_WAIT_POLICY");
  ASSERT_NE(wait, nullptr);
  if (process_environment::set_by_program("OMP_WAIT_POLICY")) {
    EXPECT_STREQ(wait, "passive");
  }
}

TEST(ProcessEnvironment, LargeAllocationsUseHugePagesUnlessTheUserSaidOtherwise) {
  const char* tunables = std::getenv("GLIBC_TUNABLES");
  ASSERT_NE(tunables, nullptr);
  if (process_environment::set_by_program("GLIBC_TUNABLES")) {
    EXPECT_STREQ(tunables, "glibc.malloc.hugetlb=1");
  }
  EXPECT_FALSE(process_environment::set_by_program("PATH"));
}

TEST(Threading, SmallWorkStaysOnOneThread) {
  threading::fix_threads(2);
  EXPECT_EQ(threading::budget(), 2);
  EXPECT_EQ(threading::threads_for(2 * threading::stream_grain - 1, threading::stream_grain), 1);
  EXPECT_EQ(threading::threads_for(2 * threading::stream_grain, threading::stream_grain), 2);
  EXPECT_EQ(threading::threads_for(100 * threading::stream_grain, threading::stream_grain), 2);
  threading::fix_threads(1);
  EXPECT_EQ(threading::threads_for(100 * threading::stream_grain, threading::stream_grain), 1);
}

std::vector<double> random_values(std::size_t n, unsigned seed) {
  std::mt19937_64 gen(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<double> v(n);
  for (double& x : v) x = u(gen) * std::exp(8.0 * u(gen));  // wide magnitudes: rounding shows
  return v;
}

// The 64 parts of ordered_sum.hpp added by hand, in order.
double hand_ordered_sum(const std::vector<double>& v) {
  double total = 0.0;
  const auto n = std::ptrdiff_t(v.size());
  for (int p = 0; p < ordered_parts; ++p) {
    double part = 0.0;
    for (std::ptrdiff_t i = ordered_part_begin(n, p); i < ordered_part_begin(n, p + 1); ++i) part += v[std::size_t(i)];
    total += part;
  }
  return total;
}

TEST(OrderedSum, SameBitsForEveryTeamSize) {
  for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(63), std::size_t(1000), std::size_t(300001)}) {
    const std::vector<double> v = random_values(n, unsigned(n) + 1);
    const double want = hand_ordered_sum(v);
    for (int threads : {1, 2, 3}) {
      threading::fix_threads(threads);
      const auto got =
          ordered_sums<1>(std::ptrdiff_t(n), 1, [&](std::ptrdiff_t i, double* s) { s[0] += v[std::size_t(i)]; });
      EXPECT_EQ(got[0], want) << "n " << n << ", " << threads << " threads";
    }
  }
}

TEST(OrderedSum, DotProductsRepeatAcrossTeamSizes) {
  const std::size_t n = 8 * std::size_t(threading::stream_grain) + 17;  // long enough to split
  const std::vector<double> x = random_values(n, 3), y = random_values(n, 4);
  threading::fix_threads(1);
  const double one = kernels::omp::dot(x.data(), y.data(), n);
  const double* vs[3] = {x.data(), y.data(), x.data()};
  double multi_one[3];
  kernels::omp::multi_dot(vs, 3, y.data(), multi_one, n);
  for (int threads : {2, 3}) {
    threading::fix_threads(threads);
    EXPECT_EQ(kernels::omp::dot(x.data(), y.data(), n), one) << threads << " threads";
    double multi[3];
    kernels::omp::multi_dot(vs, 3, y.data(), multi, n);
    for (int k = 0; k < 3; ++k) EXPECT_EQ(multi[k], multi_one[k]) << threads << " threads, vector " << k;
  }
  EXPECT_EQ(multi_one[0], one);
  // And the order is a sum, not something else: close to the plain loop.
  double magnitude = 0.0;
  for (std::size_t i = 0; i < n; ++i) magnitude += std::abs(x[i] * y[i]);
  EXPECT_NEAR(one, kernels::ref::dot(x.data(), y.data(), n), 1e-13 * magnitude);
}

}  // namespace
}  // namespace tb
