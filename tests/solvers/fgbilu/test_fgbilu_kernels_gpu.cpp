// Every CUDA FGBILU kernel of kernels.hpp (ACC style and CL style, a launch per
// plane and a launch per sweep, the residual) against the sequential plane
// twins of kernels::ref, on the inputs of test_fgbilu_kernels.cpp. Not bitwise:
// nvcc contracts the element bodies' multiply-adds into FMAs, so within 1e-12
// relative (test_fgbilu_gpu.cpp's bound). Skips with the reason when no device
// is visible.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <span>
#include <string>
#include <vector>

#include "kernel_inputs.hpp"
#include "solvers/core/array.hpp"
#include "solvers/core/backend.hpp"
#include "solvers/core/cuda_call.hpp"
#include "solvers/core/stage_groups.hpp"

namespace tb::fgbilu {
namespace {

// The inputs copied onto the device.
struct DeviceInputs {
  explicit DeviceInputs(const test::FgbiluInputs& in)
      : coef(Backend::cuda, std::span<const double>(in.m.values)),
        natural(Backend::cuda, std::span<const index_t>(in.m.schedule.natural)),
        position(Backend::cuda, std::span<const index_t>(in.m.schedule.position)),
        neighbour(Backend::cuda, std::span<const index_t>(in.m.schedule.neighbour)),
        d(Backend::cuda, std::span<const double>(in.d)),
        rhs(Backend::cuda, std::span<const double>(in.rhs)),
        x(Backend::cuda, std::span<const double>(in.x)),
        forward(Backend::cuda, std::span<const double>(in.forward)) {}
  Stencil7View view(const test::FgbiluInputs& in) const {
    return {in.m.block_size, in.m.cells(), coef.data(), natural.data(), position.data(), neighbour.data()};
  }
  Array<double> coef;
  Array<index_t> natural, position, neighbour;
  Vector d, rhs, x, forward;
};

enum class Style { acc, cl_plane, cl_sweep };

template <Style S>
struct CudaKernels {
  static std::vector<double> factor(const test::FgbiluInputs& in) {
    const DeviceInputs dev(in);
    const WavefrontSchedule& s = in.m.schedule;
    Vector d(Backend::cuda, in.diagonal_entries());
    Array<index_t> flag(Backend::cuda, 1);
    if (S == Style::cl_sweep) {
      const StageSchedule g(Backend::cuda, std::span<const index_t>(s.plane_ptr),
                            kernels::cuda::cl_points(in.m.block_size));
      EXPECT_EQ(TB_CUDA_CALL(kernels::cuda::cl_factor_sweep(dev.view(in), d.data(), g.view(), flag.data())), -1);
      return d.to_host();
    }
    Vector scratch(Backend::cuda, 3 * std::size_t(s.max_plane_size()) * in.m.block_entries());
    const PlaneScratch sc{scratch.data(), s.max_plane_size() * index_t(in.m.block_entries())};
    for (index_t q = 0; q < s.num_planes(); ++q) {
      const index_t b = s.plane_ptr[q], e = s.plane_ptr[q + 1];
      if (S == Style::acc)
        TB_CUDA_CALL(kernels::cuda::acc_factor_plane(dev.view(in), d.data(), b, e, sc));
      else
        TB_CUDA_CALL(kernels::cuda::cl_factor_plane(dev.view(in), d.data(), b, e));
    }
    EXPECT_EQ(TB_CUDA_CALL(kernels::cuda::first_non_finite_block(d.data(), in.m.cells(), in.m.block_size, flag.data())),
              -1);
    return d.to_host();
  }
  static std::vector<double> forward(const test::FgbiluInputs& in) {
    const DeviceInputs dev(in);
    const WavefrontSchedule& s = in.m.schedule;
    Vector x(Backend::cuda, in.rhs.size()), z(Backend::cuda, std::size_t(s.max_plane_size()) * in.m.block_size);
    if (S == Style::cl_sweep) {
      const StageSchedule g(Backend::cuda, std::span<const index_t>(s.plane_ptr),
                            kernels::cuda::cl_points(in.m.block_size));
      TB_CUDA_CALL(kernels::cuda::cl_forward_sweep(dev.view(in), dev.d.data(), g.view(), dev.rhs.data(), x.data()));
      return x.to_host();
    }
    for (index_t q = 0; q < s.num_planes(); ++q) {
      const index_t b = s.plane_ptr[q], e = s.plane_ptr[q + 1];
      if (S == Style::acc)
        TB_CUDA_CALL(
            kernels::cuda::acc_forward_plane(dev.view(in), dev.d.data(), b, e, dev.rhs.data(), x.data(), z.data()));
      else
        TB_CUDA_CALL(kernels::cuda::cl_forward_plane(dev.view(in), dev.d.data(), b, e, dev.rhs.data(), x.data()));
    }
    return x.to_host();
  }
  static std::vector<double> backward(const test::FgbiluInputs& in) {
    DeviceInputs dev(in);
    const WavefrontSchedule& s = in.m.schedule;
    Vector z(Backend::cuda, std::size_t(s.max_plane_size()) * in.m.block_size);
    if (S == Style::cl_sweep) {
      const StageSchedule g(Backend::cuda, std::span<const index_t>(s.plane_ptr),
                            kernels::cuda::cl_points(in.m.block_size));
      TB_CUDA_CALL(kernels::cuda::cl_backward_sweep(dev.view(in), dev.d.data(), g.view(), dev.forward.data()));
      return dev.forward.to_host();
    }
    for (index_t q = s.num_planes() - 1; q >= 0; --q) {
      const index_t b = s.plane_ptr[q], e = s.plane_ptr[q + 1];
      if (S == Style::acc)
        TB_CUDA_CALL(kernels::cuda::acc_backward_plane(dev.view(in), dev.d.data(), b, e, dev.forward.data(), z.data()));
      else
        TB_CUDA_CALL(kernels::cuda::cl_backward_plane(dev.view(in), dev.d.data(), b, e, dev.forward.data()));
    }
    return dev.forward.to_host();
  }
  static std::vector<double> residual(const test::FgbiluInputs& in) {
    const DeviceInputs dev(in);
    Vector r(Backend::cuda, in.rhs.size());
    TB_CUDA_CALL(kernels::cuda::residual(dev.view(in), dev.rhs.data(), dev.x.data(), r.data()));
    return r.to_host();
  }
};

double rel_diff(const std::vector<double>& a, const std::vector<double>& b) {
  double d = 0.0, m = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    d = std::max(d, std::abs(a[i] - b[i]));
    m = std::max(m, std::abs(b[i]));
  }
  return d / m;
}

template <class K>
class FgbiluKernelsGpu : public ::testing::Test {
 protected:
  void SetUp() override {
    if (const std::string why = cuda_unavailable_reason(); !why.empty()) GTEST_SKIP() << why;
  }
};
using Backends = ::testing::Types<CudaKernels<Style::acc>, CudaKernels<Style::cl_plane>, CudaKernels<Style::cl_sweep>>;
TYPED_TEST_SUITE(FgbiluKernelsGpu, Backends);

struct Grid {
  index_t nx, ny, nz, n;
};
// Block sizes on both sides of the CL kernels' points per workgroup (n*n = 256).
const Grid grids[] = {{5, 4, 3, 1}, {5, 4, 3, 4}, {4, 3, 3, 9}, {3, 3, 2, 17}, {12, 10, 8, 3}};

TYPED_TEST(FgbiluKernelsGpu, EveryStepEqualsRef) {
  for (const Grid& g : grids) {
    const test::FgbiluInputs in = test::fgbilu_inputs(g.nx, g.ny, g.nz, g.n, 3);
    EXPECT_LE(rel_diff(TypeParam::factor(in), in.d), 1e-12) << "n = " << g.n;
    EXPECT_LE(rel_diff(TypeParam::forward(in), in.forward), 1e-12) << "n = " << g.n;
    EXPECT_LE(rel_diff(TypeParam::backward(in), in.backward), 1e-12) << "n = " << g.n;
    EXPECT_LE(rel_diff(TypeParam::residual(in), in.residual), 1e-12) << "n = " << g.n;
  }
}

}  // namespace
}  // namespace tb::fgbilu
