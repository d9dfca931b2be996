// The centreline comparison reduced by the line_deviation kernel
// (centreline.hpp's ProfileDeviation, kernels.hpp's max_line_deviation)
// against the sampled profile's max_deviation, bit for bit, on a stretched 3D
// and a 2D cavity a few steps in: reference points inside the line and beyond
// both ends (clamped), each velocity component; omp against ref on one and on
// two threads.
#include <gtest/gtest.h>

#include <cstring>

#include "../../common/bits.hpp"
#include "flow_fixtures.hpp"
#include "physics/incompressible/centreline.hpp"
#include "physics/incompressible/kernels.hpp"
#include "solvers/core/threading.hpp"

namespace tb::test {
namespace {

void expect_kernel_gives_the_profiles_deviation(const FvGrid& grid) {
  FractionalStep flow(grid, cavity_walls(), {0.01, 0.05});
  RegistrySolvers solvers;
  for (int n = 0; n < 3; ++n) ASSERT_TRUE(solvers.step(flow).failed.empty());
  const int dim = flow.grid().dim();
  const std::array<double, 3> point = {0.43, 0.52, 0.37};
  const Profile tables[2] = {*ghia_u_vertical(100), *ghia_v_horizontal(400)};
  long compared = 0;
  for (int along = 0; along < dim; ++along)
    for (int component = 0; component < dim; ++component)
      for (const Profile& table : tables)
        for (double scale : {1.0, 0.8, 1.3}) {  // 0.8 and 1.3 put points past the ends
          const Profile sampled = sample_line(flow, component, along, point);
          const double expected = max_deviation(sampled, table, scale);
          const ProfileDeviation d = profile_deviation(line_samples(flow, component, along, point), table, scale);
          const double got = max_deviation(Backend::host, d, flow.velocity().data(), dim, component);
          EXPECT_TRUE(same_bits(got, expected)) << got << " against " << expected << " along " << along;
          EXPECT_GT(got, 0.0);
          const incompressible::cell::LineView l{d.cells.data(), d.weights.data(), d.fixed.data(), d.mix.data(),
                                                 d.reference.data()};
          for (int threads : {1, 2}) {
            threading::fix_threads(threads);
            const double a =
                incompressible::kernels::ref::max_line_deviation(d.points(), l, flow.velocity().data(), dim, component);
            const double b =
                incompressible::kernels::omp::max_line_deviation(d.points(), l, flow.velocity().data(), dim, component);
            EXPECT_TRUE(same_bits(a, b) && same_bits(a, got)) << threads << " threads";
          }
          ++compared;
        }
  EXPECT_EQ(compared, 6L * dim * dim);
}

TEST(CentrelineDeviation, StretchedCavityGivesTheSampledProfilesBits) {
  expect_kernel_gives_the_profiles_deviation(FvGrid(axis(12, 1.0, 1.5), axis(10, 1.0, 1.2), axis(8)));
}

TEST(CentrelineDeviation, TwoDimensionalCavityGivesTheSampledProfilesBits) {
  expect_kernel_gives_the_profiles_deviation(FvGrid(axis(20, 1.0, 1.3), axis(18), axis(1)));
}

}  // namespace
}  // namespace tb::test
