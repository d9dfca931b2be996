// Every CUDA kernel of physics/immersed/kernels.hpp against its sequential
// twin kernels::ref on the inputs of test_immersed_kernels.cpp. The per-cell
// steps bit for bit (cuda/kernels.cu is compiled without FMA contraction); the
// surface force within 1e-12 relative (the device adds in another fixed
// order); the maxima exactly. Skips with the reason when no device is visible.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "../../common/bits.hpp"
#include "kernel_inputs.hpp"
#include "solvers/core/array.hpp"
#include "solvers/core/cuda_call.hpp"
#include "solvers/core/memory.hpp"

namespace tb::test {
namespace {

using namespace immersed;
namespace ref = immersed::kernels::ref;
namespace gpu = immersed::kernels::cuda;

template <class T>
Array<T> on_device(const std::vector<T>& v) {
  return Array<T>(Backend::cuda, std::span<const T>(v));
}

// The inputs' arrays on the device, and views of them.
struct DeviceInputs {
  std::vector<Vector> arrays;
  std::vector<Array<index_t>> indices;
  Array<CellType> types;
  Array<char> cleared;
  GridView grid;
  cell::SurfaceView surface;

  explicit DeviceInputs(const KernelInputs& in)
      : types(on_device(in.ib.types)),
        cleared(on_device(in.cleared)),
        grid(in.view()),
        surface(in.surface(0.02, 1e-3)) {
    arrays.reserve(64);
    indices.reserve(16);
    for (int d = 0; d < 3; ++d) {
      const GridAxis& a = in.grid.axis(d);
      grid.axis[d].nodes = copy(a.nodes), grid.axis[d].widths = copy(a.widths), grid.axis[d].centres = copy(a.centres);
    }
    grid.types = types.data();
    const auto stencils = [&](const FlatStencils& f) {
      return cell::StencilsView{f.count(), copy(f.offsets), copy(f.at), copy(f.weights)};
    };
    surface.pressure = stencils(in.pressure_points);
    surface.shear = stencils(in.shear_points);
    surface.pressure_boundary = copy(in.pressure_points.boundary_weights);
    surface.shear_boundary = copy(in.shear_points.boundary_weights);
    surface.normal = copy(in.normals);
    surface.wall_velocity = copy(in.wall_velocities);
  }
  double* copy(const std::vector<double>& v) {
    arrays.push_back(on_device(v));
    return arrays.back().data();
  }
  index_t* copy(const std::vector<index_t>& v) {
    indices.push_back(on_device(v));
    return indices.back().data();
  }
  cell::VelocityView velocity(const std::vector<double> (&u)[3]) { return {{copy(u[0]), copy(u[1]), copy(u[2])}}; }
  FaceView faces(const FaceField& f) {
    const ConstFaceView host = f.view();
    FaceView v;
    for (int d = 0; d < 3; ++d) {
      v.normal[d] = copy(f.normal(d));
      v.ext[d][0] = host.ext[d][0], v.ext[d][1] = host.ext[d][1];
    }
    return v;
  }
};

std::vector<double> to_host(const double* device, std::size_t n) {
  std::vector<double> v(n);
  memory::copy(v.data(), Backend::host, device, Backend::cuda, n * sizeof(double));
  return v;
}

struct Kernels : ::testing::Test {
  void SetUp() override {
    if (const std::string why = cuda_unavailable_reason(); !why.empty()) GTEST_SKIP() << why;
  }
};

TEST_F(Kernels, PerCellStepsGiveTheSequentialBits) {
  const KernelInputs in;
  DeviceInputs dev(in);
  const GridView g = in.view();
  const cell::VelocityView u = dev.velocity(in.u);
  const cell::ConstVelocityView u_const{{u.c[0], u.c[1], u.c[2]}};
  const cell::ConstVelocityView u_host{{in.u[0].data(), in.u[1].data(), in.u[2].data()}};

  FaceField faces_ref = in.faces;
  const FaceView faces = dev.faces(in.faces);
  const ConstFaceView faces_const = {
      {faces.normal[0], faces.normal[1], faces.normal[2]},
      {{faces.ext[0][0], faces.ext[0][1]}, {faces.ext[1][0], faces.ext[1][1]}, {faces.ext[2][0], faces.ext[2][1]}}};
  for (int e = 0; e < 3; ++e) {
    std::vector<double> n_ref = in.n_old, rhs_ref(in.cells, 7.0);
    double* n_gpu = dev.copy(in.n_old);
    double* rhs_gpu = dev.copy(rhs_ref);
    ref::momentum_rhs(g, {e, in.u[e].data(), in.faces.view(), in.sides, in.cleared.data(), false, in.dt, in.nu,
                          n_ref.data(), rhs_ref.data()});
    TB_CUDA_CALL(gpu::momentum_rhs(
        dev.grid, {e, u_const.c[e], faces_const, in.sides, dev.cleared.data(), false, in.dt, in.nu, n_gpu, rhs_gpu}));
    EXPECT_EQ(first_difference(rhs_ref, to_host(rhs_gpu, in.cells)), -1);
    EXPECT_EQ(first_difference(n_ref, to_host(n_gpu, in.cells)), -1);
  }

  ref::face_velocities(g, in.sides, u_host, faces_ref.view());
  TB_CUDA_CALL(gpu::face_velocities(dev.grid, in.sides, u_const, faces));
  for (int d = 0; d < 3; ++d)
    EXPECT_EQ(first_difference(faces_ref.normal(d), to_host(faces.normal[d], faces_ref.normal(d).size())), -1);

  std::vector<double> rhs_ref(in.cells, 3.0);
  double* rhs_gpu = dev.copy(rhs_ref);
  ref::pressure_rhs(g, std::as_const(faces_ref).view(), 2.5, rhs_ref.data());
  TB_CUDA_CALL(gpu::pressure_rhs(dev.grid, faces_const, 2.5, rhs_gpu));
  EXPECT_EQ(first_difference(rhs_ref, to_host(rhs_gpu, in.cells)), -1);

  std::vector<double> u_ref[3] = {in.u[0], in.u[1], in.u[2]};
  ref::project(g, in.sides, 0.7, in.p.data(), faces_ref.view(), {{u_ref[0].data(), u_ref[1].data(), u_ref[2].data()}});
  TB_CUDA_CALL(gpu::project(dev.grid, in.sides, 0.7, dev.copy(in.p), faces, u));
  for (int d = 0; d < 3; ++d) {
    EXPECT_EQ(first_difference(u_ref[d], to_host(u.c[d], in.cells)), -1);
    EXPECT_EQ(first_difference(faces_ref.normal(d), to_host(faces.normal[d], faces_ref.normal(d).size())), -1);
  }

  const cell::ConstVelocityView old_host{{in.u_old[0].data(), in.u_old[1].data(), in.u_old[2].data()}};
  const cell::VelocityView old = dev.velocity(in.u_old);
  const StepMaxima a = ref::step_maxima(g, {{u_ref[0].data(), u_ref[1].data(), u_ref[2].data()}}, old_host,
                                        std::as_const(faces_ref).view(), in.dt);
  const StepMaxima b =
      TB_CUDA_CALL(gpu::step_maxima(dev.grid, u_const, {{old.c[0], old.c[1], old.c[2]}}, faces_const, in.dt));
  EXPECT_EQ(a.divergence, b.divergence);
  EXPECT_EQ(a.velocity_change, b.velocity_change);
  EXPECT_EQ(a.cfl, b.cfl);
  EXPECT_EQ(a.finite, b.finite);
}

TEST_F(Kernels, RowsAndSurfaceForceGiveTheSequentialResults) {
  const KernelInputs in;
  DeviceInputs dev(in);
  const GridView g = in.view();
  BoxConditions box{};
  for (int side = 0; side < 6; ++side) box[std::size_t(side)] = in.sides.pressure[side];
  const FlatStencils stencils = ghost_row_stencils(in.ib, in.pattern, BodyCondition::neumann);
  std::vector<double> a_ref(in.pattern.matrix.values.size(), 5.0);
  double* a_gpu = dev.copy(a_ref);
  ref::system_rows(g, rows_view(in.pattern, box, 0.0, 1.0, a_ref.data()));
  ref::ghost_rows(stencils.view(), a_ref.data());
  cell::RowsView rows = rows_view(in.pattern, box, 0.0, 1.0, a_gpu);
  rows.row_ptr = dev.copy(in.pattern.matrix.row_ptr);
  rows.diagonal = dev.copy(in.pattern.diagonal);
  std::vector<index_t> neighbours;
  for (const auto& n : in.pattern.neighbour) neighbours.insert(neighbours.end(), n.begin(), n.end());
  rows.neighbour = dev.copy(neighbours);
  TB_CUDA_CALL(gpu::system_rows(dev.grid, rows));
  const cell::StencilsView s{stencils.count(), dev.copy(stencils.offsets), dev.copy(stencils.at),
                             dev.copy(stencils.weights)};
  TB_CUDA_CALL(gpu::ghost_rows(s, a_gpu));
  EXPECT_EQ(first_difference(a_ref, to_host(a_gpu, a_ref.size())), -1);

  const cell::ConstVelocityView u_host{{in.u[0].data(), in.u[1].data(), in.u[2].data()}};
  const cell::VelocityView u = dev.velocity(in.u);
  const ForceSums f_ref = ref::surface_force(in.surface(0.02, 1e-3), in.p.data(), u_host);
  const ForceSums f_gpu = TB_CUDA_CALL(gpu::surface_force(dev.surface, dev.copy(in.p), {{u.c[0], u.c[1], u.c[2]}}));
  EXPECT_EQ(TB_CUDA_CALL(gpu::max_abs(index_t(in.cells), u.c[1])), ref::max_abs(index_t(in.cells), in.u[1].data()));
  for (int d = 0; d < 3; ++d) {
    EXPECT_NEAR(f_gpu.pressure[d], f_ref.pressure[d], 1e-12 * std::abs(f_ref.pressure[d]) + 1e-300) << d;
    EXPECT_NEAR(f_gpu.viscous[d], f_ref.viscous[d], 1e-12 * std::abs(f_ref.viscous[d]) + 1e-300) << d;
  }
}

// A body shrunk by about three cells (as the host test): the moved cells'
// types, flags and fills bit for bit, and the flags dropped again.
TEST_F(Kernels, MoveCellsGiveTheSequentialBits) {
  const KernelInputs in;
  const std::vector<CellType> before = classify_cells(in.grid, Sphere({1.02, 0.97, 1.01}, 0.45));
  PulsatingEllipsoid body({1.02, 0.97, 1.01}, {0.31, 0.31, 0.31}, 0.2, 1.0);
  body.move_to(0.6);
  const MovedCells m = moved_cells(in.grid, body, before, in.ib.types);
  ASSERT_GT(m.cleared, 100);
  std::vector<CellType> types = before;
  std::vector<char> flags(in.cells, 0);
  std::vector<double> u[3] = {in.u[0], in.u[1], in.u[2]}, p = in.p;
  DeviceInputs dev(in);
  Array<CellType> d_types = on_device(before);
  Array<char> d_flags = on_device(flags);
  const cell::VelocityView d_u = dev.velocity(u);
  double* d_p = dev.copy(p);
  const Array<index_t> cells = on_device(m.cells);
  const Array<CellType> new_types = on_device(m.types);
  const Array<std::uint8_t> fill = on_device(m.fill);
  const Array<double> wall = on_device(m.wall);
  const cell::MovedCellsView d_m{m.count(), cells.data(), new_types.data(), fill.data(), wall.data()};
  ref::move_cells(in.view(), m.view(), types.data(), flags.data(), {{u[0].data(), u[1].data(), u[2].data()}}, p.data());
  gpu::move_cells(dev.grid, d_m, d_types.data(), d_flags.data(), d_u, d_p);
  for (int d = 0; d < 3; ++d) EXPECT_SAME_BITS(u[d], to_host(d_u.c[d], in.cells));
  EXPECT_SAME_BITS(p, to_host(d_p, in.cells));
  EXPECT_EQ(types, d_types.to_host());
  EXPECT_EQ(flags, d_flags.to_host());
  gpu::unmark_cells(d_m, d_flags.data());
  EXPECT_EQ(d_flags.to_host(), std::vector<char>(in.cells, 0));
}

}  // namespace
}  // namespace tb::test
