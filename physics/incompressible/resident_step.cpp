#include "physics/incompressible/resident_step.hpp"

#include <cmath>

#include "physics/incompressible/kernels.hpp"
#include "physics/incompressible/momentum.hpp"
#include "solvers/core/error.hpp"
#include "solvers/core/memory.hpp"

namespace tb::incompressible {

namespace {

template <class T>
Array<T> on(Backend b, std::span<const T> host) {
  return Array<T>(b, host);
}

}  // namespace

ResidentStep::ResidentStep(FractionalStep& flow, systems::LinearSystems& systems, Backend backend)
    : flow_(flow), share_(flow.share()), backend_(backend), host_grid_(flow.grid().view()) {
  const FvGrid& g = flow.grid();
  for (int d = 0; d < 3; ++d) {
    const AxisView& a = host_grid_.axis[d];
    const index_t cells = a.cells, inner = a.periodic ? cells : cells - 1;
    const double* arrays[5] = {a.nodes, a.widths, a.centres, a.spacing, a.weight};
    const index_t sizes[5] = {cells + 1, cells, cells, inner, inner};
    for (int k = 0; k < 5; ++k)
      geometry_[d][k] = on(backend, std::span<const double>(arrays[k], arrays[k] ? std::size_t(sizes[k]) : 0));
  }
  for (int side = 0; side < 6; ++side)
    sides_[side] = on(backend, std::span<const double>(flow.boundaries().side_values(side)));
  const auto cells7 = [&](const StencilPattern& p) {
    return std::span<const index_t>(positions(p), p.position.size() * 7);
  };
  momentum_position_ = on(backend, cells7(flow.momentum_));
  poisson_position_ = on(backend, cells7(flow.poisson_));
  const std::size_t cells = std::size_t(g.num_cells()), n = std::size_t(g.dim());
  for (Vector* v : {&u_, &u_old_, &grad_p_, &rhs_m_, &du_}) *v = Vector(backend, cells * n);
  for (Vector* v : {&p_, &rhs_p_, &phi_, &div_}) *v = Vector(backend, cells);
  const std::size_t owned = std::size_t(g.owned_cell_end() - g.owned_cell_begin());
  for (Vector* v : {&b_div_, &delta_}) *v = Vector(backend, owned);
  for (int d = 0; d < 3; ++d) faces_[d] = Vector(backend, flow.faces_.normal[d].size());
  if (piece()) {
    for (Vector* v : {&momentum_b_, &momentum_x_}) *v = Vector(backend, owned * n);
    for (Vector* v : {&pressure_b_, &pressure_x_}) *v = Vector(backend, owned);
  }
  from_host();

  // The patterns once; the pressure's values once (they do not change), its
  // blocks in ghost columns beside them where the systems keep them (DeviceValues).
  systems.set_pattern(flow.momentum_id_, flow.momentum_.matrix);
  systems.set_pattern(flow.pressure_id_, flow.poisson_.matrix);
  const systems::DeviceValues pv = systems.device_values(flow.pressure_id_);
  kernels::poisson_rows(backend_, grid_view(), poisson_position_.data(), BlockView{pv.values, pv.off_rank_values, 1});
  systems.values_written(flow.pressure_id_);
}

void ResidentStep::exchange(Vector& v, index_t width) {
  if (share_) share_->exchange_on(backend_, v.data(), width);
}

void ResidentStep::settle_phi(const Vector& x) {
  if (!piece()) return;  // x is phi_
  const std::size_t begin = std::size_t(flow_.grid().owned_cell_begin());
  memory::copy(phi_.data() + begin, backend_, x.data(), backend_, x.size() * sizeof(double));
  exchange(phi_, 1);
}

GridView ResidentStep::grid_view() const {
  GridView v = host_grid_;
  for (int d = 0; d < 3; ++d) {
    AxisView& a = v.axis[d];
    const double** arrays[5] = {&a.nodes, &a.widths, &a.centres, &a.spacing, &a.weight};
    for (int k = 0; k < 5; ++k) *arrays[k] = geometry_[d][k].data();
  }
  return v;
}

BoundaryView ResidentStep::boundary_view() const {
  BoundaryView v = flow_.boundaries().view();
  for (int side = 0; side < 6; ++side) v.values[side] = sides_[side].data();
  return v;
}

FaceView ResidentStep::face_view() {
  return flow_.faces_.view_of({faces_[0].data(), faces_[1].data(), faces_[2].data()});
}

bool ResidentStep::outflow(int side) const { return flow_.boundaries_.kind(side) == BoundaryKind::outflow; }

void ResidentStep::to_host() {
  u_.copy_to_host(flow_.u_);
  p_.copy_to_host(flow_.p_);
  div_.copy_to_host(flow_.div_);
  for (int d = 0; d < 3; ++d) faces_[d].copy_to_host(flow_.faces_.normal[d]);
  for (int side = 0; side < 6; ++side)
    if (outflow(side)) sides_[side].copy_to_host(flow_.boundaries_.side_values_to_write(side));
}

void ResidentStep::from_host() {
  u_.copy_from_host(flow_.u_);
  p_.copy_from_host(flow_.p_);
  div_.copy_from_host(flow_.div_);
  for (int d = 0; d < 3; ++d) faces_[d].copy_from_host(flow_.faces_.normal[d]);
  for (int side = 0; side < 6; ++side)
    if (outflow(side)) sides_[side].copy_from_host(flow_.boundaries_.side_values(side));
}

namespace {
void keep_copy(const Vector& from, Vector& kept) {
  if (kept.size() != from.size()) kept = Vector(from.backend(), from.size());
  kept.copy_from(from);
}
}  // namespace

void ResidentStep::keep() {
  keep_copy(u_, kept_u_);
  keep_copy(p_, kept_p_);
  keep_copy(div_, kept_div_);
  for (int d = 0; d < 3; ++d) keep_copy(faces_[d], kept_faces_[d]);
  for (int side = 0; side < 6; ++side)
    if (outflow(side)) keep_copy(sides_[side], kept_sides_[side]);
  kept_time_ = flow_.time_;
  kept_steps_ = flow_.steps_;
}

void ResidentStep::restore_kept() {
  TB_REQUIRE(has_kept(), "internal: ResidentStep::restore_kept before keep");
  u_.copy_from(kept_u_);
  p_.copy_from(kept_p_);
  div_.copy_from(kept_div_);
  for (int d = 0; d < 3; ++d) faces_[d].copy_from(kept_faces_[d]);
  for (int side = 0; side < 6; ++side)
    if (outflow(side)) sides_[side].copy_from(kept_sides_[side]);
  flow_.time_ = kept_time_;
  flow_.steps_ = kept_steps_;
}

double ResidentStep::max_velocity() const { return kernels::max_abs(backend_, index_t(u_.size()), u_.data()); }
double ResidentStep::max_pressure() const { return kernels::max_abs(backend_, index_t(p_.size()), p_.data()); }

// FractionalStep::pressure_solve on the backend, the projection's corrections
// included. b and x are the owned cells' parts of rhs_p_ and phi_ (on a whole
// grid, the arrays themselves); the kernels index both by owned cell.
void ResidentStep::pressure_solve(systems::LinearSystems& systems, StepReport& r) {
  const FlowSettings& s = flow_.settings_;
  const bool whole = s.pressure_unknown == PressureUnknown::pressure;
  const bool bounded = s.projection_tol > 0.0;
  const FvGrid& grid = flow_.grid();
  const index_t begin = grid.owned_cell_begin(), owned = grid.owned_cell_end() - begin;
  const GridView g = grid_view();
  const systems::DeviceValues pv = systems.device_values(flow_.pressure_id_);
  const ConstBlockView a{pv.values, pv.off_rank_values, 1};
  Vector& b = piece() ? pressure_b_ : rhs_p_;
  Vector& x = piece() ? pressure_x_ : phi_;
  const std::size_t skip = std::size_t(begin);
  if (piece()) memory::copy(b.data(), backend_, rhs_p_.data() + skip, backend_, b.size() * sizeof(double));
  if (bounded) b_div_.copy_from(b);
  phi_.set_zero();
  if (piece()) x.set_zero();
  if (whole) {
    const systems::AssemblyTimer assembly(systems);
    kernels::add_poisson_product(backend_, g, poisson_position_.data(), a, p_.data(), b.data());
    memory::copy(x.data(), backend_, p_.data() + skip, backend_, x.size() * sizeof(double));
  }
  if (!systems.solve(flow_.pressure_id_, b, x).converged()) r.failed.push_back("pressure");
  if (whole) kernels::add_scaled(backend_, owned, -1.0, p_.data() + skip, x.data());
  settle_phi(x);
  if (!bounded) return;
  const double target = flow_.projection_target(backend_, g, b_div_.data(), u_.data());
  const index_t pin = grid.pressure_pin();
  const double pin_volume = pin >= 0 ? grid.volume(grid.ijk(pin)) : 0.0;
  // FractionalStep::divergence_left: b_div - A phi into b, the correction's right-hand side.
  const auto left = [&] {
    b.set_zero();
    kernels::add_scaled(backend_, owned, -1.0, b_div_.data(), b.data());
    kernels::add_poisson_product(backend_, g, poisson_position_.data(), a, phi_.data(), b.data());
    return FractionalStep::worst_divergence(kernels::divergence_left(backend_, g, s.dt, pin, b.data()), pin_volume,
                                            share_);
  };
  for (int k = 0; k < FractionalStep::max_corrections && left() > target; ++k) {
    delta_.set_zero();
    ++r.projection_corrections;
    if (flow_.correction_failed(systems, k, [&] { return systems.solve(flow_.pressure_id_, b, delta_); }))
      r.failed.push_back("pressure");
    kernels::add_scaled(backend_, owned, 1.0, delta_.data(), x.data());
    settle_phi(x);
  }
}

// The momentum's solve for du; u += du, then (a piece) u*'s ghosts.
void ResidentStep::momentum_solve(systems::LinearSystems& systems, StepReport& r) {
  const index_t n = flow_.grid().dim();
  if (!piece()) {
    du_.set_zero();
    if (!systems.solve(flow_.momentum_id_, rhs_m_, du_).converged()) r.failed.push_back("momentum");
    kernels::add_scaled(backend_, index_t(u_.size()), 1.0, du_.data(), u_.data());
    return;
  }
  const std::size_t skip = std::size_t(flow_.grid().owned_cell_begin()) * std::size_t(n);
  memory::copy(momentum_b_.data(), backend_, rhs_m_.data() + skip, backend_, momentum_b_.size() * sizeof(double));
  momentum_x_.set_zero();
  if (!systems.solve(flow_.momentum_id_, momentum_b_, momentum_x_).converged()) r.failed.push_back("momentum");
  kernels::add_scaled(backend_, index_t(momentum_x_.size()), 1.0, momentum_x_.data(), u_.data() + skip);
  exchange(u_, n);  // u* on the ghosts, for the Rhie-Chow faces of the owned cells
}

// FractionalStep::step's sequence, the exchanges (a piece's) on the backend.
StepReport ResidentStep::step(systems::LinearSystems& systems) {
  const FlowSettings& s = flow_.settings_;
  const GridView g = grid_view();
  const BoundaryView b = boundary_view();
  StepReport r;
  u_old_.copy_from(u_);
  std::array<double*, 6> sides{};
  for (int side = 0; side < 6; ++side) sides[std::size_t(side)] = sides_[side].data();
  flow_.boundaries_.advance_outflow(backend_, g, u_.data(), s.dt, sides);
  {
    const systems::AssemblyTimer assembly(systems);
    kernels::pressure_gradient(backend_, g, p_.data(), grad_p_.data());
    const cell::MomentumView m{
        u_.data(), grad_p_.data(), s.nu, s.dt, {s.body_force[0], s.body_force[1], s.body_force[2]}};
    const systems::DeviceValues mv = systems.device_values(flow_.momentum_id_);
    const index_t entries = index_t(g.dim) * index_t(g.dim);
    const MomentumSums sums = kernels::momentum_rows(backend_, g, b, m, momentum_position_.data(),
                                                     BlockView{mv.values, mv.off_rank_values, entries}, rhs_m_.data());
    systems.values_written(flow_.momentum_id_);
    r.momentum_residual = momentum_residual(sums, share_);
  }
  momentum_solve(systems, r);

  const FaceView faces = face_view();
  kernels::rhie_chow(backend_, g, b, u_.data(), p_.data(), grad_p_.data(), s.dt, faces);
  {
    const systems::AssemblyTimer assembly(systems);
    kernels::poisson_rhs(backend_, g, faces, s.dt, rhs_p_.data());
  }
  pressure_solve(systems, r);
  kernels::pressure_gradient(backend_, g, phi_.data(), grad_p_.data());
  kernels::project(backend_, g, phi_.data(), s.dt, grad_p_.data(), faces, u_.data(), p_.data());
  exchange(u_, g.dim);  // every ghost holds its owner's state, as the host step leaves it
  exchange(p_, 1);
  kernels::divergence(backend_, g, faces, div_.data());

  flow_.time_ += s.dt;
  ++flow_.steps_;
  r.time = flow_.time_;
  flow_.report_maxima(kernels::step_maxima(backend_, g, u_.data(), u_old_.data(), div_.data(), s.dt), r);
  return r;
}

}  // namespace tb::incompressible
