#pragma once
// Meshes, states and reconstructions on which the compressible loops
// (kernels.hpp) are compared: triangles, quadrilaterals and a mix, with slip
// walls, no-slip walls and far field, inviscid and viscous.
#include <string>
#include <vector>

#include "compressible_fixtures.hpp"
#include "physics/compressible/kernel_mesh.hpp"

namespace tb::test {

struct KernelCase {
  std::string name;
  Mesh2D mesh;
  std::vector<BoundaryKind> kinds;
  EulerSettings settings;
};

inline std::vector<KernelCase> kernel_cases() {
  std::vector<KernelCase> cases;
  const Mesh2D quads = distorted(cylinder_mesh(), 9);
  cases.push_back({"quadrilaterals, slip wall", quads, cylinder_boundaries(quads), settings_at(0.38, 0.05)});
  const Mesh2D mixed = half_triangulated(quads);
  KernelCase hybrid{"mixed, HLLC, triangle-node stencils, limiter", mixed, cylinder_boundaries(mixed),
                    settings_at(0.6, 0.1, FluxScheme::Hllc, true)};
  hybrid.settings.gradient_stencil = GradientStencil::TriangleNodes;
  cases.push_back(hybrid);
  const Mesh2D triangles = read_mesh(std::string(TB_SOURCE_DIR) + "/inputs/meshes/cylinder_triangles.su2");
  KernelCase tri{"triangles, pressure wall, Rusanov Jacobian", triangles, cylinder_boundaries(triangles),
                 settings_at(0.3, 0.0)};
  tri.settings.wall_flux = WallFlux::Pressure;
  tri.settings.jacobian_flux = FluxScheme::Rusanov;
  cases.push_back(tri);
  const Mesh2D naca = read_mesh(std::string(TB_SOURCE_DIR) + "/inputs/meshes/naca0012_coarse.su2");
  KernelCase viscous{"NACA0012, no-slip wall, viscous, low-Mach fix", naca, naca0012_laminar_boundaries(naca),
                     naca0012_laminar_settings(0.02)};
  viscous.settings.roe.low_mach_floor = 0.25;
  cases.push_back(viscous);
  return cases;
}

// A case's discretisation, its loops' mesh (the reconstruction's stencils
// included), and a state with second-order inputs: cell primitives, gradients
// and limiter values, small and random.
struct KernelInputs {
  EulerDiscretisation disc;
  KernelMesh mesh;
  SchemeView scheme;
  std::vector<State> w;
  std::vector<double> primitive, grad, phi;

  explicit KernelInputs(const KernelCase& c)
      : disc(c.mesh, c.kinds, c.settings),
        mesh(disc.kernel_mesh()),
        scheme(disc.scheme_view()),
        w(perturbed_free_stream(c.settings, c.mesh.num_cells(), 0.05, 11)) {
    const EulerSettings& s = c.settings;
    const std::size_t n = w.size();
    const std::vector<double> g = random_vector(8 * n, 12), p = random_vector(4 * n, 13);
    for (std::size_t i = 0; i < n; ++i) {
      const Primitive q = s.gas.primitive(w[i]);
      primitive.insert(primitive.end(), {q.rho, q.u, q.v, q.p});
    }
    for (double x : g) grad.push_back(0.05 * x);
    for (double x : p) phi.push_back(0.5 + 0.5 * std::abs(x));
  }
  FlowView flow(int order) const {
    FlowView q;
    q.w = w.front().data();
    if (order == 2) q.primitive = primitive.data(), q.grad = grad.data(), q.phi = phi.data();
    return q;
  }
};

}  // namespace tb::test
