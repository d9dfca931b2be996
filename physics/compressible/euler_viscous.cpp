// The laminar viscous terms of EulerDiscretisation (seed 001 §2): face gradients
// by the modified average of the cell gradients, the thin-layer stress and heat
// flux at no-slip walls, the thin-layer first-order Jacobian, and the viscous
// part of Eq. 4's spectral radius.
#include <algorithm>
#include <cmath>

#include "physics/compressible/euler_discretisation.hpp"
#include "physics/compressible/loop_bodies.hpp"

namespace tb::compressible {

State EulerDiscretisation::wall_ghost(BoundaryKind kind, const State& inner) const {
  return bodies::wall_ghost(scheme_, kind, inner);
}

Block EulerDiscretisation::wall_ghost_jacobian(BoundaryKind kind, const State& inner) const {
  const Gas& gas = settings_.gas;
  const double rho = inner[0], u = inner[1] / rho, v = inner[2] / rho;
  // rho_g = rho, m_g = -m, E_g = p_g / (gamma - 1) + |m|^2 / (2 rho).
  Block j{};
  j[0] = 1.0;
  j[1 * num_vars + 1] = -1.0;
  j[2 * num_vars + 2] = -1.0;
  const State dp = pressure_gradient(gas, inner);
  const double half_q2 = 0.5 * (u * u + v * v);
  // d(|m|^2 / 2 rho) = (-q^2/2, u, v, 0).
  const State dkin = {-half_q2, u, v, 0.0};
  State dpg = dp;  // adiabatic: p_g = p
  if (kind == BoundaryKind::NoSlipIsothermal) {
    // p_g = rho T_g / gamma = (2 T_w rho - gamma p) / gamma.
    const double tw = settings_.wall_temperature;
    for (int m = 0; m < num_vars; ++m) dpg[m] = (m == 0 ? 2.0 * tw / gas.gamma : 0.0) - dp[m];
  }
  for (int m = 0; m < num_vars; ++m) j[3 * num_vars + m] = dpg[m] / (gas.gamma - 1.0) + dkin[m];
  return j;
}

State EulerDiscretisation::wall_viscous_flux(const std::vector<State>& w, index_t face) const {
  return bodies::wall_viscous_flux(kernel_mesh_.view(), scheme_, w.front().data(), face);
}

Block EulerDiscretisation::wall_viscous_jacobian(const std::vector<State>& w, index_t face) const {
  const Face& f = mesh_.faces[std::size_t(face)];
  const State& inner = w[std::size_t(f.left)];
  const Vec2 n = geometry_.face_normal[std::size_t(face)];
  const BoundaryKind kind = boundary_kind(face);
  const double mu = settings_.viscous.mu(settings_.viscous.temperature(settings_.gas, inner));
  const FluxJacobians j = thin_layer_jacobians(settings_.viscous, settings_.gas, inner, wall_ghost(kind, inner), n.x,
                                               n.y, face_distance_[std::size_t(face)], mu);
  const Block g = wall_ghost_jacobian(kind, inner);
  Block d = j.left;
  for (int k = 0; k < num_vars; ++k)
    for (int m = 0; m < num_vars; ++m)
      for (int l = 0; l < num_vars; ++l) d[k * num_vars + m] += j.right[k * num_vars + l] * g[l * num_vars + m];
  return d;
}

void EulerDiscretisation::add_viscous_residual(const std::vector<State>& w, std::vector<State>& r) const {
  // Each face's -F_v . n |f| into its slot, then each cell adds its faces'
  // slots onto its inviscid sum in face order, as the sequential face loop did.
  FlowView q;
  q.w = w.front().data(), q.primitive = primitive_.front().data(), q.grad = grad_.front().data();
  if (mms_) q.outside_viscous = mms_viscous_flux_.front().data();
  face_values_.resize(std::max(face_values_.size(), std::size_t(num_vars) * std::size_t(mesh_.num_faces())));
  const MeshView m = kernel_mesh_.view();
  kernels::viscous_face_fluxes(Backend::host, m, scheme_, q, face_values_.data());
  kernels::add_face_sums(Backend::host, m, FaceSign::out_of_left, num_vars, face_values_.data(), doubles_of(r).data());
}

void EulerDiscretisation::add_viscous_jacobian(const std::vector<State>& w, BsrMatrix& a, BsrMatrix* off_rank) const {
  const Gas& gas = settings_.gas;
  const Viscosity& visc = settings_.viscous;
  for (index_t f = 0; f < mesh_.num_faces(); ++f) {
    const Face& face = mesh_.faces[std::size_t(f)];
    const double len = geometry_.face_length[std::size_t(f)];
    const FaceBlocks& pos = pattern_.faces[std::size_t(f)];
    if (!pos.held()) continue;  // between a piece's ghosts
    if (face.is_boundary()) {
      if (is_no_slip(boundary_kind(f))) add_scaled_block(a, off_rank, pos.ll, wall_viscous_jacobian(w, f), -len);
      continue;
    }
    const State& l = w[std::size_t(face.left)];
    const State& r = w[std::size_t(face.right)];
    const double mu = visc.mu(0.5 * (visc.temperature(gas, l) + visc.temperature(gas, r)));
    const Vec2 n = geometry_.face_normal[std::size_t(f)];
    const FluxJacobians j = thin_layer_jacobians(visc, gas, l, r, n.x, n.y, face_distance_[std::size_t(f)], mu);
    add_scaled_block(a, off_rank, pos.ll, j.left, -len);
    add_scaled_block(a, off_rank, pos.lr, j.right, -len);
    add_scaled_block(a, off_rank, pos.rl, j.left, len);
    add_scaled_block(a, off_rank, pos.rr, j.right, len);
  }
}

double EulerDiscretisation::viscous_spectral_radius(const State& s, index_t face) const {
  const Viscosity& visc = settings_.viscous;
  const double mu = visc.mu(visc.temperature(settings_.gas, s));
  return std::max(4.0 / 3.0, settings_.gas.gamma / visc.prandtl) * mu / (s[0] * face_distance_[std::size_t(face)]);
}

}  // namespace tb::compressible
