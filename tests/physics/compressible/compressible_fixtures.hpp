#pragma once
// The shipped coarse cylinder mesh, a distorted copy of it, random admissible
// states near the free stream, and a registry solver for the Jacobian systems.
#include <cmath>
#include <functional>
#include <map>
#include <memory>
#include <string>

#include "../../common/random.hpp"
#include "mesh/io/mesh_io.hpp"
#include "physics/compressible/euler_discretisation.hpp"
#include "physics/compressible/pseudo_time.hpp"
#include "solvers/factory/registry.hpp"

namespace tb::test {

using namespace tb::compressible;

inline Mesh2D cylinder_mesh() { return read_mesh(std::string(TB_SOURCE_DIR) + "/inputs/meshes/cylinder_coarse.msh"); }

// Every node off the boundary moved by up to 15% of its distance to the origin
// over the 64 cells of a ring (cells are about 0.1 r wide), so no cell folds.
inline Mesh2D distorted(Mesh2D mesh, unsigned seed) {
  std::vector<bool> on_boundary(std::size_t(mesh.num_nodes()), false);
  for (const BoundaryEdge& e : mesh.boundary_edges)
    on_boundary[std::size_t(e.nodes[0])] = on_boundary[std::size_t(e.nodes[1])] = true;
  const std::vector<double> shift = random_vector(2 * mesh.nodes.size(), seed);
  for (std::size_t i = 0; i < mesh.nodes.size(); ++i) {
    if (on_boundary[i]) continue;
    Vec2& x = mesh.nodes[i];
    const double r = std::hypot(x.x, x.y), amplitude = 0.15 * 6.283185307179586 * r / 64.0;
    x.x += amplitude * shift[2 * i], x.y += amplitude * shift[2 * i + 1];
  }
  return mesh;
}

// Every second quadrilateral split into two triangles along a diagonal: a
// hybrid mesh whose triangles border quadrilaterals and triangles.
inline Mesh2D half_triangulated(const Mesh2D& quads) {
  Mesh2D m;
  m.nodes = quads.nodes;
  m.marker_names = quads.marker_names;
  m.boundary_edges = quads.boundary_edges;
  for (index_t c = 0; c < quads.num_cells(); ++c) {
    const index_t* n = quads.cell_begin(c);
    if (quads.cell_size(c) == 4 && c % 2 == 0) {
      m.add_cell({n[0], n[1], n[2]});
      m.add_cell({n[0], n[2], n[3]});
    } else {
      m.add_cell(n, quads.cell_size(c));
    }
  }
  build_faces(m);
  return m;
}

// Each cell split into four (a quadrilateral at its edge midpoints and centre, a
// triangle at its edge midpoints); new boundary nodes are moved radially onto the
// circle of their edge (cylinder and far field are circles about the origin), so
// the meshes are nested up to the boundary.
inline Mesh2D refined_cylinder_mesh(const Mesh2D& coarse) {
  Mesh2D m;
  m.nodes = coarse.nodes;
  m.marker_names = coarse.marker_names;
  std::map<std::pair<index_t, index_t>, index_t> midpoint;
  const auto mid = [&](index_t a, index_t b) {
    const auto key = std::minmax(a, b);
    auto [it, fresh] = midpoint.try_emplace({key.first, key.second}, m.num_nodes());
    if (fresh) {
      const Vec2 p = m.nodes[std::size_t(a)], q = m.nodes[std::size_t(b)];
      m.nodes.push_back({0.5 * (p.x + q.x), 0.5 * (p.y + q.y)});
    }
    return it->second;
  };
  for (index_t c = 0; c < coarse.num_cells(); ++c) {
    const index_t* v = coarse.cell_begin(c);
    if (coarse.cell_size(c) == 3) {
      const index_t ab = mid(v[0], v[1]), bc = mid(v[1], v[2]), ca = mid(v[2], v[0]);
      m.add_cell({v[0], ab, ca});
      m.add_cell({ab, v[1], bc});
      m.add_cell({ca, bc, v[2]});
      m.add_cell({ab, bc, ca});
      continue;
    }
    const index_t ab = mid(v[0], v[1]), bc = mid(v[1], v[2]), cd = mid(v[2], v[3]), da = mid(v[3], v[0]);
    Vec2 centre{};
    for (int k = 0; k < 4; ++k)
      centre.x += 0.25 * coarse.nodes[std::size_t(v[k])].x, centre.y += 0.25 * coarse.nodes[std::size_t(v[k])].y;
    const index_t ctr = m.num_nodes();
    m.nodes.push_back(centre);
    m.add_cell({v[0], ab, ctr, da});
    m.add_cell({ab, v[1], bc, ctr});
    m.add_cell({ctr, bc, v[2], cd});
    m.add_cell({da, ctr, cd, v[3]});
  }
  for (const BoundaryEdge& e : coarse.boundary_edges) {
    const index_t k = mid(e.nodes[0], e.nodes[1]);
    const Vec2 a = coarse.nodes[std::size_t(e.nodes[0])];
    Vec2& p = m.nodes[std::size_t(k)];
    const double scale = std::hypot(a.x, a.y) / std::hypot(p.x, p.y);
    p.x *= scale, p.y *= scale;
    m.boundary_edges.push_back({{e.nodes[0], k}, e.marker});
    m.boundary_edges.push_back({{k, e.nodes[1]}, e.marker});
  }
  build_faces(m);
  return m;
}

// scripts/ogrid_cylinder.py N_THETA N_RADIAL --triangles: the O-grid about the
// unit-diameter cylinder to radius 50, radii geometric from a square wall cell,
// each quadrilateral split along the diagonal mirrored between the halves, so
// that the mesh is its own mirror image in y = 0 (node for node). With
// `one_way_rings` > 0 (--diagonals one-way --rings K) the K rings next to the
// wall take the upper half's diagonal all round instead.
inline Mesh2D triangle_ogrid(int n_theta, int n_radial, int one_way_rings = 0) {
  const double first = 0.5 * 2.0 * 3.141592653589793 / n_theta, far = 50.0;
  double lo = 1.0 + 1e-12, hi = 10.0;
  for (int k = 0; k < 200; ++k) {  // the ratio q of first (q^n - 1) / (q - 1) = far - 0.5
    const double q = 0.5 * (lo + hi);
    (first * (std::pow(q, n_radial) - 1.0) / (q - 1.0) > far - 0.5 ? hi : lo) = q;
  }
  const double q = 0.5 * (lo + hi);
  std::vector<double> r = {0.5};
  for (int j = 0; j < n_radial; ++j) r.push_back(r.back() + first * std::pow(q, j));
  r.back() = far;
  Mesh2D m;
  const auto node = [&](int i, int j) { return index_t(j * n_theta + i % n_theta); };
  for (int j = 0; j <= n_radial; ++j)
    for (int i = 0; i < n_theta; ++i) {
      const int k = std::min(i, n_theta - i);
      const double t = 2.0 * 3.141592653589793 * k / n_theta;
      const double y = k == 0 || 2 * k == n_theta ? 0.0 : r[std::size_t(j)] * std::sin(t);
      m.nodes.push_back({r[std::size_t(j)] * std::cos(t), i == k ? y : -y});
    }
  for (int j = 0; j < n_radial; ++j)
    for (int i = 0; i < n_theta; ++i) {
      const index_t a = node(i, j), b = node(i + 1, j), c = node(i + 1, j + 1), d = node(i, j + 1);
      if (i < n_theta / 2 || j < one_way_rings) {
        m.add_cell({a, c, b});
        m.add_cell({a, d, c});
      } else {
        m.add_cell({a, d, b});
        m.add_cell({b, d, c});
      }
    }
  m.marker_names = {"cylinder", "farfield"};
  for (int i = 0; i < n_theta; ++i) {
    m.boundary_edges.push_back({{node(i, 0), node(i + 1, 0)}, 0});
    m.boundary_edges.push_back({{node(i, n_radial), node(i + 1, n_radial)}, 1});
  }
  build_faces(m);
  return m;
}

// scripts/nested_cylinder.py LEVEL: level 0 is the 128-triangle mesh of seed
// 001's code's cylinder cases (16 nodes on each of five rings to radius 20,
// every second ring turned by half a cell, triangles spanning neighbouring
// rings), level k its k-fold refined_cylinder_mesh. Each level is its own
// mirror image in y = 0.
inline Mesh2D nested_cylinder(int level) {
  const double radii[] = {0.5, 0.9018, 2.2015, 6.4048, 20.0}, pi = 3.141592653589793;
  const int per_ring = 16, rings = 5;
  Mesh2D m;
  const auto node = [&](int ring, int i) { return index_t(ring * per_ring + (i + per_ring) % per_ring); };
  for (int j = 0; j < rings; ++j)
    for (int i = 0; i < per_ring; ++i) {
      const double t = (j % 2 ? pi / per_ring : 0.0) + 2.0 * pi * i / per_ring;
      m.nodes.push_back({radii[j] * std::cos(t), radii[j] * std::sin(t)});
    }
  for (int j = 0; j + 1 < rings; ++j)
    for (int i = 0; i < per_ring; ++i)
      if (j % 2 == 0) {  // ring j + 1's node i lies half a cell after ring j's
        m.add_cell({node(j, i), node(j + 1, i), node(j, i + 1)});
        m.add_cell({node(j, i), node(j + 1, i - 1), node(j + 1, i)});
      } else {  // half a cell before
        m.add_cell({node(j, i), node(j + 1, i), node(j + 1, i + 1)});
        m.add_cell({node(j, i), node(j + 1, i + 1), node(j, i + 1)});
      }
  m.marker_names = {"cylinder", "farfield"};
  for (int i = 0; i < per_ring; ++i) {
    m.boundary_edges.push_back({{node(0, i), node(0, i + 1)}, 0});
    m.boundary_edges.push_back({{node(rings - 1, i), node(rings - 1, i + 1)}, 1});
  }
  build_faces(m);
  for (int k = 0; k < level; ++k) m = refined_cylinder_mesh(m);
  return m;
}

// A hybrid O-grid about the unit-diameter cylinder in the manner of a viscous
// mesh: `layers` rings of quadrilaterals from a first height `first` growing by
// `ratio`, then triangles (each quadrilateral split) growing to radius 20.
// With first = 5e-6 and 64 cells around, the wall cells' aspect ratio is 1e4.
inline Mesh2D stretched_hybrid_ogrid(int n_theta, int layers, int outer, double first, double ratio) {
  std::vector<double> r = {0.5};
  for (int j = 0; j < layers; ++j) r.push_back(r.back() + first * std::pow(ratio, j));
  const double q = std::pow(20.0 / r.back(), 1.0 / outer);
  for (int j = 0; j < outer; ++j) r.push_back(r.back() * q);
  Mesh2D m;
  const int rings = int(r.size()) - 1;
  const auto node = [&](int i, int j) { return index_t(j * n_theta + i % n_theta); };
  for (int j = 0; j <= rings; ++j)
    for (int i = 0; i < n_theta; ++i) {
      const double t = 2.0 * 3.141592653589793 * i / n_theta;
      m.nodes.push_back({r[std::size_t(j)] * std::cos(t), r[std::size_t(j)] * std::sin(t)});
    }
  for (int j = 0; j < rings; ++j)
    for (int i = 0; i < n_theta; ++i) {
      const index_t a = node(i, j), b = node(i + 1, j), c = node(i + 1, j + 1), d = node(i, j + 1);
      if (j < layers) {
        m.add_cell({a, b, c, d});
      } else {
        m.add_cell({a, b, c});
        m.add_cell({a, c, d});
      }
    }
  m.marker_names = {"cylinder", "farfield"};
  for (int i = 0; i < n_theta; ++i) {
    m.boundary_edges.push_back({{node(i, 0), node(i + 1, 0)}, 0});
    m.boundary_edges.push_back({{node(i, rings), node(i + 1, rings)}, 1});
  }
  build_faces(m);
  return m;
}

inline std::vector<BoundaryKind> cylinder_boundaries(const Mesh2D& mesh, bool wall_too_is_far_field = false) {
  BoundaryMap map;
  map.far_field = {"farfield"};
  (wall_too_is_far_field ? map.far_field : map.slip_wall).push_back("cylinder");
  return boundary_kinds_by_marker(mesh, map);
}

inline EulerSettings settings_at(double mach, double alpha, FluxScheme flux = FluxScheme::Roe, bool limiter = false) {
  EulerSettings s;
  s.flux = flux;
  s.limiter = limiter;
  s.free_stream = s.gas.free_stream(mach, alpha);
  return s;
}

// The laminar NACA0012 case (inputs/compressible/naca0012_laminar.toml): far
// field, adiabatic no-slip airfoil, M 0.5 and Re 5000 on the unit chord.
inline std::vector<BoundaryKind> naca0012_laminar_boundaries(const Mesh2D& mesh) {
  BoundaryMap map;
  map.far_field = {"farfield"};
  map.no_slip_adiabatic = {"airfoil"};
  return boundary_kinds_by_marker(mesh, map);
}
inline EulerSettings naca0012_laminar_settings(double alpha, FluxScheme flux = FluxScheme::Roe) {
  EulerSettings s = settings_at(0.5, alpha, flux);
  s.viscous.mu_inf = 0.5 / 5000.0;
  return s;
}

// The largest magnitude of any component: the scale of a residual.
// The least-squares gradients of q (one State per cell; ghost: one per
// boundary face, or none) by the loop the residual runs (kernels.hpp's
// least_squares_gradients, sequential twin) over ls's stencils.
inline std::vector<Gradient> ls_gradients(const Mesh2D& mesh, const MeshGeometry& g, const LeastSquaresGradients& ls,
                                          const std::vector<State>& q, const std::vector<State>& ghost = {}) {
  const std::size_t nf = std::size_t(mesh.num_faces()), first = std::size_t(mesh.num_interior_faces);
  const KernelMesh km = build_kernel_mesh(mesh, g, std::vector<double>(nf, 1.0),
                                          std::vector<BoundaryKind>(std::size_t(mesh.num_markers())), &ls);
  std::vector<State> per_face(nf);
  for (std::size_t b = 0; b < ghost.size(); ++b) per_face[first + b] = ghost[b];
  std::vector<Gradient> grad(q.size());
  compressible::kernels::ref::least_squares_gradients(km.view(), q.front().data(), per_face.front().data(),
                                                      grad.front().data());
  return grad;
}

inline double max_abs(const std::vector<State>& r) {
  double m = 0.0;
  for (const State& s : r)
    for (double x : s) m = std::max(m, std::abs(x));
  return m;
}

// The discretisation inputs/compressible/cylinder_inviscid.toml chooses: the
// inner pressure on the wall, gradients from interior neighbours, the entropy
// fix on the acoustic waves (docs/compressible.md: on the unsymmetric coarse
// cylinder these converge in 131 steps, the defaults in 214).
inline EulerSettings cylinder_case_settings(FluxScheme flux = FluxScheme::Roe, bool limiter = false) {
  EulerSettings s = settings_at(0.38, 0.0, flux, limiter);
  s.wall_flux = WallFlux::Pressure;
  s.boundary_ghost_gradients = false;
  s.roe.all_waves = false;
  return s;
}

// The free stream with every primitive variable perturbed by up to `amplitude` (relative).
inline std::vector<State> perturbed_free_stream(const EulerSettings& s, index_t cells, double amplitude,
                                                unsigned seed) {
  const std::vector<double> r = random_vector(4 * std::size_t(cells), seed);
  const Primitive f = s.gas.primitive(s.free_stream);
  std::vector<State> w(static_cast<std::size_t>(cells));
  for (std::size_t c = 0; c < w.size(); ++c)
    w[c] = s.gas.conserved({f.rho * (1.0 + amplitude * r[4 * c]), f.u + amplitude * r[4 * c + 1],
                            f.v + amplitude * r[4 * c + 2], f.p * (1.0 + amplitude * r[4 * c + 3])});
  return w;
}

// Solves A x = b, x holding the initial guess: a test's stand-in for the run's systems.
using LinearSolve = std::function<SolveStats(const BsrMatrix& a, std::span<const double> b, std::span<double> x)>;

// The flow system of a pseudo-time solver solved by a function.
class FunctionSystems final : public systems::SystemRegistry, public systems::LinearSystems {
 public:
  explicit FunctionSystems(const LinearSolve& solve) : solve_(solve) {}
  systems::SystemId declare(const systems::SystemDeclaration&) override { return systems::SystemId(0); }
  SolveStats solve(systems::SystemId, const BsrMatrix& a, std::span<const double> b, std::span<double> x) override {
    return solve_(a, b, x);
  }
  void precondition_outer(systems::SystemId, bool, int) override {}

 private:
  const LinearSolve& solve_;
};

// One pseudo-time step whose linear solves `solve` does.
inline PseudoStepReport step(PseudoTimeSolver& solver, const LinearSolve& solve) {
  FunctionSystems systems(solve);
  solver.declare_systems(systems);
  return solver.step(systems);
}

// One registry solver, set up on the first solve and updated after.
class JacobianSolver {
 public:
  explicit JacobianSolver(std::string spec) : spec_(std::move(spec)) {}
  LinearSolve function() {
    return [this](const BsrMatrix& a, std::span<const double> b, std::span<double> x) {
      if (!solver_) {
        solver_ = make_solver(spec_);
        solver_->setup(a);
      } else {
        solver_->update(a);
      }
      return solver_->solve(b, x);
    };
  }

 private:
  std::string spec_;
  std::unique_ptr<LinearSolver> solver_;
};

}  // namespace tb::test
