// Every host FGBILU kernel of kernels.hpp against the sequential plane twins
// of kernels::ref, on small random 7-point matrices: a grid below OpenMP's
// threshold and one above it (so the parallel regions open), block sizes with
// a compile-time and a run-time loop. Every cell runs the same element bodies
// in the same order, so bitwise. The CUDA kernels are in
// test_fgbilu_kernels_gpu.cpp.
#include <gtest/gtest.h>

#include <vector>

#include "kernel_inputs.hpp"
#include "solvers/core/backend.hpp"

namespace tb::fgbilu {
namespace {

// The OpenMP kernels: coarse-grained whole sweeps, and the residual.
struct OmpKernels {
  static std::vector<double> factor(const test::FgbiluInputs& in) {
    std::vector<double> d(in.diagonal_entries(), 0.0);
    const WavefrontSchedule& s = in.m.schedule;
    EXPECT_EQ(kernels::omp::factor_planes(in.view(), d.data(), s.plane_ptr.data(), s.num_planes()), -1);
    return d;
  }
  static std::vector<double> forward(const test::FgbiluInputs& in) {
    std::vector<double> x(in.rhs.size(), 0.0);
    const WavefrontSchedule& s = in.m.schedule;
    kernels::omp::forward_sweep(in.view(), in.d.data(), s.plane_ptr.data(), s.num_planes(), in.rhs.data(), x.data());
    return x;
  }
  static std::vector<double> backward(const test::FgbiluInputs& in) {
    std::vector<double> x = in.forward;
    const WavefrontSchedule& s = in.m.schedule;
    kernels::omp::backward_sweep(in.view(), in.d.data(), s.plane_ptr.data(), s.num_planes(), x.data());
    return x;
  }
  static std::vector<double> residual(const test::FgbiluInputs& in) {
    std::vector<double> r(in.rhs.size(), 0.0);
    kernels::omp::residual(in.view(), in.rhs.data(), in.x.data(), r.data());
    return r;
  }
};

// The ACC-style host loops through the backend dispatch (Backend::host).
struct AccHostKernels {
  static std::vector<double> factor(const test::FgbiluInputs& in) {
    std::vector<double> d(in.diagonal_entries(), 0.0), scratch(3 * scratch_stride(in));
    const WavefrontSchedule& s = in.m.schedule;
    for (index_t q = 0; q < s.num_planes(); ++q)
      EXPECT_EQ(kernels::acc_factor_plane(Backend::host, in.view(), d.data(), s.plane_ptr[q], s.plane_ptr[q + 1],
                                          {scratch.data(), index_t(scratch_stride(in))}),
                -1);
    return d;
  }
  static std::vector<double> forward(const test::FgbiluInputs& in) {
    std::vector<double> x(in.rhs.size(), 0.0), z(plane_vector(in));
    const WavefrontSchedule& s = in.m.schedule;
    for (index_t q = 0; q < s.num_planes(); ++q)
      kernels::acc_forward_plane(Backend::host, in.view(), in.d.data(), s.plane_ptr[q], s.plane_ptr[q + 1],
                                 in.rhs.data(), x.data(), z.data());
    return x;
  }
  static std::vector<double> backward(const test::FgbiluInputs& in) {
    std::vector<double> x = in.forward, z(plane_vector(in));
    const WavefrontSchedule& s = in.m.schedule;
    for (index_t q = s.num_planes() - 1; q >= 0; --q)
      kernels::acc_backward_plane(Backend::host, in.view(), in.d.data(), s.plane_ptr[q], s.plane_ptr[q + 1], x.data(),
                                  z.data());
    return x;
  }
  static std::vector<double> residual(const test::FgbiluInputs& in) {
    std::vector<double> r(in.rhs.size(), 0.0);
    kernels::residual(Backend::host, in.view(), in.rhs.data(), in.x.data(), r.data());
    return r;
  }
  static std::size_t scratch_stride(const test::FgbiluInputs& in) {
    return std::size_t(in.m.schedule.max_plane_size()) * in.m.block_entries();
  }
  static std::size_t plane_vector(const test::FgbiluInputs& in) {
    return std::size_t(in.m.schedule.max_plane_size()) * in.m.block_size;
  }
};

template <class K>
class FgbiluKernels : public ::testing::Test {};
using Backends = ::testing::Types<OmpKernels, AccHostKernels>;
TYPED_TEST_SUITE(FgbiluKernels, Backends);

struct Grid {
  index_t nx, ny, nz, n;
};

// 5 x 4 x 3 cells: the serial path; 24 x 20 x 16 with n = 3: 69,120 diagonal
// entries, above openmp_min_length; n = 9 and 12 the run-time block loops.
const Grid grids[] = {{5, 4, 3, 1}, {5, 4, 3, 4}, {4, 3, 3, 9}, {3, 3, 2, 12}, {24, 20, 16, 3}};

TYPED_TEST(FgbiluKernels, FactorEqualsRef) {
  for (const Grid& g : grids) {
    const test::FgbiluInputs in = test::fgbilu_inputs(g.nx, g.ny, g.nz, g.n, 3);
    EXPECT_EQ(TypeParam::factor(in), in.d) << "n = " << g.n;
  }
}

TYPED_TEST(FgbiluKernels, SweepsEqualRef) {
  for (const Grid& g : grids) {
    const test::FgbiluInputs in = test::fgbilu_inputs(g.nx, g.ny, g.nz, g.n, 7);
    EXPECT_EQ(TypeParam::forward(in), in.forward) << "n = " << g.n;
    EXPECT_EQ(TypeParam::backward(in), in.backward) << "n = " << g.n;
  }
}

TYPED_TEST(FgbiluKernels, ResidualEqualsRef) {
  for (const Grid& g : grids) {
    const test::FgbiluInputs in = test::fgbilu_inputs(g.nx, g.ny, g.nz, g.n, 11);
    EXPECT_EQ(TypeParam::residual(in), in.residual) << "n = " << g.n;
  }
}

}  // namespace
}  // namespace tb::fgbilu
