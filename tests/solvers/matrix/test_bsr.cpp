#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "../../common/random.hpp"
#include "solvers/core/error.hpp"
#include "solvers/matrix/bsr.hpp"
#include "solvers/matrix/bsr_operator.hpp"

namespace tb {
namespace {

// A square block matrix with a diagonal block in every row and about
// 'density' of the other blocks present.
BsrMatrix random_bsr(index_t block_rows, index_t bs, double density, unsigned seed) {
  std::mt19937 rng(seed);
  std::bernoulli_distribution keep(density);
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  BsrMatrix a;
  a.block_size = bs;
  a.block_rows = a.block_cols = block_rows;
  for (index_t i = 0; i < block_rows; ++i) {
    for (index_t j = 0; j < block_rows; ++j)
      if (i == j || keep(rng)) a.col_idx.push_back(j);
    a.row_ptr.push_back(index_t(a.col_idx.size()));
  }
  a.values.resize(a.col_idx.size() * std::size_t(bs) * bs);
  for (auto& v : a.values) v = value(rng);
  return a;
}

using test::random_vector;

class SpmvBlockSize : public ::testing::TestWithParam<index_t> {};

TEST_P(SpmvBlockSize, MatchesReference) {
  const index_t bs = GetParam();
  const BsrMatrix a = random_bsr(37, bs, 0.15, 11 + unsigned(bs));
  a.validate();
  const auto x = random_vector(std::size_t(a.cols()), 2);
  std::vector<double> y(std::size_t(a.rows()), 99.0), y_ref(std::size_t(a.rows()), -99.0);
  spmv(a, x.data(), y.data());
  spmv_ref(a, x.data(), y_ref.data());
  for (std::size_t i = 0; i < y.size(); ++i) EXPECT_NEAR(y[i], y_ref[i], 1e-12 * (1.0 + std::abs(y_ref[i]))) << i;

  // And against the scalar CSR product of the same matrix.
  const CsrMatrix c = bsr_to_csr(a);
  std::vector<double> y_csr(y.size());
  spmv_ref(c, x.data(), y_csr.data());
  for (std::size_t i = 0; i < y.size(); ++i) EXPECT_NEAR(y_csr[i], y_ref[i], 1e-12 * (1.0 + std::abs(y_ref[i]))) << i;
}

INSTANTIATE_TEST_SUITE_P(Bsr, SpmvBlockSize, ::testing::Values(1, 2, 3, 4, 5, 6, 7, 8, 9, 13),
                         [](const auto& info) { return "bs" + std::to_string(info.param); });

TEST(BsrConversion, BsrToCsrToBsrRoundTrip) {
  for (index_t bs : {1, 3, 4, 13}) {
    const BsrMatrix a = random_bsr(9, bs, 0.3, unsigned(bs));
    const CsrMatrix c = bsr_to_csr(a);
    c.validate();
    EXPECT_EQ(c.nnz(), a.nnz_blocks() * a.block_entries());
    const BsrMatrix back = csr_to_bsr(c, bs);
    back.validate();
    EXPECT_TRUE(back.same_pattern(a)) << "bs " << bs;
    EXPECT_EQ(back.values, a.values) << "bs " << bs;
  }
}

TEST(BsrConversion, CsrToBsrToCsrDroppingZerosGivesBackTheCsr) {
  // 6x6 with entries scattered so some blocks are partly filled.
  CsrMatrix c;
  c.rows = c.cols = 6;
  c.row_ptr = {0, 2, 3, 4, 6, 6, 8};
  c.col_idx = {0, 5, 1, 3, 2, 4, 0, 5};
  c.values = {1, 2, 3, 4, 5, 6, 7, 8};
  for (index_t bs : {1, 2, 3, 6}) {
    const BsrMatrix b = csr_to_bsr(c, bs);
    b.validate();
    const CsrMatrix back = bsr_to_csr(b, true);
    EXPECT_EQ(back.row_ptr, c.row_ptr) << "bs " << bs;
    EXPECT_EQ(back.col_idx, c.col_idx) << "bs " << bs;
    EXPECT_EQ(back.values, c.values) << "bs " << bs;
  }
  const BsrMatrix b2 = csr_to_bsr(c, 2);
  EXPECT_EQ(b2.block_rows, 3);
  EXPECT_EQ(b2.col_idx, (std::vector<index_t>{0, 2, 1, 2, 0, 2}));
}

TEST(BsrConversion, RefusesBlockSizesThatDoNotFit) {
  CsrMatrix c;
  c.rows = c.cols = 6;
  c.row_ptr.assign(7, 0);
  EXPECT_THROW(csr_to_bsr(c, 4), Error);
  EXPECT_THROW(csr_to_bsr(c, 0), Error);
  EXPECT_THROW(csr_to_bsr(c, max_block_size + 1), Error);
}

void expect_invalid(const BsrMatrix& a, const std::string& fragment) {
  try {
    a.validate();
    ADD_FAILURE() << "validate accepted a matrix with: " << fragment;
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
  }
}

TEST(BsrValidate, ReportsEachDefect) {
  const BsrMatrix good = random_bsr(4, 2, 0.5, 1);
  good.validate();

  BsrMatrix a = good;
  a.block_size = 0;
  expect_invalid(a, "block size 0 outside 1..64");
  a = good;
  a.block_size = 65;
  expect_invalid(a, "block size 65");
  a = good;
  a.row_ptr.pop_back();
  expect_invalid(a, "row_ptr has 4 entries");
  a = good;
  a.values.pop_back();
  expect_invalid(a, "values size");
  a = good;
  a.col_idx[std::size_t(a.row_ptr[2])] = 7;
  expect_invalid(a, "block column out of range in block row 2");
  a = good;
  a.row_ptr[2] = a.row_ptr[1] - 1;
  expect_invalid(a, "block row 1");
  a = good;
  a.row_ptr.back() += 1;
  expect_invalid(a, "disagree");
  a = good;
  const index_t k = a.row_ptr[3];
  ASSERT_GE(a.row_ptr[4] - k, 2);  // diagonal plus at least one other block in the last row
  std::swap(a.col_idx[k], a.col_idx[k + 1]);
  expect_invalid(a, "not sorted and unique in block row 3");
}

TEST(BsrValidate, DiagonalPositions) {
  BsrMatrix a = random_bsr(5, 2, 0.4, 3);
  const auto diag = a.diagonal_positions();
  for (index_t i = 0; i < 5; ++i) EXPECT_EQ(a.col_idx[diag[i]], i);
  BsrMatrix b;
  b.block_rows = b.block_cols = 2;
  b.row_ptr = {0, 1, 2};
  b.col_idx = {0, 0};
  b.values = {1, 1};
  EXPECT_THROW(b.diagonal_positions(), Error);
}

TEST(BsrResidual, MatchesHandComputation) {
  BsrMatrix a;
  a.block_size = 2;
  a.block_rows = a.block_cols = 1;
  a.row_ptr = {0, 1};
  a.col_idx = {0};
  a.values = {2, 1, 0, 3};                           // [[2 1] [0 3]]
  const std::vector<double> x = {1, 1}, b = {6, 7};  // Ax = (3, 3), b - Ax = (3, 4)
  EXPECT_DOUBLE_EQ(residual_norm(a, x, b), 5.0);
}

// The operator's product, as host vectors.
std::vector<double> product(const BsrOperator& op, const std::vector<double>& x) {
  Vector xv(Backend::host, std::span<const double>(x)), yv(Backend::host, x.size());
  op.apply(xv, yv);
  return yv.to_host();
}

// A fresh copy's product: the same kernel, so the same bits.
std::vector<double> product(const BsrMatrix& a, const std::vector<double>& x) {
  return product(BsrOperator(a, Backend::host), x);
}

// A copying operator keeps the values it was given until update_values; a
// borrowing one applies the matrix it was last given, as that matrix stands,
// and holds no copy of it.
TEST(BsrOperatorStorage, ACopyKeepsItsValuesABorrowerAppliesTheMatrixGiven) {
  BsrMatrix a = random_bsr(9, 3, 0.3, 5);
  const auto x = random_vector(std::size_t(a.cols()), 3);
  const auto before = product(a, x);
  const BsrOperator copy(a, Backend::host);
  BsrOperator borrower(a, Backend::host, BsrOperator::Storage::borrow);
  EXPECT_FALSE(copy.borrows());
  EXPECT_TRUE(borrower.borrows());
  EXPECT_EQ(borrower.view().values, a.values.data());  // no copy
  EXPECT_EQ(product(borrower, x), before);

  for (auto& v : a.values) v *= 2.0;
  EXPECT_EQ(product(copy, x), before);             // its own numbers until update_values
  EXPECT_EQ(product(borrower, x), product(a, x));  // the matrix as it stands

  // Another matrix with the same pattern: the borrower applies it from update_values on.
  BsrMatrix other = a;
  for (auto& v : other.values) v = -v;
  borrower.update_values(other);
  EXPECT_EQ(borrower.view().values, other.values.data());
  EXPECT_EQ(product(borrower, x), product(other, x));

  BsrMatrix wrong = random_bsr(8, 3, 0.3, 6);
  EXPECT_THROW(borrower.update_values(wrong), Error);
}

}  // namespace
}  // namespace tb
