// DIA storage (seed 004 §III-B): conversions from BSR and from seed 000's
// 7-point format, slicing, numeric updates, and the DIA SpMV kernels against
// the BSR SpMV on random banded and stencil matrices.
#include <gtest/gtest.h>

#include <string>

#include "../../common/random.hpp"
#include "banded_systems.hpp"
#include "solvers/banded/banded_product.hpp"
#include "solvers/banded/owned_rows.hpp"
#include "solvers/core/error.hpp"
#include "solvers/matrix/stencil7_matrix.hpp"

namespace tb {
namespace {

using banded::DiaMatrix;

std::vector<double> bsr_product(const BsrMatrix& a, const std::vector<double>& x) {
  std::vector<double> y(x.size());
  spmv_ref(a, x.data(), y.data());
  return y;
}

// y = A x through extended vectors and the dispatched kernel over all rows.
std::vector<double> dia_product(const DiaMatrix& a, const std::vector<double>& x) {
  comm::GhostedVector xe(Backend::host, a.rows, a.band());
  std::copy(x.begin(), x.end(), xe.owned());
  std::vector<double> y(x.size());
  banded::kernels::dia_spmv(Backend::host, view(a), 0, a.rows, xe.ext(), y.data());
  return y;
}

TEST(DiaMatrix, OffsetsBandAndRowContiguousValues) {
  const BsrMatrix a = test::random_banded(10, {-3, -1, 0, 2}, 1);
  const DiaMatrix d = banded::dia_from_bsr(a);
  EXPECT_EQ(d.offsets, (std::vector<index_t>{-3, -1, 0, 2}));
  EXPECT_EQ(d.band(), 3);
  ASSERT_EQ(d.values.size(), 40u);
  // Row 5, offset +2 is A(5, 7); row 9, offset +2 is outside the matrix: 0.
  EXPECT_EQ(d.values[5 * 4 + 3], a.values[std::size_t(a.find_block(5, 7))]);
  EXPECT_EQ(d.values[9 * 4 + 3], 0.0);
  EXPECT_EQ(d.values[0 * 4 + 0], 0.0);
}

TEST(DiaMatrix, SpmvEqualsBsrSpmvOnRandomBandedMatrices) {
  for (unsigned seed : {1u, 2u, 3u}) {
    const BsrMatrix a = test::random_banded(57, {-9, -4, -1, 0, 1, 3, 9}, seed);
    const auto x = test::random_vector(57, seed + 10);
    const DiaMatrix d = banded::dia_from_bsr(a);
    const auto want = bsr_product(a, x);
    const auto got = dia_product(d, x);
    for (std::size_t i = 0; i < x.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-14 * (1 + std::abs(want[i]))) << i;
    std::vector<double> whole(x.size());
    banded::multiply_whole(d, x.data(), whole.data());
    EXPECT_EQ(whole, got);
  }
}

// min_fill moves the sparse diagonals to the remainder; the product, the
// slices and the numeric update must not notice.
TEST(DiaMatrix, SparseDiagonalsGoToTheRemainder) {
  BsrMatrix a = test::banded_with_sparse_diagonals(80, {-7, -1, 0, 1, 7}, {-16, -9, 12, 15}, 11, 4);
  banded::DiaMap map;
  DiaMatrix d = banded::dia_from_bsr(a, &map, 0.5);
  EXPECT_EQ(d.offsets, (std::vector<index_t>{-7, -1, 0, 1, 7}));
  EXPECT_EQ(d.band(), 16);  // the remainder's offsets widen the ghost zones
  ASSERT_EQ(d.rest_ptr.size(), 81u);
  EXPECT_EQ(d.rest_ptr[1] - d.rest_ptr[0], 2);  // row 0: +12 and +15 only
  EXPECT_EQ(d.rest_offsets.size(), d.rest_values.size());
  const auto x = test::random_vector(80, 6);
  const auto want = bsr_product(a, x), got = dia_product(d, x);
  for (std::size_t i = 0; i < x.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-14 * (1 + std::abs(want[i]))) << i;
  std::vector<double> whole(x.size());
  banded::multiply_whole(d, x.data(), whole.data());
  EXPECT_EQ(whole, got);
  // Without min_fill every diagonal is stored whole: the same product.
  const DiaMatrix pure = banded::dia_from_bsr(a);
  EXPECT_EQ(pure.ndiag(), 9);
  EXPECT_TRUE(pure.rest_offsets.empty());
  const auto got_pure = dia_product(pure, x);
  for (std::size_t i = 0; i < x.size(); ++i) EXPECT_NEAR(got_pure[i], want[i], 1e-14 * (1 + std::abs(want[i])));
  // Slabs: a slice of the whole equals the conversion of those rows.
  const DiaMatrix slab = banded::dia_from_bsr(a, 23, 30, nullptr, 0.5);
  const DiaMatrix cut = banded::slice_rows(d, 23, 30);
  EXPECT_EQ(cut.offsets, slab.offsets);
  EXPECT_EQ(cut.rest_ptr, slab.rest_ptr);
  EXPECT_EQ(cut.rest_offsets, slab.rest_offsets);
  EXPECT_EQ(cut.rest_values, slab.rest_values);
  EXPECT_EQ(cut.values, slab.values);
  // Rows 1-9 hold no remainder entry, yet their slab has the whole matrix's band
  // (every rank's ghost zones are the same size).
  const DiaMatrix quiet = banded::dia_from_bsr(a, 1, 9, nullptr, 0.5);
  EXPECT_TRUE(quiet.rest_offsets.empty());
  EXPECT_EQ(quiet.band(), 16);
  // Numeric update with the map of the pattern.
  for (double& v : a.values) v *= 1.75;
  banded::update_values(a, map, d);
  const DiaMatrix fresh = banded::dia_from_bsr(a, nullptr, 0.5);
  EXPECT_EQ(d.values, fresh.values);
  EXPECT_EQ(d.rest_values, fresh.rest_values);
  EXPECT_THROW(banded::dia_from_bsr(a, nullptr, 1.5), Error);
}

TEST(DiaMatrix, SpmvEqualsBsrSpmvOnStencil7) {
  const BsrMatrix a = test::poisson7(7, 5, 4, false);
  const auto x = test::random_vector(std::size_t(a.rows()), 4);
  const DiaMatrix d = banded::dia_from_bsr(a);
  EXPECT_EQ(d.offsets, (std::vector<index_t>{-35, -7, -1, 0, 1, 7, 35}));
  const auto want = bsr_product(a, x);
  const auto got = dia_product(d, x);
  for (std::size_t i = 0; i < x.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-13 * (1 + std::abs(want[i])));
}

TEST(DiaMatrix, FromStencil7MatrixEqualsFromBsr) {
  const BsrMatrix a = test::poisson7(6, 4, 3, false);
  const fgbilu::GridShape g{6, 4, 3};
  for (auto order : {fgbilu::CellOrder::wavefront, fgbilu::CellOrder::natural}) {
    const fgbilu::Stencil7Matrix s = fgbilu::stencil7_from_bsr(a, g, nullptr, order);
    const DiaMatrix from_s = banded::dia_from_stencil7(s);
    const DiaMatrix from_a = banded::dia_from_bsr(a);
    EXPECT_EQ(from_s.offsets, from_a.offsets);
    EXPECT_EQ(from_s.values, from_a.values);
  }
}

TEST(DiaMatrix, RefusesBlockMatricesNamingTheBlockSize) {
  Stencil7Params p;
  p.nx = p.ny = p.nz = 3, p.block_size = 2;
  const BsrMatrix a = generate_stencil7(p);
  try {
    banded::dia_from_bsr(a);
    FAIL() << "block size 2 accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("block size 2"), std::string::npos) << e.what();
  }
  const fgbilu::Stencil7Matrix s = fgbilu::stencil7_from_bsr(a, {3, 3, 3});
  EXPECT_THROW(banded::dia_from_stencil7(s), Error);
}

TEST(DiaMatrix, SlabsKeepTheWholeMatrixOffsets) {
  const BsrMatrix a = test::random_banded(30, {-5, 0, 1, 5}, 8);
  const DiaMatrix whole = banded::dia_from_bsr(a);
  const DiaMatrix slab = banded::dia_from_bsr(a, 10, 7);
  EXPECT_EQ(slab.offsets, whole.offsets);
  EXPECT_EQ(slab.first_row, 10);
  const DiaMatrix cut = banded::slice_rows(whole, 10, 7);
  EXPECT_EQ(cut.values, slab.values);
  const DiaMatrix cut2 = banded::slice_rows(cut, 12, 3);
  EXPECT_EQ(cut2.values, banded::dia_from_bsr(a, 12, 3).values);
  EXPECT_THROW(banded::slice_rows(cut, 9, 2), Error);
  EXPECT_THROW(banded::dia_from_bsr(a, 25, 6), Error);
  EXPECT_NO_THROW(banded::dia_from_bsr(a, 30, 0));
}

TEST(DiaMatrix, UpdateValuesFollowsNewNumbers) {
  BsrMatrix a = test::random_banded(20, {-2, 0, 3}, 5);
  banded::DiaMap map;
  DiaMatrix d = banded::dia_from_bsr(a, 4, 9, &map);
  for (double& v : a.values) v *= -2.5;
  banded::update_values(a, map, d);
  EXPECT_EQ(d.values, banded::dia_from_bsr(a, 4, 9).values);
}

// Rows [first, first + rows) of a, global columns: what a rank assembles.
BsrMatrix block_of_rows(const BsrMatrix& a, index_t first, index_t rows) {
  BsrMatrix r;
  r.block_rows = rows;
  r.block_cols = a.block_cols;
  r.row_ptr.assign(1, 0);
  for (index_t i = first; i < first + rows; ++i) {
    for (index_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) {
      r.col_idx.push_back(a.col_idx[k]);
      r.values.push_back(a.values[std::size_t(k)]);
    }
    r.row_ptr.push_back(index_t(r.col_idx.size()));
  }
  return r;
}

// dia_from_bsr in steps: a block of rows converted with the whole matrix's
// choice of diagonals is the slab dia_from_bsr cuts.
TEST(DiaMatrix, BlocksOfRowsWithTheWholeMatrixsDiagonalsAreItsSlabs) {
  const BsrMatrix a = test::banded_with_sparse_diagonals(90, {-9, -1, 0, 1, 9}, {-40, 33}, 6, 4);
  for (const double min_fill : {0.0, 0.5}) {
    const auto choice = banded::choose_diagonals(banded::count_diagonals(a, 0), 90, min_fill);
    for (const auto& [first, rows] : {std::pair<index_t, index_t>{0, 90}, {17, 40}, {89, 1}, {30, 0}}) {
      SCOPED_TRACE(std::to_string(first) + "+" + std::to_string(rows) + ", min_fill " + std::to_string(min_fill));
      banded::DiaMap map;
      const DiaMatrix d = banded::dia_from_rows(block_of_rows(a, first, rows), first, choice, &map);
      test::expect_same_dia(d, banded::dia_from_bsr(a, first, rows, nullptr, min_fill));
    }
  }
  // A block whose entry lies on a diagonal the choice lacks is refused.
  const auto narrow =
      banded::choose_diagonals(banded::count_diagonals(test::random_banded(90, {-1, 0, 1}, 2), 0), 90, 0);
  EXPECT_THROW(banded::dia_from_rows(block_of_rows(a, 0, 10), 0, narrow), Error);
  EXPECT_THROW(banded::dia_from_rows(block_of_rows(a, 0, 10), 85, narrow), Error);  // rows past n
}

// On one process the owned rows are the whole matrix: the slabs of
// dia_from_bsr and transposed_dia_from_bsr, before and after an update.
TEST(DiaMatrix, OwnedRowsOfOneProcessAreTheWholeMatrixsSlabs) {
  BsrMatrix a = test::banded_with_sparse_diagonals(120, {-10, -1, 0, 1, 10}, {-23, 19}, 7, 3);
  const auto& self = *comm::self_communicator();
  banded::OwnedRowsDia owned(a, self, 0.5, true);
  EXPECT_EQ(owned.partition().starts, (std::vector<index_t>{0, 120}));
  for (int round = 0; round < 2; ++round) {
    SCOPED_TRACE(round ? "after an update" : "at set-up");
    banded::DiaMap map;
    test::expect_same_dia(owned.slab(), banded::dia_from_bsr(a, nullptr, 0.5));
    test::expect_same_dia(owned.transposed_slab(), banded::transposed_dia_from_bsr(a, 0, 120, map, 0.5));
    for (std::size_t k = 0; k < a.values.size(); ++k) a.values[k] *= 1.0 + 0.01 * double(k % 5);
    owned.update_values(a, self);
  }
  EXPECT_EQ(owned.received_entries(), 0u);
  BsrMatrix rectangular = block_of_rows(a, 0, 100);
  EXPECT_THROW(banded::OwnedRowsDia(rectangular, self, 0.5, true), Error);
}

// A do-nothing exchange with two phases: the product must split the interior
// rows into two chunks and still compute every row once.
class TwoPhaseLocal final : public comm::GhostExchange {
 public:
  int phases() const override { return 2; }
  void post(int phase, comm::GhostedVector&) override { posted |= 1 << phase; }
  void complete(int phase, comm::GhostedVector&) override { completed |= 1 << phase; }
  int posted = 0, completed = 0;
};

TEST(DiaMatrix, TransposedSlabsHoldTheRowsOfTheTransposeAndFollowUpdates) {
  BsrMatrix a = test::banded_with_sparse_diagonals(200, {-9, -1, 0, 2, 9}, {-61, 37}, 5, 8);
  const index_t n = a.block_rows;
  const auto x = test::random_vector(std::size_t(n), 9);
  auto transpose_times = [&](const BsrMatrix& m) {
    std::vector<double> y(std::size_t(n), 0.0);
    for (index_t i = 0; i < n; ++i)
      for (index_t k = m.row_ptr[i]; k < m.row_ptr[i + 1]; ++k)
        y[std::size_t(m.col_idx[k])] += m.values[std::size_t(k)] * x[std::size_t(i)];
    return y;
  };
  banded::DiaMap map;
  DiaMatrix t = banded::transposed_dia_from_bsr(a, 0, n, map, 0.5);
  ASSERT_FALSE(t.rest_offsets.empty());
  EXPECT_EQ(t.band(), banded::dia_from_bsr(a, nullptr, 0.5).band());
  std::vector<double> y(static_cast<std::size_t>(n));
  banded::multiply_whole(t, x.data(), y.data());
  auto expected = transpose_times(a);
  for (std::size_t i = 0; i < y.size(); ++i) EXPECT_NEAR(y[i], expected[i], 1e-13) << i;
  // The map reads A's own values: an update needs no new transpose.
  for (std::size_t k = 0; k < a.values.size(); ++k) a.values[k] *= 1.0 + 0.01 * double(k % 7);
  banded::update_values(a, map, t);
  banded::multiply_whole(t, x.data(), y.data());
  expected = transpose_times(a);
  for (std::size_t i = 0; i < y.size(); ++i) EXPECT_NEAR(y[i], expected[i], 1e-13) << i;
  // A slab of the transpose is that slab's rows.
  banded::DiaMap slab_map;
  const DiaMatrix part = banded::transposed_dia_from_bsr(a, 50, 70, slab_map, 0.5);
  EXPECT_EQ(part.first_row, 50);
  EXPECT_EQ(part.values, banded::slice_rows(t, 50, 70).values);
}

TEST(DiaProduct, OverlappedRowRangesCoverEveryRow) {
  for (index_t n : {3, 8, 41}) {
    const BsrMatrix a = test::random_banded(n, {-4, 0, 2}, 11);
    const DiaMatrix d = banded::dia_from_bsr(a);
    banded::DiaProduct prod(d, Backend::host);
    comm::GhostedVector x(Backend::host, n, d.band());
    const auto xv = test::random_vector(std::size_t(n), 3);
    std::copy(xv.begin(), xv.end(), x.owned());
    std::vector<double> y(std::size_t(n), -7.0);
    TwoPhaseLocal ex;
    banded::SolveTimes t;
    prod.multiply(ex, x, y.data(), t);
    EXPECT_EQ(ex.posted, 3);
    EXPECT_EQ(ex.completed, 3);
    std::vector<double> want(static_cast<std::size_t>(n));
    banded::multiply_whole(d, xv.data(), want.data());
    EXPECT_EQ(y, want) << "n = " << n;
  }
}

}  // namespace
}  // namespace tb
