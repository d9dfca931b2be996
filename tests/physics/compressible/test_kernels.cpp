// The compressible loops (kernels.hpp): the OpenMP versions equal the
// sequential twins bit for bit on several threads, and the twins' two-pass
// gathers equal the sequential face loops (written here with the public flux
// functions) bit for bit, on triangles, quadrilaterals and mixed meshes with
// walls and far field.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "../../common/bits.hpp"
#include "kernel_cases.hpp"
#include "physics/compressible/loop_bodies.hpp"
#include "physics/compressible/resident_flow.hpp"
#include "physics/split_rows.hpp"
#include "solvers/core/threading.hpp"

namespace tb::test {
namespace {

namespace ref = compressible::kernels::ref;
namespace omp = compressible::kernels::omp;

class CompressibleKernels : public ::testing::Test {
 protected:
  // Several threads whatever the load, so the OpenMP loops split.
  static void SetUpTestSuite() { threading::fix_threads(3); }
};

TEST_F(CompressibleKernels, OmpEqualsRefBitwise) {
  for (const KernelCase& c : kernel_cases()) {
    SCOPED_TRACE(c.name);
    KernelInputs in(c);
    const MeshView m = in.mesh.view();
    const std::size_t nf = std::size_t(m.num_faces), nc = std::size_t(m.num_cells);
    for (int order : {1, 2}) {
      std::vector<double> fr(4 * nf), fo(4 * nf, -1.0), rr(4 * nc), ro(4 * nc, -1.0);
      ref::inviscid_face_fluxes(m, in.scheme, in.flow(order), order, fr.data());
      omp::inviscid_face_fluxes(m, in.scheme, in.flow(order), order, fo.data());
      expect_bitwise(fr, fo, "face fluxes, order " + std::to_string(order));
      ref::gather_face_sums(m, FaceSign::out_of_left, 4, fr.data(), rr.data());
      omp::gather_face_sums(m, FaceSign::out_of_left, 4, fr.data(), ro.data());
      expect_bitwise(rr, ro, "residual gather, order " + std::to_string(order));
    }
    std::vector<double> sr(nf), so(nf, -1.0), cr(nc), co(nc, -1.0);
    ref::spectral_radius_faces(m, in.scheme, in.w.front().data(), sr.data());
    omp::spectral_radius_faces(m, in.scheme, in.w.front().data(), so.data());
    expect_bitwise(sr, so, "spectral radii");
    ref::gather_face_sums(m, FaceSign::both, 1, sr.data(), cr.data());
    omp::gather_face_sums(m, FaceSign::both, 1, sr.data(), co.data());
    expect_bitwise(cr, co, "spectral radius sums");

    std::vector<double> jr(32 * nf), jo(32 * nf, -1.0);
    ref::jacobian_face_blocks(m, in.scheme, in.flow(1), jr.data());
    omp::jacobian_face_blocks(m, in.scheme, in.flow(1), jo.data());
    expect_bitwise(jr, jo, "Jacobian face blocks");
    const JacobianPattern& p = in.disc.pattern();
    std::vector<index_t> pos;
    for (const FaceBlocks& b : p.faces) pos.insert(pos.end(), {b.ll, b.lr, b.rl, b.rr});
    std::vector<double> ar(16 * p.matrix.col_idx.size(), 0.0), ao(ar.size(), 0.0);
    ref::gather_jacobian_rows(m, jr.data(), {pos.data(), ar.data(), nullptr});
    omp::gather_jacobian_rows(m, jr.data(), {pos.data(), ao.data(), nullptr});
    expect_bitwise(ar, ao, "Jacobian rows");
  }
}

// The sequential face loop the residual ran before the loops were split: each
// face adds F |f| to its left cell and subtracts it from its right one.
std::vector<double> face_loop_residual(const KernelCase& c, const KernelInputs& in) {
  std::vector<double> r(4 * std::size_t(c.mesh.num_cells()), 0.0);
  const MeshGeometry& g = in.disc.geometry();
  const EulerSettings& s = c.settings;
  for (index_t f = 0; f < c.mesh.num_faces(); ++f) {
    const Face& face = c.mesh.faces[std::size_t(f)];
    const Vec2 n = g.face_normal[std::size_t(f)];
    const double len = g.face_length[std::size_t(f)];
    const State& l = in.w[std::size_t(face.left)];
    const State flux =
        face.is_boundary()
            ? boundary_flux(in.disc.boundary_kind(f), s.flux, s.gas, l, s.free_stream, n.x, n.y, s.wall_flux, s.roe)
            : numerical_flux(s.flux, s.gas, l, in.w[std::size_t(face.right)], n.x, n.y, s.roe);
    for (std::size_t k = 0; k < num_vars; ++k) {
      r[4 * std::size_t(face.left) + k] += flux[k] * len;
      if (!face.is_boundary()) r[4 * std::size_t(face.right) + k] -= flux[k] * len;
    }
  }
  return r;
}

TEST_F(CompressibleKernels, GatheredResidualEqualsTheFaceLoopBitwise) {
  for (const KernelCase& c : kernel_cases()) {
    SCOPED_TRACE(c.name);
    KernelInputs in(c);
    const MeshView m = in.mesh.view();
    std::vector<double> face(4 * std::size_t(m.num_faces)), r(4 * std::size_t(m.num_cells));
    ref::inviscid_face_fluxes(m, in.scheme, in.flow(1), 1, face.data());
    ref::gather_face_sums(m, FaceSign::out_of_left, 4, face.data(), r.data());
    expect_bitwise(r, face_loop_residual(c, in), "first-order residual");
    if (c.settings.viscous.enabled()) continue;
    // The discretisation's own residual goes through the same loops.
    std::vector<State> rd;
    in.disc.residual(in.w, 1, rd);
    std::vector<double> flat;
    for (const State& s : rd) flat.insert(flat.end(), s.begin(), s.end());
    expect_bitwise(flat, r, "EulerDiscretisation::residual");
  }
}

TEST_F(CompressibleKernels, GatheredJacobianEqualsTheFaceLoopBitwise) {
  for (const KernelCase& c : kernel_cases()) {
    SCOPED_TRACE(c.name);
    KernelInputs in(c);
    const MeshView m = in.mesh.view();
    const JacobianPattern& p = in.disc.pattern();
    const EulerSettings& s = c.settings;
    const FluxScheme scheme = s.jacobian_scheme();
    BsrMatrix expected = p.matrix;
    expected.values.assign(16 * p.matrix.col_idx.size(), 0.0);
    const MeshGeometry& g = in.disc.geometry();
    for (index_t f = 0; f < c.mesh.num_faces(); ++f) {
      const Face& face = c.mesh.faces[std::size_t(f)];
      const Vec2 n = g.face_normal[std::size_t(f)];
      const double len = g.face_length[std::size_t(f)];
      const FaceBlocks& pos = p.faces[std::size_t(f)];
      const State& l = in.w[std::size_t(face.left)];
      if (face.is_boundary()) {
        add_scaled_block(expected, nullptr, pos.ll,
                         boundary_flux_jacobian(in.disc.boundary_kind(f), scheme, s.gas, l, s.free_stream, n.x, n.y,
                                                s.wall_flux, s.roe),
                         len);
        continue;
      }
      const FluxJacobians j = flux_jacobians(scheme, s.gas, l, in.w[std::size_t(face.right)], n.x, n.y, s.roe);
      add_scaled_block(expected, nullptr, pos.ll, j.left, len);
      add_scaled_block(expected, nullptr, pos.lr, j.right, len);
      add_scaled_block(expected, nullptr, pos.rl, j.left, -len);
      add_scaled_block(expected, nullptr, pos.rr, j.right, -len);
    }
    std::vector<double> face(32 * std::size_t(m.num_faces)), a(expected.values.size(), 0.0);
    std::vector<index_t> positions;
    for (const FaceBlocks& b : p.faces) positions.insert(positions.end(), {b.ll, b.lr, b.rl, b.rr});
    ref::jacobian_face_blocks(m, in.scheme, in.flow(1), face.data());
    ref::gather_jacobian_rows(m, face.data(), {positions.data(), a.data(), nullptr});
    expect_bitwise(a, expected.values, "first-order Jacobian");
  }
}

TEST_F(CompressibleKernels, SpectralRadiusSumsEqualTheFaceLoopBitwise) {
  for (const KernelCase& c : kernel_cases()) {
    SCOPED_TRACE(c.name);
    KernelInputs in(c);
    const MeshGeometry& g = in.disc.geometry();
    const EulerSettings& s = c.settings;
    std::vector<double> expected(std::size_t(c.mesh.num_cells()), 0.0);
    for (index_t f = 0; f < c.mesh.num_faces(); ++f) {
      const Face& face = c.mesh.faces[std::size_t(f)];
      const Vec2 n = g.face_normal[std::size_t(f)];
      double r = spectral_radius(s.gas, in.w[std::size_t(face.left)], n.x, n.y);
      if (!face.is_boundary()) r = std::max(r, spectral_radius(s.gas, in.w[std::size_t(face.right)], n.x, n.y));
      const auto viscous = [&](const State& w) {
        const double mu = s.viscous.mu(s.viscous.temperature(s.gas, w));
        return std::max(4.0 / 3.0, s.gas.gamma / s.viscous.prandtl) * mu / (w[0] * in.disc.face_distance(f));
      };
      if (s.viscous.enabled()) {
        double v = viscous(in.w[std::size_t(face.left)]);
        if (!face.is_boundary()) v = std::max(v, viscous(in.w[std::size_t(face.right)]));
        r += v;
      }
      r *= g.face_length[std::size_t(f)];
      expected[std::size_t(face.left)] += r;
      if (!face.is_boundary()) expected[std::size_t(face.right)] += r;
    }
    std::vector<double> sums;
    in.disc.spectral_radius_sums(in.w, sums);
    expect_bitwise(sums, expected, "spectral radius sums");
  }
}

TEST_F(CompressibleKernels, UpdateReductionsEqualTheCellLoops) {
  const KernelCase c = kernel_cases().front();
  KernelInputs in(c);
  const Gas& gas = c.settings.gas;
  const index_t n = c.mesh.num_cells();
  const double* w = in.w.front().data();
  std::vector<double> dw = random_vector(4 * std::size_t(n), 21);
  for (double& x : dw) x *= 0.01;
  double worst = 0.0;
  State sums{};
  for (index_t i = 0; i < n; ++i) {
    State next;
    for (int k = 0; k < num_vars; ++k) next[std::size_t(k)] = w[4 * i + k] + dw[std::size_t(4 * i + k)];
    const double p = gas.pressure(in.w[std::size_t(i)]);
    worst = std::max({worst, std::abs(dw[std::size_t(4 * i)]) / w[4 * i], std::abs(gas.pressure(next) - p) / p});
    for (int k = 0; k < num_vars; ++k) sums[std::size_t(k)] += dw[std::size_t(4 * i + k)] * dw[std::size_t(4 * i + k)];
  }
  EXPECT_GT(worst, 0.0);
  for (const double got :
       {ref::max_relative_change(n, gas, w, dw.data()), omp::max_relative_change(n, gas, w, dw.data())})
    EXPECT_EQ(got, worst);
  EXPECT_EQ(ref::squared_sums(n, dw.data()), sums);
  EXPECT_EQ(omp::squared_sums(n, dw.data()), sums);
  State left_ref{}, left_omp{};  // the same four sums, left in memory for a later step
  ref::squared_sums_to(n, dw.data(), left_ref.data());
  omp::squared_sums_to(n, dw.data(), left_omp.data());
  EXPECT_EQ(left_ref, sums);
  EXPECT_EQ(left_omp, sums);

  std::vector<double> tr(4 * std::size_t(n)), to(tr.size());
  EXPECT_TRUE(ref::relaxed_update(n, gas, w, dw.data(), 0.5, tr.data()));
  EXPECT_TRUE(omp::relaxed_update(n, gas, w, dw.data(), 0.5, to.data()));
  expect_bitwise(tr, to, "relaxed update");
  EXPECT_EQ(tr[7], w[7] + 0.5 * dw[7]);
  dw[4 * std::size_t(n / 2)] = -2.0 * w[4 * (n / 2)];  // one cell's density goes negative
  EXPECT_FALSE(ref::relaxed_update(n, gas, w, dw.data(), 1.0, tr.data()));
  EXPECT_FALSE(omp::relaxed_update(n, gas, w, dw.data(), 1.0, to.data()));
  EXPECT_TRUE(omp::relaxed_update(n, gas, w, dw.data(), 0.25, to.data()));

  std::vector<double> shift(static_cast<std::size_t>(n));
  omp::pseudo_time_shift(n, dw.data(), 4.0, shift.data());
  EXPECT_EQ(shift[3], dw[3] / 4.0);
}

// The exact Jacobian's column loops (coloured_jacobian.hpp) against the
// difference quotient they stand for, on the first-order pattern (symmetric:
// face neighbours): entry (m, k) of block (i, j) is (r_trial - r)_im / h_j, h_j
// the step as represented, and the state's entry is put back. Cells j write
// disjoint columns, so every cell at once here (a colour is what makes the
// quotient a derivative, not what keeps the writes apart).
TEST_F(CompressibleKernels, ExactJacobianColumnsAreTheDifferenceQuotients) {
  const KernelCase c = kernel_cases().front();
  KernelInputs in(c);
  const BsrMatrix& a = in.disc.pattern().matrix;
  const index_t n = c.mesh.num_cells();
  ASSERT_EQ(a.block_rows, n);
  const std::size_t values = 4 * std::size_t(n);
  std::vector<index_t> transposed(a.col_idx.size()), cells(static_cast<std::size_t>(n));
  for (index_t j = 0; j < n; ++j) {
    cells[std::size_t(j)] = j;
    for (index_t e = a.row_ptr[std::size_t(j)]; e < a.row_ptr[std::size_t(j) + 1]; ++e) {
      transposed[std::size_t(e)] = a.find_block(a.col_idx[std::size_t(e)], j);
      ASSERT_GE(transposed[std::size_t(e)], 0) << "the pattern is not symmetric";
    }
  }
  const ColumnPattern p{a.row_ptr.data(), a.col_idx.data(), transposed.data()};
  const double* w = in.w.front().data();
  const std::vector<double> state(w, w + values), r = random_vector(values, 31), r_trial = random_vector(values, 32);
  for (int k : {0, 3}) {
    SCOPED_TRACE(k);
    std::vector<double> tr = state, to = state, vr(16 * a.col_idx.size(), 0.0), vo = vr, h(std::size_t(n), 0.0);
    ref::perturb_columns(cells.data(), n, k, w, tr.data());
    omp::perturb_columns(cells.data(), n, k, w, to.data());
    expect_bitwise(tr, to, "perturbed columns");
    for (std::size_t j = 0; j < std::size_t(n); ++j) {
      const double x = state[4 * j + std::size_t(k)];
      ASSERT_EQ(tr[4 * j + std::size_t(k)], x + 1.4901161193847656e-08 * (1.0 + std::abs(x)));
      h[j] = tr[4 * j + std::size_t(k)] - x;
    }
    ref::difference_columns(p, cells.data(), n, k, w, r.data(), r_trial.data(), tr.data(), vr.data());
    omp::difference_columns(p, cells.data(), n, k, w, r.data(), r_trial.data(), to.data(), vo.data());
    expect_bitwise(vr, vo, "difference columns");
    expect_bitwise(tr, state, "the state put back");
    for (std::size_t i = 0; i < std::size_t(n); ++i)
      for (index_t e = a.row_ptr[i]; e < a.row_ptr[i + 1]; ++e) {
        const std::size_t j = std::size_t(a.col_idx[std::size_t(e)]), at = 16 * std::size_t(e);
        for (std::size_t m = 0; m < num_vars; ++m) {
          ASSERT_EQ(vr[at + 4 * m + std::size_t(k)], (r_trial[4 * i + m] - r[4 * i + m]) / h[j]) << i << " " << j;
          ASSERT_EQ(vr[at + 4 * m + std::size_t(k + 1) % 4], 0.0) << "another column written";
        }
      }
  }
}

// A pseudo-time step's pieces through the resident state on the host backend
// equal the discretisation's own, bit for bit.
TEST_F(CompressibleKernels, ResidentFlowOnTheHostEqualsTheDiscretisation) {
  for (const KernelCase& c : kernel_cases()) {
    SCOPED_TRACE(c.name);
    KernelInputs in(c);
    ResidentFlow flow(Backend::host, in.disc);
    flow.upload(in.w);
    const State sums = flow.residual();
    std::vector<State> r;
    in.disc.residual(in.w, 1, r);
    State expected{};
    for (const State& s : r)
      for (std::size_t k = 0; k < num_vars; ++k) expected[k] += s[k] * s[k];
    EXPECT_EQ(sums, expected);
    EXPECT_EQ(0, std::memcmp(flow.residual_values(), r.front().data(), r.size() * sizeof(State)));

    const double cfl = 37.0;
    flow.local_time_step(cfl);
    std::vector<double> radius, shift;
    in.disc.spectral_radius_sums(in.w, radius);
    for (double x : radius) shift.push_back(x / cfl);
    EXPECT_EQ(0, std::memcmp(flow.shift(), shift.data(), shift.size() * sizeof(double)));

    BsrMatrix a = in.disc.pattern().matrix;
    in.disc.assemble_jacobian(in.w, shift, a);
    std::vector<double> values(a.values.size(), 0.0);
    flow.assemble_jacobian(values.data(), nullptr);
    expect_bitwise(values, a.values, "resident Jacobian");

    std::vector<double> dw = random_vector(4 * in.w.size(), 3);
    for (double& x : dw) x *= 1e-3;
    // Eq. 2's relaxation to a largest change of 1e-4 (PseudoTimeSolver::relaxation_for).
    const double worst = flow.max_relative_change(dw.data());
    EXPECT_EQ(worst, ref::max_relative_change(flow.owned(), in.scheme.gas, in.w.front().data(), dw.data()));
    const double omega = 1e-4 / worst;
    EXPECT_GT(omega, 0.0);
    EXPECT_LT(omega, 1.0);
    ASSERT_TRUE(flow.update(dw.data(), omega));
    const double kept = in.w[5][2] + omega * dw[22];
    EXPECT_EQ(flow.download()[5][2], kept);
    for (double& x : dw) x = -1e3;
    EXPECT_FALSE(flow.update(dw.data(), 1.0));
    EXPECT_EQ(flow.download()[5][2], kept);
  }
}

}  // namespace
}  // namespace tb::test
