// The CUDA versions of the compressible loops (kernels.hpp) against the
// sequential twins on meshes and states uploaded to the device. Skips with the
// reason when no device is visible.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "kernel_cases.hpp"
#include "physics/compressible/resident_flow.hpp"
#include "solvers/core/array.hpp"
#include "solvers/core/cuda_call.hpp"

namespace tb::test {
namespace {

namespace ref = compressible::kernels::ref;
namespace gpu = compressible::kernels::cuda;

#define TB_SKIP_WITHOUT_DEVICE() \
  if (const std::string why = cuda_unavailable_reason(); !why.empty()) GTEST_SKIP() << why

Array<double> on_device(const std::vector<double>& v) {
  return Array<double>(Backend::cuda, std::span<const double>(v));
}

std::vector<double> to_host(const Array<double>& a) {
  std::vector<double> out(a.size());
  a.copy_to_host(std::span<double>(out));
  return out;
}

// Device arithmetic may contract a * b + c into one rounding: equal to rounding.
void expect_close(const std::vector<double>& got, const std::vector<double>& want, const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  double scale = 0.0;
  for (double x : want) scale = std::max(scale, std::abs(x));
  for (std::size_t i = 0; i < got.size(); ++i)
    ASSERT_NEAR(got[i], want[i], 1e-12 * (1.0 + scale)) << what << " at " << i;
}

TEST(CompressibleKernelsGpu, FaceAndCellLoopsEqualRef) {
  TB_SKIP_WITHOUT_DEVICE();
  for (const KernelCase& c : kernel_cases()) {
    SCOPED_TRACE(c.name);
    KernelInputs in(c);
    const MeshView m = in.mesh.view();
    const MeshOnBackend dm(Backend::cuda, in.mesh);
    const MeshView d = dm.view();
    const std::size_t nf = std::size_t(m.num_faces), nc = std::size_t(m.num_cells);
    std::vector<double> w;
    for (const State& s : in.w) w.insert(w.end(), s.begin(), s.end());
    const Array<double> dw_state = on_device(w), dprim = on_device(in.primitive), dgrad = on_device(in.grad),
                        dphi = on_device(in.phi);
    for (int order : {1, 2}) {
      FlowView q;
      q.w = dw_state.data();
      if (order == 2) q.primitive = dprim.data(), q.grad = dgrad.data(), q.phi = dphi.data();
      std::vector<double> face(4 * nf), r(4 * nc);
      ref::inviscid_face_fluxes(m, in.scheme, in.flow(order), order, face.data());
      ref::gather_face_sums(m, FaceSign::out_of_left, 4, face.data(), r.data());
      Array<double> dface(Backend::cuda, 4 * nf), dr(Backend::cuda, 4 * nc);
      gpu::inviscid_face_fluxes(d, in.scheme, q, order, dface.data());
      gpu::gather_face_sums(d, FaceSign::out_of_left, 4, dface.data(), dr.data());
      expect_close(to_host(dr), r, "residual, order " + std::to_string(order));
    }
    std::vector<double> rad(nf), sums(nc);
    ref::spectral_radius_faces(m, in.scheme, w.data(), rad.data());
    ref::gather_face_sums(m, FaceSign::both, 1, rad.data(), sums.data());
    Array<double> drad(Backend::cuda, nf), dsums(Backend::cuda, nc);
    gpu::spectral_radius_faces(d, in.scheme, dw_state.data(), drad.data());
    gpu::gather_face_sums(d, FaceSign::both, 1, drad.data(), dsums.data());
    expect_close(to_host(dsums), sums, "spectral radius sums");

    const JacobianPattern& p = in.disc.pattern();
    std::vector<index_t> pos;
    for (const FaceBlocks& b : p.faces) pos.insert(pos.end(), {b.ll, b.lr, b.rl, b.rr});
    std::vector<double> jf(32 * nf), a(16 * p.matrix.col_idx.size(), 0.0);
    ref::jacobian_face_blocks(m, in.scheme, in.flow(1), jf.data());
    ref::gather_jacobian_rows(m, jf.data(), {pos.data(), a.data(), nullptr});
    const Array<index_t> dpos(Backend::cuda, std::span<const index_t>(pos));
    Array<double> djf(Backend::cuda, 32 * nf), da = on_device(std::vector<double>(a.size(), 0.0));
    FlowView q1;
    q1.w = dw_state.data();
    gpu::jacobian_face_blocks(d, in.scheme, q1, djf.data());
    gpu::gather_jacobian_rows(d, djf.data(), {dpos.data(), da.data(), nullptr});
    expect_close(to_host(da), a, "first-order Jacobian");

    const std::vector<double> step = random_vector(4 * nc, 5);
    std::vector<double> small;
    for (double x : step) small.push_back(0.01 * x);
    const Array<double> dstep = on_device(small);
    const index_t n = m.num_cells;
    // The largest of per-cell ratios, each through the pressure (a contractible
    // s1 s1 + s2 s2): the twin's to rounding.
    const double change = ref::max_relative_change(n, c.settings.gas, w.data(), small.data());
    EXPECT_NEAR(gpu::max_relative_change(n, c.settings.gas, dw_state.data(), dstep.data()), change, 1e-13 * change);
    const State want = ref::squared_sums(n, small.data()), got = gpu::squared_sums(n, dstep.data());
    Array<double> dsquares(Backend::cuda, num_vars);
    gpu::squared_sums_to(n, dstep.data(), dsquares.data());
    const std::vector<double> left = to_host(dsquares);
    for (int k = 0; k < num_vars; ++k) {
      EXPECT_NEAR(got[std::size_t(k)], want[std::size_t(k)], 1e-12 * want[std::size_t(k)]);
      EXPECT_EQ(left[std::size_t(k)], got[std::size_t(k)]) << "the sums left on the device are the ones read back";
    }
    std::vector<double> trial(4 * nc);
    Array<double> dtrial(Backend::cuda, 4 * nc);
    EXPECT_EQ(gpu::relaxed_update(n, c.settings.gas, dw_state.data(), dstep.data(), 0.5, dtrial.data()),
              ref::relaxed_update(n, c.settings.gas, w.data(), small.data(), 0.5, trial.data()));
    expect_close(to_host(dtrial), trial, "relaxed update");
  }
}

// Over no cells the reductions are the sequential twins': zeros, no change,
// an admissible (empty) trial.
TEST(CompressibleKernelsGpu, ReductionsOverNoCellsAreTheTwins) {
  TB_SKIP_WITHOUT_DEVICE();
  const Gas gas;
  const Array<double> none = on_device({0.0, 0.0, 0.0, 0.0});
  Array<double> sums = on_device({1.0, 1.0, 1.0, 1.0}), trial(Backend::cuda, 4);
  const double* w = none.data();
  EXPECT_EQ(gpu::squared_sums(0, w), ref::squared_sums(0, w));
  EXPECT_EQ(gpu::ordered_sums(0, w), ref::ordered_sums(0, w));
  gpu::squared_sums_to(0, w, sums.data());
  EXPECT_EQ(to_host(sums), std::vector<double>(4, 0.0));
  EXPECT_EQ(gpu::max_relative_change(0, gas, w, w), 0.0);
  EXPECT_TRUE(gpu::relaxed_update(0, gas, w, w, 0.5, trial.data()));
}

// The resident state on the device against the same on the host (the residual
// of order 1 and 2, the wall forces, the time step, the relaxed update): per
// call only scalars come back, and they agree to rounding.
TEST(CompressibleKernelsGpu, ResidentFlowEqualsTheHost) {
  TB_SKIP_WITHOUT_DEVICE();
  for (const KernelCase& c : kernel_cases()) {
    SCOPED_TRACE(c.name);
    KernelInputs in(c);
    ResidentFlow host(Backend::host, in.disc), device(Backend::cuda, in.disc);
    host.upload(in.w);
    device.upload(in.w);
    const State a = host.residual(), b = device.residual();
    for (std::size_t k = 0; k < num_vars; ++k) EXPECT_NEAR(b[k], a[k], 1e-11 * a[k]);
    // Order 2, viscous included, and the wall forces of its reconstruction.
    const State a2 = host.residual(2), b2 = device.residual(2);
    for (std::size_t k = 0; k < num_vars; ++k) EXPECT_NEAR(b2[k], a2[k], 1e-10 * a2[k]);
    const State fa = host.wall_forces(2), fb = device.wall_forces(2);
    for (std::size_t k = 0; k < num_vars; ++k) EXPECT_NEAR(fb[k], fa[k], 1e-12 * (1.0 + std::abs(fa[k])));
    host.local_time_step(50.0);
    device.local_time_step(50.0);
    std::vector<double> dw = random_vector(4 * in.w.size(), 3);
    for (double& x : dw) x *= 1e-3;
    const Array<double> ddw = on_device(dw);
    const double change = host.max_relative_change(dw.data());
    EXPECT_NEAR(device.max_relative_change(ddw.data()), change, 1e-13 * change);
    EXPECT_TRUE(device.update(ddw.data(), 0.5));
    EXPECT_TRUE(host.update(dw.data(), 0.5));
    std::vector<double> dflat, hflat;
    for (const State& s : device.download()) dflat.insert(dflat.end(), s.begin(), s.end());
    for (const State& s : host.download()) hflat.insert(hflat.end(), s.begin(), s.end());
    expect_close(dflat, hflat, "updated state");
  }
}

// The reconstruction, viscous, force and matrix-free loops on the device
// against the sequential twins, each fed the twins' own inputs.
TEST(CompressibleKernelsGpu, ResidualLoopsEqualRef) {
  TB_SKIP_WITHOUT_DEVICE();
  for (const KernelCase& c : kernel_cases()) {
    SCOPED_TRACE(c.name);
    KernelInputs in(c);
    const MeshView m = in.mesh.view();
    const MeshOnBackend dm(Backend::cuda, in.mesh);
    const MeshView d = dm.view();
    const SchemeView& s = in.scheme;
    const std::size_t nf = std::size_t(m.num_faces), nc = std::size_t(m.num_cells);
    const index_t n = m.num_cells;
    std::vector<double> w;
    for (const State& x : in.w) w.insert(w.end(), x.begin(), x.end());
    const Array<double> dw_state = on_device(w);

    std::vector<double> prim(4 * nc), ghost(4 * nf, 0.0), grad(8 * nc), phi(4 * nc), visc(4 * nf), force(4 * nf);
    Array<double> dprim(Backend::cuda, 4 * nc), dghost = on_device(ghost), dgrad(Backend::cuda, 8 * nc),
                                                dphi(Backend::cuda, 4 * nc), dvisc(Backend::cuda, 4 * nf),
                                                dforce(Backend::cuda, 4 * nf);
    ref::cell_primitives(n, s.gas, w.data(), prim.data());
    gpu::cell_primitives(n, s.gas, dw_state.data(), dprim.data());
    expect_close(to_host(dprim), prim, "primitives");
    FlowView q, dq;
    q.w = w.data(), dq.w = dw_state.data();
    ref::ghost_primitives(m, s, q, ghost.data());
    gpu::ghost_primitives(d, s, dq, dghost.data());
    expect_close(to_host(dghost), ghost, "ghost primitives");
    // Each loop from the twins' inputs, so that differences do not compound.
    const Array<double> hprim = on_device(prim), hghost = on_device(ghost);
    ref::least_squares_gradients(m, prim.data(), ghost.data(), grad.data());
    gpu::least_squares_gradients(d, hprim.data(), hghost.data(), dgrad.data());
    expect_close(to_host(dgrad), grad, "gradients");
    const Array<double> hgrad = on_device(grad);
    ref::limiter_phi(m, prim.data(), grad.data(), phi.data());
    gpu::limiter_phi(d, hprim.data(), hgrad.data(), dphi.data());
    expect_close(to_host(dphi), phi, "limiter");
    const Array<double> hphi = on_device(phi);
    q.primitive = prim.data(), q.grad = grad.data(), q.phi = phi.data();
    dq.primitive = hprim.data(), dq.grad = hgrad.data(), dq.phi = hphi.data();
    ref::viscous_face_fluxes(m, s, q, visc.data());
    gpu::viscous_face_fluxes(d, s, dq, dvisc.data());
    expect_close(to_host(dvisc), visc, "viscous face fluxes");
    std::vector<double> vjac(32 * nf);
    Array<double> dvjac(Backend::cuda, 32 * nf);
    ref::viscous_jacobian_face_blocks(m, s, w.data(), vjac.data());
    gpu::viscous_jacobian_face_blocks(d, s, dw_state.data(), dvjac.data());
    expect_close(to_host(dvjac), vjac, "viscous Jacobian face blocks");
    std::vector<double> r = random_vector(4 * nc, 4);
    Array<double> dr = on_device(r);
    ref::add_face_sums(m, FaceSign::out_of_left, 4, visc.data(), r.data());
    const Array<double> hvisc = on_device(visc);
    gpu::add_face_sums(d, FaceSign::out_of_left, 4, hvisc.data(), dr.data());
    expect_close(to_host(dr), r, "added face sums");
    ref::wall_forces(m, s, q, 2, n, force.data());
    gpu::wall_forces(d, s, dq, 2, n, dforce.data());
    expect_close(to_host(dforce), force, "wall forces");
    const State want = ref::ordered_sums(m.num_faces, force.data()),
                got = gpu::ordered_sums(d.num_faces, dforce.data());
    for (std::size_t k = 0; k < num_vars; ++k) EXPECT_NEAR(got[k], want[k], 1e-12 * (1.0 + std::abs(want[k])));

    const std::vector<double> x = random_vector(4 * nc, 6), shift = random_vector(nc, 7);
    std::vector<double> trial(4 * nc), y(4 * nc);
    Array<double> dtrial(Backend::cuda, 4 * nc), dy(Backend::cuda, 4 * nc);
    const Array<double> dx = on_device(x), dshift = on_device(shift);
    const double h = 1e-7;
    const Array<double> dh = on_device(std::vector<double>{h});
    ref::perturbed_state(index_t(4 * nc), w.data(), &h, x.data(), trial.data());
    gpu::perturbed_state(index_t(4 * nc), dw_state.data(), dh.data(), dx.data(), dtrial.data());
    expect_close(to_host(dtrial), trial, "perturbed state");
    ref::difference_product(n, shift.data(), x.data(), trial.data(), w.data(), &h, y.data());
    const Array<double> htrial = on_device(trial);
    gpu::difference_product(n, dshift.data(), dx.data(), htrial.data(), dw_state.data(), dh.data(), dy.data());
    expect_close(to_host(dy), y, "difference product");
    // The step from ||x||^2 and w's squared sums, both on the device: the host's bits (one thread, no sums).
    const double x_squared = 6.25;
    const std::vector<double> w_sums = {4.0, 2.0, 2.0, 1.0};
    double step = -1.0;
    ref::difference_step(&x_squared, w_sums.data(), &step);
    const Array<double> dx_squared = on_device(std::vector<double>{x_squared}), dw_sums = on_device(w_sums);
    Array<double> dstep_h(Backend::cuda, 1);
    gpu::difference_step(dx_squared.data(), dw_sums.data(), dstep_h.data());
    EXPECT_EQ(to_host(dstep_h).front(), step);

    // The exact Jacobian's columns (every cell at once: the columns are disjoint) on the first-order pattern.
    const BsrMatrix& a = in.disc.pattern().matrix;
    std::vector<index_t> transposed(a.col_idx.size()), cells(nc);
    for (index_t j = 0; j < n; ++j) {
      cells[std::size_t(j)] = j;
      for (index_t e = a.row_ptr[std::size_t(j)]; e < a.row_ptr[std::size_t(j) + 1]; ++e)
        transposed[std::size_t(e)] = a.find_block(a.col_idx[std::size_t(e)], j);
    }
    const Array<index_t> drow(Backend::cuda, std::span<const index_t>(a.row_ptr)),
        dcol(Backend::cuda, std::span<const index_t>(a.col_idx)),
        dtr(Backend::cuda, std::span<const index_t>(transposed)),
        dcells(Backend::cuda, std::span<const index_t>(cells));
    const ColumnPattern p{a.row_ptr.data(), a.col_idx.data(), transposed.data()},
        dp{drow.data(), dcol.data(), dtr.data()};
    std::vector<double> cols(16 * a.col_idx.size(), 0.0), ctrial = w;
    Array<double> dcols = on_device(cols), dctrial = on_device(w);
    const Array<double> hy = on_device(y), hr = on_device(trial);
    ref::perturb_columns(cells.data(), n, 2, w.data(), ctrial.data());
    gpu::perturb_columns(dcells.data(), n, 2, dw_state.data(), dctrial.data());
    expect_close(to_host(dctrial), ctrial, "perturbed columns");
    ref::difference_columns(p, cells.data(), n, 2, w.data(), y.data(), trial.data(), ctrial.data(), cols.data());
    gpu::difference_columns(dp, dcells.data(), n, 2, dw_state.data(), hy.data(), hr.data(), dctrial.data(),
                            dcols.data());
    expect_close(to_host(dcols), cols, "difference columns");
    expect_close(to_host(dctrial), w, "the state put back");
  }
}

}  // namespace
}  // namespace tb::test
