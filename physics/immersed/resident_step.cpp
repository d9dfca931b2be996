#include "physics/immersed/resident_step.hpp"

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

bool ResidentStep::resident(const ImmersedFlow& flow) { return !flow.share() && flow.body().at_rest(); }

ResidentStep::ResidentStep(ImmersedFlow& flow, systems::LinearSystems& systems, Backend backend)
    : flow_(flow), backend_(backend) {
  TB_REQUIRE(resident(flow), "internal: a resident step needs a whole grid and a body at rest");
  const CartesianGrid& g = flow.grid();
  for (int d = 0; d < 3; ++d) {
    const GridAxis& a = g.axis(d);
    axes_[d][0] = on(backend, std::span<const double>(a.nodes));
    axes_[d][1] = on(backend, std::span<const double>(a.widths));
    axes_[d][2] = on(backend, std::span<const double>(a.centres));
  }
  types_ = on(backend, std::span<const CellType>(flow.ib_.types));
  cleared_ = Array<char>(backend, flow.cleared_flag_.size());
  cleared_.set_zero();
  ghost_cells_ = on(backend, std::span<const index_t>(flow.ghost_cells_));
  const std::size_t cells = std::size_t(g.num_cells());
  for (int d = 0; d < 3; ++d) {
    ghost_values_[d] = on(backend, std::span<const double>(flow.ghost_values_[d]));
    for (Vector* v : {&u_[d], &u_old_[d], &n_old_[d]}) *v = Vector(backend, cells);
    faces_[d] = Vector(backend, flow.faces_.normal(d).size());
  }
  p_ = Vector(backend, cells);
  rhs_ = Vector(backend, cells);
  from_host();
  const FlowSettings& s = flow.settings_;
  write_matrix(systems, flow.advection_diffusion_id_, flow.ad_matrix_, flow.velocity_box(), BodyCondition::dirichlet,
               1.0, 0.5 * s.dt * s.nu);
  write_matrix(systems, flow.pressure_id_, flow.p_matrix_, flow.pressure_box(), BodyCondition::neumann, 0.0, 1.0);
}

// The values of system `id` (pattern a's) written where the systems keep them,
// by the kernels place_body's assemble_system runs on the host.
void ResidentStep::write_matrix(systems::LinearSystems& systems, systems::SystemId id, const BsrMatrix& a,
                                const BoxConditions& box, BodyCondition body, double alpha, double beta) {
  systems.set_pattern(id, a);
  const systems::DeviceValues dv = systems.device_values(id);
  const SystemPattern& p = flow_.pattern_;
  const Array<index_t> row_ptr = on(backend_, std::span<const index_t>(a.row_ptr));
  const Array<index_t> diagonal = on(backend_, std::span<const index_t>(p.diagonal));
  const Array<index_t> neighbour =
      on(backend_,
         std::span<const index_t>(p.neighbour.empty() ? nullptr : p.neighbour.front().data(), p.neighbour.size() * 6));
  cell::RowsView rows = rows_view(p, box, alpha, beta, dv.values);
  rows.row_ptr = row_ptr.data(), rows.diagonal = diagonal.data(), rows.neighbour = neighbour.data();
  const GridView g = grid_view();
  kernels::system_rows(backend_, g, rows);
  const FlatStencils host = ghost_row_stencils(flow_.ib_, p, body);
  const Array<index_t> offsets = on(backend_, std::span<const index_t>(host.offsets));
  const Array<index_t> positions = on(backend_, std::span<const index_t>(host.at));
  const Vector weights = on(backend_, std::span<const double>(host.weights));
  kernels::ghost_rows(backend_, {host.count(), offsets.data(), positions.data(), weights.data()}, dv.values);
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

void ResidentStep::from_host() {
  for (int d = 0; d < 3; ++d) {
    u_[d].copy_from_host(flow_.u_[d]);
    n_old_[d].copy_from_host(flow_.n_old_[d]);
    faces_[d].copy_from_host(flow_.faces_.normal(d));
  }
  p_.copy_from_host(flow_.p_);
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

// ImmersedFlow::step's sequence for a whole grid and a body at rest: no body
// to place, no exchanges.
StepReport ResidentStep::step(systems::LinearSystems& systems) {
  const FlowSettings& s = flow_.settings_;
  const GridView g = grid_view();
  const index_t ghosts = index_t(ghost_cells_.size());
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
