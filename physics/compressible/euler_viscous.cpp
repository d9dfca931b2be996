// The laminar viscous terms of EulerDiscretisation (seed 001 §2): face gradients
// by the modified average of the cell gradients, the thin-layer stress and heat
// flux at no-slip walls, the thin-layer first-order Jacobian, and the viscous
// part of Eq. 4's spectral radius.
#include <algorithm>
#include <cmath>

#include "physics/compressible/euler_discretisation.hpp"

namespace tb::compressible {

State EulerDiscretisation::wall_ghost(BoundaryKind kind, const State& inner) const {
  const Gas& gas = settings_.gas;
  const double rho = inner[0], t_inner = settings_.viscous.temperature(gas, inner);
  // Mirrored velocity: zero at the wall, halfway. Adiabatic: the same temperature
  // (no heat flux); isothermal: T_ghost = 2 T_wall - T_inner.
  const double t = kind == BoundaryKind::NoSlipIsothermal ? 2.0 * settings_.wall_temperature - t_inner : t_inner;
  return gas.conserved({rho, -inner[1] / rho, -inner[2] / rho, rho * t / gas.gamma});
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
  const Face& f = mesh_.faces[std::size_t(face)];
  const State& inner = w[std::size_t(f.left)];
  const Vec2 n = geometry_.face_normal[std::size_t(face)];
  const double mu = settings_.viscous.mu(settings_.viscous.temperature(settings_.gas, inner));
  return thin_layer_flux(settings_.viscous, settings_.gas, inner, wall_ghost(boundary_kind(face), inner), n.x, n.y,
                         face_distance_[std::size_t(face)], mu);
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
  const Gas& gas = settings_.gas;
  const Viscosity& visc = settings_.viscous;
  for (index_t f = 0; f < mesh_.num_faces(); ++f) {
    const Face& face = mesh_.faces[std::size_t(f)];
    const double len = geometry_.face_length[std::size_t(f)];
    const std::size_t l = std::size_t(face.left);
    if (face.is_boundary()) {
      // A manufactured far field knows its exact viscous flux (set_manufactured).
      if (mms_ && boundary_kind(f) == BoundaryKind::FarField)
        for (std::size_t k = 0; k < num_vars; ++k) r[l][k] -= mms_viscous_flux_[std::size_t(f)][k] * len;
      if (!is_no_slip(boundary_kind(f))) continue;
      const State flux = wall_viscous_flux(w, f);
      for (std::size_t k = 0; k < num_vars; ++k) r[l][k] -= flux[k] * len;
      continue;
    }
    const std::size_t rr = std::size_t(face.right);
    const VelocityTemperatureGradients gl =
        velocity_temperature_gradients(primitive_[l][0], primitive_[l][3], grad_[l].data(), gas.gamma);
    const VelocityTemperatureGradients gr =
        velocity_temperature_gradients(primitive_[rr][0], primitive_[rr][3], grad_[rr].data(), gas.gamma);
    const Vec2 a = geometry_.cell_centroid[l], b = geometry_.cell_centroid[rr];
    const double dx = b.x - a.x, dy = b.y - a.y, dist = std::hypot(dx, dy), tx = dx / dist, ty = dy / dist;
    const double tl = visc.temperature(gas, w[l]), tr = visc.temperature(gas, w[rr]);
    const State& ql = primitive_[l];
    const State& qr = primitive_[rr];
    // Modified average: the mean gradient with its component along the centroid
    // line replaced by the difference quotient, which damps odd-even modes.
    const auto corrected = [&](double gxl, double gyl, double gxr, double gyr, double jump, double& gx, double& gy) {
      const double mx = 0.5 * (gxl + gxr), my = 0.5 * (gyl + gyr), c = jump / dist - (mx * tx + my * ty);
      gx = mx + c * tx, gy = my + c * ty;
    };
    VelocityTemperatureGradients g;
    corrected(gl.ux, gl.uy, gr.ux, gr.uy, qr[1] - ql[1], g.ux, g.uy);
    corrected(gl.vx, gl.vy, gr.vx, gr.vy, qr[2] - ql[2], g.vx, g.vy);
    corrected(gl.tx, gl.ty, gr.tx, gr.ty, tr - tl, g.tx, g.ty);
    const Vec2 n = geometry_.face_normal[std::size_t(f)];
    const State flux = viscous_flux(visc, g, 0.5 * (ql[1] + qr[1]), 0.5 * (ql[2] + qr[2]), 0.5 * (tl + tr), n.x, n.y);
    for (std::size_t k = 0; k < num_vars; ++k) {
      r[l][k] -= flux[k] * len;
      r[rr][k] += flux[k] * len;
    }
  }
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
