// The finite-volume Poisson generator against what it must be: symmetric,
// rows summing to zero under Neumann conditions, the fixed cell's row the
// identity with its neighbours' couplings stored as zeros, the face
// coefficients area over centre distance, periodic columns where asked.
#include <gtest/gtest.h>

#include <cmath>

#include "solvers/core/error.hpp"
#include "solvers/matrix/generator_spec.hpp"
#include "solvers/matrix/poisson.hpp"

namespace tb {
namespace {

double entry(const BsrMatrix& a, index_t i, index_t j) {
  const index_t k = a.find_block(i, j);
  return k < 0 ? 0.0 : a.values[std::size_t(k)];
}

TEST(Poisson, NeumannRowsSumToZeroAndTheMatrixIsSymmetric) {
  PoissonParams p;
  p.nx = 7, p.ny = 5, p.nz = 4, p.cluster[0] = 1.2, p.cluster[2] = 0.7;
  const BsrMatrix a = generate_poisson(p);
  a.validate();
  ASSERT_EQ(a.block_rows, 140);
  for (index_t i = 0; i < a.block_rows; ++i) {
    double sum = 0.0;
    for (index_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) {
      sum += a.values[std::size_t(k)];
      EXPECT_DOUBLE_EQ(a.values[std::size_t(k)], entry(a, a.col_idx[std::size_t(k)], i));
    }
    EXPECT_NEAR(sum, 0.0, 1e-14) << i;
  }
  // The face between cells 0 and 1 in i: area h_y h_z over the centre distance.
  const auto hx = clustered_widths(7, 1.0, 1.2), hy = clustered_widths(5, 1.0, 0.0), hz = clustered_widths(4, 1.0, 0.7);
  EXPECT_DOUBLE_EQ(-entry(a, 0, 1), hy[0] * hz[0] / (0.5 * (hx[0] + hx[1])));
  double total = 0.0;
  for (double h : hx) total += h;
  EXPECT_NEAR(total, 1.0, 1e-14);
  EXPECT_LT(hx[0], hx[3]);  // clustered towards the walls
}

TEST(Poisson, PinnedCellAndPeriodicColumns) {
  PoissonParams p;
  p.nx = 4, p.ny = 3, p.nz = 1, p.pin = true, p.periodic_i = true;
  const BsrMatrix a = generate_poisson(p);
  EXPECT_EQ(entry(a, 0, 0), 1.0);
  EXPECT_EQ(a.find_block(0, 1) >= 0, true);
  EXPECT_EQ(entry(a, 0, 1), 0.0);
  EXPECT_EQ(entry(a, 1, 0), 0.0);
  EXPECT_EQ(entry(a, 3, 0), 0.0);  // the wrap-around column to the fixed cell
  EXPECT_LT(entry(a, 7, 4), 0.0);  // row 7 = (3, 1) wraps to (0, 1) = 4
  EXPECT_EQ(generate_system("poisson:nx=4,ny=3,nz=1,pin=1,periodic=1").a.values, a.values);
  EXPECT_THROW(generate_system("poisson:nx=4,beta=1"), Error);
}

}  // namespace
}  // namespace tb
