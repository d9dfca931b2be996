// Sampleselect (seed 003 §III) against std::nth_element, and the approximate
// variant within one bucket of the asked rank.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "selection_data.hpp"
#include "solvers/core/error.hpp"
#include "solvers/parilut/kernels.hpp"
#include "solvers/parilut/sample_select.hpp"
#include "solvers/parilut/splitter_tree.hpp"

namespace tb::parilut {
namespace {

using test::magnitudes;
using test::nth;

TEST(SampleSelect, ExactEqualsNthElement) {
  for (std::size_t n : {std::size_t(1), std::size_t(100), std::size_t(5000), std::size_t(300000)})
    for (int distinct : {3, 1000, 1 << 30}) {
      const std::vector<double> v = magnitudes(n, distinct, unsigned(n + distinct));
      for (std::size_t k : {std::size_t(0), n / 3, n / 2, n - 1}) {
        const Selection s = sample_select(v, k);
        EXPECT_EQ(s.value, nth(v, k)) << "n = " << n << ", distinct = " << distinct << ", k = " << k;
        EXPECT_LE(s.below, k);
        EXPECT_GT(s.not_above, k);
        EXPECT_EQ(quick_select(v, k).value, s.value);
      }
    }
}

TEST(SampleSelect, AllEqualDataTerminate) {
  const std::vector<double> v(200000, 3.0);
  EXPECT_EQ(sample_select(v, 12345).value, 3.0);
  EXPECT_EQ(sample_select_approx(v, 12345).value, 3.0);
}

TEST(SampleSelect, ApproximateIsWithinOneBucketAbove) {
  const std::size_t n = 400000;
  const std::vector<double> v = magnitudes(n, 1 << 30, 5);
  for (std::size_t k : {std::size_t(10), n / 4, n / 2, 3 * n / 4}) {
    const Selection s = sample_select_approx(v, k);
    const Selection r = rank_of(v, s.value);
    EXPECT_EQ(s.below, r.below);  // the count it reports is exact
    EXPECT_GT(r.below, k);        // at least k + 1 elements lie below the threshold ...
    // ... and not many more: one bucket of a 256-way split of a 1024 sample,
    // generously bounded at 4 / 256 of the data.
    EXPECT_LE(r.below - k, 4 * n / 256) << "k = " << k;
  }
}

TEST(SplitterTree, EightWideClassificationEqualsTheReference) {
  for (std::size_t n : {std::size_t(7), std::size_t(100003)}) {
    const std::vector<double> v = magnitudes(n, 1 << 30, 11);
    std::vector<double> sample;
    const SplitterTree tree = pick_splitters(v, sample);
    const std::vector<double> s = sorted_splitters(tree);
    EXPECT_TRUE(std::is_sorted(s.begin(), s.end()));
    std::vector<std::uint8_t> ref, omp;
    EXPECT_EQ(kernels::ref::classify(v, tree, ref), kernels::omp::classify(v, tree, omp));
    EXPECT_EQ(ref, omp);
    for (std::size_t i = 0; i < n; i += 997) {  // bucket b holds [s_b, s_{b+1})
      const int b = ref[i];
      if (b > 0) {
        EXPECT_GE(v[i], s[b - 1]);
      }
      if (b < select_buckets - 1) {
        EXPECT_LT(v[i], s[b]);
      }
    }
  }
}

TEST(SplitterTree, RanksOfTheLevelOrderNodesFollowTheInOrderWalk) {
  // The closed form the CUDA sample kernel builds its tree with, against the
  // recursive construction: with distinct splitters, node i holds the
  // splitter_rank(i)-th smallest.
  const std::vector<double> v = magnitudes(100003, 1 << 30, 13);
  std::vector<double> sample;
  const SplitterTree tree = pick_splitters(v, sample);
  const std::vector<double> s = sorted_splitters(tree);
  ASSERT_EQ(std::adjacent_find(s.begin(), s.end()), s.end());
  for (int node = 0; node < tree_splitters; ++node)
    EXPECT_EQ(tree[std::size_t(node)], s[std::size_t(splitter_rank(node))]) << node;
  EXPECT_EQ(splitter_rank(0), select_buckets / 2 - 1);
  EXPECT_EQ(splitter_rank(tree_splitters - 1), tree_splitters - 1);
}

TEST(SampleSelect, RankBeyondTheDataIsRefused) {
  const std::vector<double> v(10, 1.0);
  EXPECT_THROW(sample_select(v, 10), Error);
  EXPECT_THROW(sample_select_approx(v, 10), Error);
}

}  // namespace
}  // namespace tb::parilut
