// Stretched IJK axes and wavefront hyperplanes (seed 000 §2.1).
#include <gtest/gtest.h>

#include <cmath>

#include "mesh/graph/wavefront.hpp"
#include "mesh/structured/structured_grid.hpp"
#include "solvers/core/error.hpp"

namespace tb {
namespace {

TEST(StructuredGrid, UniformAndGeometricAxes) {
  const std::vector<double> u = axis_nodes({4, 2.0, Stretching::Uniform, 1.0});
  EXPECT_EQ(u, (std::vector<double>{0.0, 0.5, 1.0, 1.5, 2.0}));
  const std::vector<double> g = axis_nodes({10, 1.0, Stretching::Geometric, 1.2});
  const std::vector<double> w = axis_widths(g);
  ASSERT_EQ(w.size(), 10u);
  for (std::size_t i = 1; i < w.size(); ++i) EXPECT_NEAR(w[i] / w[i - 1], 1.2, 1e-12);
  EXPECT_NEAR(w[0], 0.2 / (std::pow(1.2, 10) - 1.0), 1e-15);  // first width of a geometric series summing to 1
  EXPECT_EQ(g.back(), 1.0);
}

TEST(StructuredGrid, TanhClustersAtBothEnds) {
  const std::vector<double> w = axis_widths(axis_nodes({20, 3.0, Stretching::Tanh, 2.5}));
  for (std::size_t i = 0; i < w.size(); ++i) EXPECT_NEAR(w[i], w[w.size() - 1 - i], 1e-12);  // symmetric
  EXPECT_LT(w.front() * 10, w[10]);
  double sum = 0;
  for (double x : w) sum += x;
  EXPECT_NEAR(sum, 3.0, 1e-14);
  EXPECT_THROW(axis_nodes({0, 1.0, Stretching::Uniform, 1.0}), Error);
  EXPECT_THROW(axis_nodes({4, 1.0, Stretching::Tanh, -1.0}), Error);
}

TEST(StructuredGrid, LinearIndexIsIFastest) {
  const StructuredGrid3D grid({4, 1, Stretching::Uniform, 1}, {3, 1, Stretching::Uniform, 1},
                              {2, 1, Stretching::Geometric, 2});
  EXPECT_EQ(grid.num_cells(), 24);
  EXPECT_EQ(grid.index(1, 2, 1), 1 + 4 * (2 + 3 * 1));
  EXPECT_NEAR(grid.widths(2)[1] / grid.widths(2)[0], 2.0, 1e-14);
}

TEST(Hyperplanes, PaperExampleSizes) {
  // Seed 000 figure 5: a 10x5x5 block has N_5 = 6 and N_12 = 25 (1-based p = i+j+k).
  const Hyperplanes h = wavefront_hyperplanes(10, 5, 5);
  EXPECT_EQ(h.num_planes(), 10 + 5 + 5 - 2);
  EXPECT_EQ(h.plane_size(5 - 3), 6);
  EXPECT_EQ(h.plane_size(12 - 3), 25);
  EXPECT_EQ(h.ijk.size(), 250u);
}

TEST(Hyperplanes, LowerNeighboursAreInThePreviousPlane) {
  const index_t ni = 4, nj = 3, nk = 5;
  const Hyperplanes h = wavefront_hyperplanes(ni, nj, nk);
  std::vector<index_t> plane_of(ni * nj * nk, -1);
  for (index_t p = 0; p < h.num_planes(); ++p)
    for (index_t q = h.plane_ptr[p]; q < h.plane_ptr[p + 1]; ++q) {
      const auto [i, j, k] = h.ijk[q];
      EXPECT_EQ(i + j + k, p);
      EXPECT_EQ(plane_of[i + ni * (j + nj * k)], -1) << "cell listed twice";
      plane_of[i + ni * (j + nj * k)] = p;
    }
  for (index_t k = 0; k < nk; ++k)
    for (index_t j = 0; j < nj; ++j)
      for (index_t i = 1; i < ni; ++i)
        EXPECT_EQ(plane_of[(i - 1) + ni * (j + nj * k)] + 1, plane_of[i + ni * (j + nj * k)]);
  // Algorithm 1's order inside a plane: i, then j, then k.
  const Hyperplanes two = wavefront_hyperplanes(2, 2, 2);
  EXPECT_EQ(two.ijk[1], (std::array<index_t, 3>{0, 0, 1}));
  EXPECT_EQ(two.ijk[2], (std::array<index_t, 3>{0, 1, 0}));
  EXPECT_EQ(two.ijk[3], (std::array<index_t, 3>{1, 0, 0}));
}

// The one natural numbering: i fastest, then j, then k, and back.
TEST(StructuredIndex, NaturalOrderAndItsInverse) {
  const StructuredIndex g{4, 3, 2};
  EXPECT_EQ(g.cells(), 24);
  EXPECT_EQ(g.stride(0), 1);
  EXPECT_EQ(g.stride(1), 4);
  EXPECT_EQ(g.stride(2), 12);
  index_t expected = 0;
  for (index_t k = 0; k < 2; ++k)
    for (index_t j = 0; j < 3; ++j)
      for (index_t i = 0; i < 4; ++i) {
        const index_t c = g.natural(i, j, k);
        EXPECT_EQ(c, expected++);
        EXPECT_EQ(g.i_of(c), i);
        EXPECT_EQ(g.j_of(c), j);
        EXPECT_EQ(g.k_of(c), k);
      }
  const StructuredGrid3D grid({4, 1.0}, {3, 1.0}, {2, 1.0});
  EXPECT_EQ(grid.index(3, 2, 1), g.natural(3, 2, 1));
}

}  // namespace
}  // namespace tb
