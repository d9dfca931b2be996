// The reconstruction, viscous, force and matrix-free loops of kernels.hpp:
// the OpenMP versions equal the sequential twins bit for bit on one and two
// threads (quadrilaterals, a triangle/quadrilateral mix with triangle-node
// stencils and the limiter, triangles, a viscous NACA 0012 with no-slip walls);
// the gradients are exact for a linear field; the resident residual of order 2
// equals the discretisation's bit for bit, viscous included.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>

#include "../../common/bits.hpp"
#include "kernel_cases.hpp"
#include "physics/compressible/resident_flow.hpp"
#include "solvers/core/threading.hpp"

namespace tb::test {
namespace {

namespace ref = compressible::kernels::ref;
namespace omp = compressible::kernels::omp;

std::vector<double> flat(const std::vector<State>& v) {
  std::vector<double> out;
  for (const State& s : v) out.insert(out.end(), s.begin(), s.end());
  return out;
}

// Runs each new loop's ref and omp versions on one case's inputs, the outputs
// of one loop feeding the next as in a residual evaluation.
void compare_loops(const KernelInputs& in, const std::string& threads) {
  const MeshView m = in.mesh.view();
  const SchemeView& s = in.scheme;
  const std::size_t nf = std::size_t(m.num_faces), nc = std::size_t(m.num_cells);
  const std::vector<double> w = flat(in.w);
  const index_t n = m.num_cells;

  std::vector<double> pr(4 * nc), po(4 * nc, -1.0);
  ref::cell_primitives(n, s.gas, w.data(), pr.data());
  omp::cell_primitives(n, s.gas, w.data(), po.data());
  expect_bitwise(pr, po, "primitives, " + threads);

  FlowView q;
  q.w = w.data();
  std::vector<double> gr(4 * nf, 0.0), go(4 * nf, 0.0);
  ref::ghost_primitives(m, s, q, gr.data());
  omp::ghost_primitives(m, s, q, go.data());
  expect_bitwise(gr, go, "ghost primitives, " + threads);

  std::vector<double> dr(8 * nc), dor(8 * nc, -1.0);
  ref::least_squares_gradients(m, pr.data(), gr.data(), dr.data());
  omp::least_squares_gradients(m, pr.data(), gr.data(), dor.data());
  expect_bitwise(dr, dor, "gradients, " + threads);

  std::vector<double> phr(4 * nc), pho(4 * nc, -1.0);
  ref::limiter_phi(m, pr.data(), dr.data(), phr.data());
  omp::limiter_phi(m, pr.data(), dr.data(), pho.data());
  expect_bitwise(phr, pho, "limiter, " + threads);
  int limited = 0;
  for (double x : phr) {
    ASSERT_GE(x, 0.0);
    ASSERT_LE(x, 1.0);
    limited += x < 1.0;
  }
  EXPECT_GT(limited, 0) << "the perturbed state is limited somewhere";

  q.primitive = pr.data(), q.grad = dr.data(), q.phi = phr.data();
  std::vector<double> vr(4 * nf), vo(4 * nf, -1.0);
  ref::viscous_face_fluxes(m, s, q, vr.data());
  omp::viscous_face_fluxes(m, s, q, vo.data());
  expect_bitwise(vr, vo, "viscous face fluxes, " + threads);
  std::vector<double> jr(32 * nf), jo(32 * nf, -1.0);
  ref::viscous_jacobian_face_blocks(m, s, w.data(), jr.data());
  omp::viscous_jacobian_face_blocks(m, s, w.data(), jo.data());
  expect_bitwise(jr, jo, "viscous Jacobian face blocks, " + threads);

  std::vector<double> rr = random_vector(4 * nc, 21), ro = rr;
  ref::add_face_sums(m, FaceSign::out_of_left, 4, vr.data(), rr.data());
  omp::add_face_sums(m, FaceSign::out_of_left, 4, vr.data(), ro.data());
  expect_bitwise(rr, ro, "added face sums, " + threads);

  for (int order : {1, 2}) {
    for (index_t owned : {n, n / 2}) {
      std::vector<double> fr(4 * nf), fo(4 * nf, -1.0);
      ref::wall_forces(m, s, q, order, owned, fr.data());
      omp::wall_forces(m, s, q, order, owned, fo.data());
      expect_bitwise(fr, fo, "wall forces, " + threads);
      const State a = ref::ordered_sums(m.num_faces, fr.data()), b = omp::ordered_sums(m.num_faces, fo.data());
      EXPECT_EQ(0, std::memcmp(a.data(), b.data(), sizeof(State))) << "force sums, " << threads;
      if (owned == n) {
        EXPECT_NE(a[0], 0.0) << "every case has walls";
      }
    }
  }

  const std::vector<double> x = random_vector(4 * nc, 22), shift = random_vector(nc, 23);
  std::vector<double> tr(4 * nc), to(4 * nc, -1.0), yr(4 * nc), yo(4 * nc, -1.0);
  const double h = 1e-7;
  ref::perturbed_state(index_t(4 * nc), w.data(), &h, x.data(), tr.data());
  omp::perturbed_state(index_t(4 * nc), w.data(), &h, x.data(), to.data());
  expect_bitwise(tr, to, "perturbed state, " + threads);
  ref::difference_product(n, shift.data(), x.data(), tr.data(), w.data(), &h, yr.data());
  omp::difference_product(n, shift.data(), x.data(), tr.data(), w.data(), &h, yo.data());
  expect_bitwise(yr, yo, "difference product, " + threads);
  // The step from ||x||^2 and w's squared sums (||w|| = 3) where they are,
  // and the product of x = 0 (step 0): 0.
  const double x_squared = 6.25, w_sums[num_vars] = {4.0, 2.0, 2.0, 1.0};
  double step_ref = -1.0, step_omp = -1.0;
  ref::difference_step(&x_squared, w_sums, &step_ref);
  omp::difference_step(&x_squared, w_sums, &step_omp);
  EXPECT_EQ(step_ref, std::sqrt(0x1p-52 * 4.0) / 2.5);
  EXPECT_EQ(step_omp, step_ref);
  const double none = 0.0;
  ref::difference_step(&none, w_sums, &step_ref);
  EXPECT_EQ(step_ref, 0.0);
  ref::difference_product(n, shift.data(), x.data(), tr.data(), w.data(), &step_ref, yr.data());
  EXPECT_EQ(*std::max_element(yr.begin(), yr.end()), 0.0);
  EXPECT_EQ(*std::min_element(yr.begin(), yr.end()), 0.0);
}

TEST(CompressibleResidualKernels, OmpEqualsRefBitwiseOnOneAndTwoThreads) {
  for (const KernelCase& c : kernel_cases()) {
    SCOPED_TRACE(c.name);
    const KernelInputs in(c);
    for (int t : {1, 2}) {
      threading::fix_threads(t);
      compare_loops(in, std::to_string(t) + " threads");
    }
  }
}

// A linear field's gradient is exact in every cell, with the ghosts the
// discretisation places (a linear field's ghost value is its value there):
// every stencil, on the mixed mesh.
TEST(CompressibleResidualKernels, GradientsAreExactForALinearField) {
  const Mesh2D mesh = half_triangulated(distorted(cylinder_mesh(), 9));
  const auto field = [](double x, double y) { return State{1.0 + 0.1 * x - 0.2 * y, -0.3 * x, 2.0 * y, 0.5}; };
  const Gradient exact = {0.1, -0.2, -0.3, 0.0, 0.0, 2.0, 0.0, 0.0};
  for (const GradientStencil stencil :
       {GradientStencil::Faces, GradientStencil::Nodes, GradientStencil::TriangleNodes}) {
    EulerSettings settings = settings_at(0.3, 0.0);
    settings.gradient_stencil = stencil;
    const EulerDiscretisation disc(mesh, cylinder_boundaries(mesh), settings);
    const MeshView m = disc.kernel_mesh().view();
    ASSERT_NE(m.ghost_offset, nullptr);
    std::vector<double> q, ghost(4 * std::size_t(m.num_faces), 0.0), grad(8 * std::size_t(m.num_cells));
    for (index_t c = 0; c < m.num_cells; ++c) {
      const State v = field(m.centroid[2 * c], m.centroid[2 * c + 1]);
      q.insert(q.end(), v.begin(), v.end());
    }
    for (index_t f = mesh.num_interior_faces; f < m.num_faces; ++f) {
      const index_t c = m.face_left[f];
      const State v =
          field(m.centroid[2 * c] + m.ghost_offset[2 * f], m.centroid[2 * c + 1] + m.ghost_offset[2 * f + 1]);
      std::copy(v.begin(), v.end(), ghost.begin() + 4 * f);
    }
    threading::fix_threads(2);
    omp::least_squares_gradients(m, q.data(), ghost.data(), grad.data());
    for (std::size_t c = 0; c < std::size_t(m.num_cells); ++c)
      for (std::size_t k = 0; k < 2 * num_vars; ++k)
        ASSERT_NEAR(grad[8 * c + k], exact[k], 1e-11) << "stencil " << int(stencil) << ", cell " << c;
  }
}

// The resident residual of order 2 (gradients, limiter, inviscid and viscous
// face fluxes on the backend) equals EulerDiscretisation::residual bit for bit.
TEST(CompressibleResidualKernels, ResidentSecondOrderResidualEqualsTheDiscretisation) {
  threading::fix_threads(2);
  for (const KernelCase& c : kernel_cases()) {
    SCOPED_TRACE(c.name);
    KernelInputs in(c);
    ResidentFlow flow(Backend::host, in.disc);
    flow.upload(in.w);
    for (int order : {1, 2}) {
      const State sums = flow.residual(order);
      std::vector<State> r;
      in.disc.residual(in.w, order, r);
      State expected{};
      for (const State& s : r)
        for (std::size_t k = 0; k < num_vars; ++k) expected[k] += s[k] * s[k];
      EXPECT_EQ(sums, expected) << "order " << order;
      EXPECT_EQ(0, std::memcmp(flow.residual_values(), r.front().data(), r.size() * sizeof(State)))
          << "order " << order;
    }
  }
}

}  // namespace
}  // namespace tb::test
