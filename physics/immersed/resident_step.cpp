#include "physics/immersed/resident_step.hpp"

#include <algorithm>
#include <string>

#include "physics/immersed/kernels.hpp"
#include "physics/step_failure.hpp"
#include "solvers/core/error.hpp"

namespace tb::immersed {

namespace {

template <class T>
Array<T> on(Backend b, std::span<const T> host) {
  return Array<T>(b, host);
}

void keep_copy(const Vector& from, Vector& kept) {
  if (kept.size() != from.size()) kept = Vector(from.backend(), from.size());
  kept.copy_from(from);
}

}  // namespace

bool ResidentStep::resident(const ImmersedFlow& flow) { return !flow.share(); }

ResidentStep::ResidentStep(ImmersedFlow& flow, systems::LinearSystems& systems, Backend backend)
    : flow_(flow), backend_(backend) {
  TB_REQUIRE(resident(flow), "internal: a resident step needs a whole grid");
  const CartesianGrid& g = flow.grid();
  for (int d = 0; d < 3; ++d) {
    const GridAxis& a = g.axis(d);
    axes_[d][0] = on(backend, std::span<const double>(a.nodes));
    axes_[d][1] = on(backend, std::span<const double>(a.widths));
    axes_[d][2] = on(backend, std::span<const double>(a.centres));
  }
  const std::size_t cells = std::size_t(g.num_cells());
  types_ = Array<CellType>(backend, cells);
  cleared_ = Array<char>(backend, cells);
  for (int d = 0; d < 3; ++d) {
    for (Vector* v : {&u_[d], &u_old_[d], &n_old_[d]}) *v = Vector(backend, cells);
    faces_[d] = Vector(backend, flow.faces_.normal(d).size());
  }
  p_ = Vector(backend, cells);
  rhs_ = Vector(backend, cells);
  from_host();
  lay_out_body(systems);
}

template <class T>
void ResidentStep::send(Sent<T>& to, std::span<const T> host, std::size_t& bytes, bool only_changes) {
  if (host.size() > to.array.size()) {
    to.array = Array<T>(backend_, to.array.empty() ? host.size() : std::max(host.size(), 2 * to.array.size()));
    to.mirror.clear();
  }
  std::size_t first = 0, last = host.size();
  if (only_changes && to.mirror.size() == host.size()) {
    while (first < last && host[first] == to.mirror[first]) ++first;
    while (last > first && host[last - 1] == to.mirror[last - 1]) --last;
  }
  if (last > first)
    memory::copy(to.array.data() + first, backend_, host.data() + first, Backend::host, (last - first) * sizeof(T));
  bytes += (last - first) * sizeof(T);
  if (only_changes) to.mirror.assign(host.begin(), host.end());
}

cell::MovedCellsView ResidentStep::moved_view() {
  return {moved_, moved_cells_.data(), moved_types_.data(), moved_fill_.data(), moved_wall_.data()};
}

// The ghost rows, the rows' layout and both matrices for flow_'s body position.
void ResidentStep::lay_out_body(systems::LinearSystems& systems) {
  send(ghost_cells_, std::span<const index_t>(flow_.ghost_cells_), uploads_.band, false);
  for (int d = 0; d < 3; ++d)
    send(ghost_values_[d], std::span<const double>(flow_.ghost_values_[d]), uploads_.band, false);
  const SystemPattern& p = flow_.pattern_;
  send(row_ptr_, std::span<const index_t>(p.matrix.row_ptr), uploads_.layout, true);
  send(diagonal_, std::span<const index_t>(p.diagonal), uploads_.layout, true);
  send(neighbour_,
       std::span<const index_t>(p.neighbour.empty() ? nullptr : p.neighbour.front().data(), p.neighbour.size() * 6),
       uploads_.layout, true);
  const FlowSettings& s = flow_.settings_;
  write_matrix(systems, flow_.advection_diffusion_id_, flow_.velocity_box(), BodyCondition::dirichlet, 1.0,
               0.5 * s.dt * s.nu, 0);
  write_matrix(systems, flow_.pressure_id_, flow_.pressure_box(), BodyCondition::neumann, 0.0, 1.0, 1);
  stale_ = false;
  if (!flow_.body().at_rest()) return;
  // A body at rest writes its matrices once: the layout and stencils are not kept.
  row_ptr_ = {}, diagonal_ = {}, neighbour_ = {};
  for (int slot = 0; slot < 2; ++slot) stencil_offsets_[slot] = {}, stencil_at_[slot] = {}, stencil_weights_[slot] = {};
}

// The body has moved to t^{n+1}: placed on the host (symbolic), the cells it
// changed sent and applied where the fields are (move_cells fills the freshly
// cleared ones from their neighbours there), then its rows and matrices, and
// the faces where cells were cleared (ImmersedFlow::place_body's order).
void ResidentStep::move_body(systems::LinearSystems& systems) {
  const std::vector<CellType> before = flow_.ib_.types;
  flow_.locate_body(before);
  const MovedCells& m = flow_.moved_;
  send(moved_cells_, std::span<const index_t>(m.cells), uploads_.band, false);
  send(moved_types_, std::span<const CellType>(m.types), uploads_.band, false);
  send(moved_fill_, std::span<const std::uint8_t>(m.fill), uploads_.band, false);
  send(moved_wall_, std::span<const double>(m.wall), uploads_.band, false);
  moved_ = m.count();
  const GridView g = grid_view();
  kernels::move_cells(backend_, g, moved_view(), types_.data(), cleared_.data(), velocity(), p_.data());
  flow_.cleared_ = m.cleared;
  lay_out_body(systems);
  if (flow_.cleared_ > 0) kernels::face_velocities(backend_, g, flow_.sides_, const_velocity(), face_view());
}

// The values of system `id` (the body position's pattern) written where the
// systems keep them, by the kernels place_body's assemble_system runs on the
// host; `slot` holds the system's ghost stencils.
void ResidentStep::write_matrix(systems::LinearSystems& systems, systems::SystemId id, const BoxConditions& box,
                                BodyCondition body, double alpha, double beta, int slot) {
  const SystemPattern& p = flow_.pattern_;
  systems.set_pattern(id, p.matrix);
  const systems::DeviceValues dv = systems.device_values(id);
  cell::RowsView rows = rows_view(p, box, alpha, beta, dv.values);
  rows.row_ptr = row_ptr_.data(), rows.diagonal = diagonal_.data(), rows.neighbour = neighbour_.data();
  kernels::system_rows(backend_, grid_view(), rows);
  const FlatStencils host = ghost_row_stencils(flow_.ib_, p, body);
  send(stencil_offsets_[slot], std::span<const index_t>(host.offsets), uploads_.band, false);
  send(stencil_at_[slot], std::span<const index_t>(host.at), uploads_.band, false);
  send(stencil_weights_[slot], std::span<const double>(host.weights), uploads_.band, false);
  kernels::ghost_rows(
      backend_, {host.count(), stencil_offsets_[slot].data(), stencil_at_[slot].data(), stencil_weights_[slot].data()},
      dv.values);
  systems.values_written(id);
}

GridView ResidentStep::grid_view() const {
  GridView v = flow_.view_;
  for (int d = 0; d < 3; ++d) {
    v.axis[d].nodes = axes_[d][0].data();
    v.axis[d].widths = axes_[d][1].data();
    v.axis[d].centres = axes_[d][2].data();
  }
  v.types = types_.data();
  return v;
}

FaceView ResidentStep::face_view() {
  FaceView v = flow_.faces_.view();
  for (int d = 0; d < 3; ++d) v.normal[d] = faces_[d].data();
  return v;
}

ConstFaceView ResidentStep::const_face_view() const {
  ConstFaceView v = std::as_const(flow_.faces_).view();
  for (int d = 0; d < 3; ++d) v.normal[d] = faces_[d].data();
  return v;
}

void ResidentStep::to_host() {
  for (int d = 0; d < 3; ++d) {
    u_[d].copy_to_host(flow_.u_[d]);
    n_old_[d].copy_to_host(flow_.n_old_[d]);
    faces_[d].copy_to_host(flow_.faces_.normal(d));
  }
  p_.copy_to_host(flow_.p_);
}

// With the cell types of flow_'s body position: a loaded state has placed a
// moving body there (ImmersedFlow::load), whose rows the next step writes.
void ResidentStep::from_host() {
  for (int d = 0; d < 3; ++d) {
    u_[d].copy_from_host(flow_.u_[d]);
    n_old_[d].copy_from_host(flow_.n_old_[d]);
    faces_[d].copy_from_host(flow_.faces_.normal(d));
  }
  p_.copy_from_host(flow_.p_);
  types_.copy_from_host(flow_.ib_.types);
  cleared_.set_zero();
  moved_ = 0;
  stale_ = !flow_.body().at_rest();
}

void ResidentStep::keep() {
  for (int d = 0; d < 3; ++d) {
    keep_copy(u_[d], kept_u_[d]);
    keep_copy(n_old_[d], kept_n_old_[d]);
    keep_copy(faces_[d], kept_faces_[d]);
  }
  keep_copy(p_, kept_p_);
  kept_time_ = flow_.time_;
  kept_steps_ = flow_.steps_;
}

void ResidentStep::restore_kept() {
  TB_REQUIRE(has_kept(), "internal: ResidentStep::restore_kept before keep");
  for (int d = 0; d < 3; ++d) {
    u_[d].copy_from(kept_u_[d]);
    n_old_[d].copy_from(kept_n_old_[d]);
    faces_[d].copy_from(kept_faces_[d]);
  }
  p_.copy_from(kept_p_);
  flow_.time_ = kept_time_;
  flow_.steps_ = kept_steps_;
  if (flow_.body().at_rest()) return;
  // A moving body goes back to the kept time as a loaded state's does (ImmersedFlow::load).
  flow_.body_->move_to(flow_.time_);
  flow_.locate_body({});
  types_.copy_from_host(flow_.ib_.types);
  cleared_.set_zero();
  moved_ = 0;
  stale_ = true;
}

// As the host's maxima: a NaN component makes the maximum NaN.
double ResidentStep::max_velocity() const {
  double m = 0.0;
  for (int d = 0; d < 3; ++d) {
    const double u = kernels::max_abs(backend_, index_t(u_[d].size()), u_[d].data());
    m = u != u ? u : std::max(m, u);
  }
  return m;
}

double ResidentStep::max_pressure() const { return kernels::max_abs(backend_, index_t(p_.size()), p_.data()); }

SurfaceForce ResidentStep::force(SphereDrag& drag) const {
  return drag.force(backend_, flow_.settings_.rho * flow_.settings_.nu, p_.data(), const_velocity());
}

// ImmersedFlow::step's sequence for a whole grid: no exchanges.
StepReport ResidentStep::step(systems::LinearSystems& systems) {
  const FlowSettings& s = flow_.settings_;
  uploads_ = {};
  moved_ = 0;
  if (flow_.body_->move_to(flow_.time_ + s.dt)) {
    const systems::AssemblyTimer assembly(systems);  // the matrices' rows of the moved body
    move_body(systems);
  } else if (stale_) {
    const systems::AssemblyTimer assembly(systems);
    lay_out_body(systems);
  }
  const GridView g = grid_view();
  const index_t ghosts = index_t(flow_.ghost_cells_.size());
  StepReport r;
  for (int e = 0; e < 3; ++e) {
    {
      const systems::AssemblyTimer assembly(systems);
      const cell::MomentumView in{
          e,    u_[e].data(), const_face_view(), flow_.sides_, cleared_.data(), flow_.steps_ == 0,
          s.dt, s.nu,         n_old_[e].data(),  rhs_.data()};
      kernels::momentum_rhs(backend_, g, in);
      kernels::ghost_values(backend_, ghosts, ghost_cells_.data(), ghost_values_[e].data(), rhs_.data());
      u_old_[e].copy_from(u_[e]);
    }
    if (!systems.solve(flow_.advection_diffusion_id_, rhs_, u_[e]).converged())
      r.failed.push_back("advection_diffusion");
  }
  kernels::unmark_cells(backend_, moved_view(), cleared_.data());
  kernels::face_velocities(backend_, g, flow_.sides_, const_velocity(), face_view());
  {
    const systems::AssemblyTimer assembly(systems);
    kernels::pressure_rhs(backend_, g, const_face_view(), s.rho / s.dt, rhs_.data());
  }
  if (!systems.solve(flow_.pressure_id_, rhs_, p_).converged()) r.failed.push_back("pressure");
  kernels::project(backend_, g, flow_.sides_, s.dt / s.rho, p_.data(), face_view(), velocity());
  const cell::ConstVelocityView old{{u_old_[0].data(), u_old_[1].data(), u_old_[2].data()}};
  const StepMaxima m = kernels::step_maxima(backend_, g, const_velocity(), old, const_face_view(), s.dt);
  if (!m.finite) throw StepFailure("step " + std::to_string(flow_.steps_ + 1) + ": the velocity is no longer finite");
  r.divergence = m.divergence, r.velocity_change = m.velocity_change, r.cfl = m.cfl;
  flow_.time_ += s.dt;
  ++flow_.steps_;
  r.time = flow_.time_;
  return r;
}

}  // namespace tb::immersed
