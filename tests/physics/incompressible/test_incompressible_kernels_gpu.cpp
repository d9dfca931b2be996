// Every CUDA kernel of physics/incompressible/kernels.hpp against its
// sequential twin kernels::ref on the inputs of test_incompressible_kernels.cpp.
// The per-cell steps bit for bit (cuda/kernels.cu is compiled without FMA
// contraction); the sums within 1e-12 relative (the device adds in another
// fixed order); the maxima exactly. Skips with the reason when no device is visible.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "../../common/bits.hpp"
#include "kernel_inputs.hpp"
#include "solvers/core/array.hpp"
#include "solvers/core/cuda_call.hpp"

namespace tb::test {
namespace {

namespace ref = incompressible::kernels::ref;
namespace gpu = incompressible::kernels::cuda;

Vector on_device(const std::vector<double>& v) { return Vector(Backend::cuda, std::span<const double>(v)); }

// The grid's and the boundaries' arrays on the device, and views of them.
struct DeviceGeometry {
  std::vector<Vector> arrays;
  Array<index_t> momentum_positions, poisson_positions;
  GridView grid;
  BoundaryView boundaries;

  explicit DeviceGeometry(const KernelInputs& in) : grid(in.grid.view()), boundaries(in.boundaries.view()) {
    arrays.reserve(32);
    const auto copy = [&](const std::vector<double>& v) -> const double* {
      if (v.empty()) return nullptr;
      arrays.push_back(on_device(v));
      return arrays.back().data();
    };
    for (int d = 0; d < 3; ++d) {
      const AxisGeometry& a = in.grid.axis(d);
      grid.axis[d].nodes = copy(a.nodes), grid.axis[d].widths = copy(a.widths);
      grid.axis[d].centres = copy(a.centres), grid.axis[d].spacing = copy(a.spacing);
      grid.axis[d].weight = copy(a.weight);
    }
    for (int side = 0; side < 6; ++side) boundaries.values[side] = copy(in.boundaries.side_values(side));
    const auto positions_of = [](const StencilPattern& p) {
      return Array<index_t>(Backend::cuda, std::span<const index_t>(positions(p), p.position.size() * 7));
    };
    momentum_positions = positions_of(in.momentum);
    poisson_positions = positions_of(in.poisson);
  }
};

struct DeviceFaces {
  std::array<Vector, 3> arrays;
  FaceView view;
  DeviceFaces(const FaceVelocities& host) {
    std::array<double*, 3> p{};
    for (int d = 0; d < 3; ++d) {
      arrays[std::size_t(d)] = on_device(host.normal[std::size_t(d)]);
      p[std::size_t(d)] = arrays[std::size_t(d)].data();
    }
    view = host.view_of(p);
  }
  void to_host(FaceVelocities& host) const {
    for (int d = 0; d < 3; ++d) arrays[std::size_t(d)].copy_to_host(host.normal[std::size_t(d)]);
  }
};

struct Grids : ::testing::TestWithParam<int> {
  void SetUp() override {
    if (const std::string why = cuda_unavailable_reason(); !why.empty()) GTEST_SKIP() << why;
  }
  static FvGrid grid(int which) { return which == 0 ? grid_3d() : which == 1 ? grid_2d() : grid_periodic(); }
};

TEST_P(Grids, PerCellStepsGiveTheSequentialBits) {
  KernelInputs in(grid(GetParam()), GetParam() + 1);
  const DeviceGeometry dev(in);
  const GridView g = in.grid.view();
  const std::size_t cells = std::size_t(g.num_cells()), n = std::size_t(g.dim);
  const Vector u = on_device(in.u), p = on_device(in.p), grad_p = on_device(in.grad_p), div = on_device(in.div);

  std::vector<double> grad_ref(cells * n);
  Vector grad(Backend::cuda, cells * n);
  ref::pressure_gradient(g, in.p.data(), grad_ref.data());
  TB_CUDA_CALL(gpu::pressure_gradient(dev.grid, p.data(), grad.data()));
  EXPECT_EQ(first_difference(grad_ref, grad.to_host()), -1);

  FaceVelocities faces_ref = in.faces, faces_gpu = in.faces;
  DeviceFaces faces(in.faces);
  ref::rhie_chow(g, in.boundaries.view(), in.u.data(), in.p.data(), in.grad_p.data(), in.dt, faces_ref.view());
  TB_CUDA_CALL(gpu::rhie_chow(dev.grid, dev.boundaries, u.data(), p.data(), grad_p.data(), in.dt, faces.view));
  faces.to_host(faces_gpu);
  for (std::size_t d = 0; d < n; ++d) EXPECT_EQ(first_difference(faces_ref.normal[d], faces_gpu.normal[d]), -1);

  std::vector<double> div_ref(cells), rhs_ref(cells);
  Vector div_gpu(Backend::cuda, cells), rhs_gpu(Backend::cuda, cells);
  ref::divergence(g, faces_ref.view(), div_ref.data());
  TB_CUDA_CALL(gpu::divergence(dev.grid, faces.view, div_gpu.data()));
  EXPECT_EQ(first_difference(div_ref, div_gpu.to_host()), -1);
  ref::poisson_rhs(g, faces_ref.view(), in.dt, rhs_ref.data());
  TB_CUDA_CALL(gpu::poisson_rhs(dev.grid, faces.view, in.dt, rhs_gpu.data()));
  EXPECT_EQ(first_difference(rhs_ref, rhs_gpu.to_host()), -1);

  std::vector<double> u_ref = in.u, p_ref = in.p;
  Vector u_gpu = on_device(in.u), p_gpu = on_device(in.p);
  ref::project(g, in.div.data(), in.dt, in.grad_p.data(), faces_ref.view(), u_ref.data(), p_ref.data());
  TB_CUDA_CALL(gpu::project(dev.grid, div.data(), in.dt, grad_p.data(), faces.view, u_gpu.data(), p_gpu.data()));
  EXPECT_EQ(first_difference(u_ref, u_gpu.to_host()), -1);
  EXPECT_EQ(first_difference(p_ref, p_gpu.to_host()), -1);
  faces.to_host(faces_gpu);
  for (std::size_t d = 0; d < n; ++d) EXPECT_EQ(first_difference(faces_ref.normal[d], faces_gpu.normal[d]), -1);
}

TEST_P(Grids, AssemblyGivesTheSequentialBits) {
  KernelInputs in(grid(GetParam()), GetParam() + 7);
  const DeviceGeometry dev(in);
  const GridView g = in.grid.view();
  const std::size_t cells = std::size_t(g.num_cells()), n = std::size_t(g.dim);
  const Vector u = on_device(in.u), grad_p = on_device(in.grad_p), p = on_device(in.p);
  BsrMatrix a_ref = in.momentum.matrix;
  std::vector<double> rhs_ref(cells * n);
  const MomentumSums s_ref =
      ref::momentum_rows(g, in.boundaries.view(), {in.u.data(), in.grad_p.data(), in.nu, in.dt, {0.1, -0.2, 0.3}},
                         positions(in.momentum), {a_ref.values.data(), nullptr, a_ref.block_entries()}, rhs_ref.data());
  Vector a(Backend::cuda, a_ref.values.size()), rhs(Backend::cuda, cells * n);
  const MomentumSums s_gpu = TB_CUDA_CALL(
      gpu::momentum_rows(dev.grid, dev.boundaries, {u.data(), grad_p.data(), in.nu, in.dt, {0.1, -0.2, 0.3}},
                         dev.momentum_positions.data(), {a.data(), nullptr, a_ref.block_entries()}, rhs.data()));
  EXPECT_EQ(first_difference(a_ref.values, a.to_host()), -1);
  EXPECT_EQ(first_difference(rhs_ref, rhs.to_host()), -1);
  EXPECT_NEAR(s_gpu.residual, s_ref.residual, 1e-12 * s_ref.residual);
  EXPECT_NEAR(s_gpu.volume, s_ref.volume, 1e-12 * s_ref.volume);

  BsrMatrix p_ref = in.poisson.matrix;
  ref::poisson_rows(g, positions(in.poisson), {p_ref.values.data(), nullptr, 1});
  Vector pa(Backend::cuda, p_ref.values.size());
  TB_CUDA_CALL(gpu::poisson_rows(dev.grid, dev.poisson_positions.data(), {pa.data(), nullptr, 1}));
  EXPECT_EQ(first_difference(p_ref.values, pa.to_host()), -1);
  std::vector<double> out_ref = in.div;
  Vector out = on_device(in.div);
  ref::add_poisson_product(g, positions(in.poisson), {p_ref.values.data(), nullptr, 1}, in.p.data(), out_ref.data());
  TB_CUDA_CALL(
      gpu::add_poisson_product(dev.grid, dev.poisson_positions.data(), {pa.data(), nullptr, 1}, p.data(), out.data()));
  EXPECT_EQ(first_difference(out_ref, out.to_host()), -1);
}

TEST_P(Grids, ReductionsAgreeWithTheSequentialTwins) {
  KernelInputs in(grid(GetParam()), GetParam() + 3);
  const DeviceGeometry dev(in);
  const Vector u = on_device(in.u), u_old = on_device(in.u_old), div = on_device(in.div);
  const StepMaxima r = ref::step_maxima(in.grid.view(), in.u.data(), in.u_old.data(), in.div.data(), in.dt);
  const StepMaxima d = TB_CUDA_CALL(gpu::step_maxima(dev.grid, u.data(), u_old.data(), div.data(), in.dt));
  EXPECT_EQ(r.cfl, d.cfl);
  EXPECT_EQ(r.velocity_change, d.velocity_change);
  EXPECT_EQ(r.divergence, d.divergence);
  EXPECT_EQ(r.finite, d.finite);
  EXPECT_EQ(TB_CUDA_CALL(gpu::max_abs(index_t(in.u.size()), u.data())),
            ref::max_abs(index_t(in.u.size()), in.u.data()));
  std::vector<double> nan = in.p;
  nan[nan.size() / 2] = std::nan("");
  const Vector nan_gpu = on_device(nan);
  EXPECT_TRUE(std::isnan(TB_CUDA_CALL(gpu::max_abs(index_t(nan.size()), nan_gpu.data()))));

  // A centreline comparison over seeded slots: 40 points, 8 cells each, some weights zero.
  const index_t points = 40, cells = index_t(in.p.size()), n = index_t(in.grid.dim());
  std::vector<index_t> at(8 * std::size_t(points));
  for (std::size_t k = 0; k < at.size(); ++k) at[k] = index_t((k * 7919) % std::size_t(cells));
  std::vector<double> w = random_values(at.size(), 91), fixed = random_values(2 * std::size_t(points), 92);
  std::vector<double> mix = random_values(std::size_t(points), 93), reference = random_values(std::size_t(points), 94);
  for (std::size_t k = 0; k < w.size(); k += 3) w[k] = 0.0;
  const incompressible::cell::LineView host{at.data(), w.data(), fixed.data(), mix.data(), reference.data()};
  const Array<index_t> at_gpu(Backend::cuda, std::span<const index_t>(at));
  const Vector w_gpu = on_device(w), fixed_gpu = on_device(fixed), mix_gpu = on_device(mix),
               reference_gpu = on_device(reference);
  const incompressible::cell::LineView device{at_gpu.data(), w_gpu.data(), fixed_gpu.data(), mix_gpu.data(),
                                              reference_gpu.data()};
  for (int e = 0; e < int(n); ++e)
    EXPECT_EQ(TB_CUDA_CALL(gpu::max_line_deviation(points, device, u.data(), int(n), e)),
              ref::max_line_deviation(points, host, in.u.data(), int(n), e));
}

INSTANTIATE_TEST_SUITE_P(IncompressibleKernelsGpu, Grids, ::testing::Values(0, 1, 2));

}  // namespace
}  // namespace tb::test
