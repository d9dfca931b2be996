#include "physics/immersed/fractional_step.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <istream>
#include <optional>
#include <ostream>
#include <utility>

#include "physics/step_failure.hpp"
#include "solvers/core/error.hpp"

namespace tb::immersed {

double interpolate_cells(const CartesianGrid& grid, std::span<const double> field, const Vec3& x) {
  std::array<index_t, 3> lo;
  std::array<double, 3> t;
  for (int d = 0; d < 3; ++d) {
    lo[d] = grid.bracket(d, x[d]);
    t[d] = (x[d] - grid.axis(d).centres[lo[d]]) / grid.spacing(d, lo[d]);
  }
  double v = 0.0;
  for (int c = 0; c < 8; ++c) {
    double w = 1.0;
    std::array<index_t, 3> ijk = lo;
    for (int d = 0; d < 3; ++d) {
      const int up = (c >> d) & 1;
      ijk[d] += up;
      w *= up ? t[d] : 1.0 - t[d];
    }
    v += w * field[grid.index(ijk)];
  }
  return v;
}

ImmersedFlow::ImmersedFlow(CartesianGrid grid, std::unique_ptr<Body> body, const FlowSettings& settings,
                           const DomainShare* share)
    : grid_(std::move(grid)),
      body_(std::move(body)),
      settings_(settings),
      share_(share),
      begin_(grid_.owned_cell_begin()),
      end_(grid_.owned_cell_end()),
      faces_end_(std::min(grid_.num_cells(), end_ + grid_.stride(2))),
      faces_(grid_) {
  TB_REQUIRE(settings.nu > 0.0, "the viscosity must be positive");
  TB_REQUIRE(settings.dt > 0.0, "time.dt must be positive");
  TB_REQUIRE(settings.rho > 0.0, "the density must be positive");
  const std::size_t n = std::size_t(grid_.num_cells());
  for (int d = 0; d < 3; ++d) {
    u_[d].assign(n, settings.free_stream[d]);
    u_old_[d].assign(n, 0.0);
    n_old_[d].assign(n, 0.0);
  }
  p_.assign(n, 0.0);
  rhs_.assign(n, 0.0);
  cleared_flag_.assign(n, 0);
  const BoxConditions velocity = velocity_box(), pressure = pressure_box();
  for (int side = 0; side < 6; ++side) {
    sides_.kind[side] = settings.sides[std::size_t(side)];
    sides_.velocity[side] = velocity[std::size_t(side)];
    sides_.pressure[side] = pressure[std::size_t(side)];
    for (int d = 0; d < 3; ++d) sides_.value[d][side] = face_value(d, side);
  }
  body_->move_to(0.0);
  place_body();
  for (index_t cell = 0; cell < grid_.num_cells(); ++cell)
    if (ib_.types[cell] != CellType::fluid)
      for (int d = 0; d < 3; ++d) u_[d][cell] = 0.0;
  interpolate_faces();
}

BoxConditions ImmersedFlow::velocity_box() const {
  BoxConditions b{};
  for (int side = 0; side < 6; ++side)
    b[side] = settings_.sides[side] == SideKind::outflow ? FaceKind::neumann : FaceKind::dirichlet;
  return b;
}

BoxConditions ImmersedFlow::pressure_box() const {
  BoxConditions b{};
  for (int side = 0; side < 6; ++side)
    b[side] = settings_.sides[side] == SideKind::outflow ? FaceKind::dirichlet : FaceKind::neumann;
  return b;
}

// Velocity component d on a Dirichlet box side.
double ImmersedFlow::face_value(int d, int side) const {
  return settings_.sides[side] == SideKind::inflow ? settings_.free_stream[d] : 0.0;
}

void ImmersedFlow::place_body() {
  const std::vector<CellType> before = ib_.types;
  locate_body(before);
  ad_matrix_ = p_matrix_ = pattern_.matrix;
  const FlowSettings& s = settings_;
  assemble_system(grid_, ib_, pattern_, velocity_box(), BodyCondition::dirichlet, 1.0, 0.5 * s.dt * s.nu, ad_matrix_);
  assemble_system(grid_, ib_, pattern_, pressure_box(), BodyCondition::neumann, 0.0, 1.0, p_matrix_);
  if (!before.empty()) fill_cleared();
}

// The symbolic part of placing the body, which a resident step runs on the
// host too: the cell types, ghost cells, pattern and ghost rows' right-hand
// sides at the body's position, and the cells that changed type since
// `before` (none where it is empty: a first placement or a loaded state).
void ImmersedFlow::locate_body(const std::vector<CellType>& before) {
  ib_ = build_ghost_cells(grid_, *body_);
  view_ = grid_.view(ib_.types.data());
  if (share_) check_ghost_planes(grid_, ib_, *share_);
  pattern_ = make_system_pattern(grid_, ib_);
  set_ghost_values();
  moved_ = before.empty() ? MovedCells{} : immersed::moved_cells(grid_, *body_, before, ib_.types);
}

// The Dirichlet ghost rows' right-hand sides w_B u_B: the body's velocity at
// each boundary intercept changes only when the body moves (place_body).
void ImmersedFlow::set_ghost_values() {
  ghost_cells_.resize(ib_.ghosts.size());
  for (int e = 0; e < 3; ++e) ghost_values_[e].resize(ib_.ghosts.size());
  for (std::size_t k = 0; k < ib_.ghosts.size(); ++k) {
    const GhostCell& g = ib_.ghosts[k];
    ghost_cells_[k] = g.cell;
    const Vec3 wall = body_->velocity(g.boundary_point);
    for (int e = 0; e < 3; ++e) ghost_values_[e][k] = dirichlet_ghost_rhs(g, wall[e]);
  }
}

// Cells that were solid or ghost and are fluid now (Mittal 2008 §2.4) take the
// mean of their face neighbours that were fluid before and are fluid now, or
// the body's velocity where they have none (the move_cells kernel).
void ImmersedFlow::fill_cleared() {
  std::fill(cleared_flag_.begin(), cleared_flag_.end(), 0);
  kernels::move_cells(Backend::host, view_, moved_.view(), ib_.types.data(), cleared_flag_.data(), velocity_view(),
                      p_.data());
  cleared_ = moved_.cleared;
  if (share_) {
    cleared_ = long(share_->sum(double(cleared_)));
    for (auto* field : {&u_[0], &u_[1], &u_[2], &p_}) exchange(*field);
  }
  if (cleared_ > 0) interpolate_faces();
}

void ImmersedFlow::declare_systems(systems::SystemRegistry& registry) {
  advection_diffusion_id_ = registry.declare(systems::SystemDeclaration::named("advection_diffusion"));
  pressure_id_ = registry.declare(systems::SystemDeclaration::named("pressure"));
}

// Eq. 5 per component: the right-hand side (advection by Adams-Bashforth 2,
// the explicit half of the diffusion, the box values, the ghost rows) by the
// kernels, then the solve.
void ImmersedFlow::predictor(systems::LinearSystems& systems, StepReport& r) {
  for (int e = 0; e < 3; ++e) {
    std::optional<systems::AssemblyTimer> assembly(std::in_place, systems);
    const cell::MomentumView in{e,
                                u_[e].data(),
                                std::as_const(faces_).view(),
                                sides_,
                                cleared_flag_.data(),
                                steps_ == 0,
                                settings_.dt,
                                settings_.nu,
                                n_old_[e].data(),
                                rhs_.data()};
    kernels::momentum_rhs(Backend::host, view_, in);
    kernels::ghost_values(Backend::host, index_t(ghost_cells_.size()), ghost_cells_.data(), ghost_values_[e].data(),
                          rhs_.data());
    u_old_[e] = u_[e];
    assembly.reset();
    const SolveStats st = systems.solve(advection_diffusion_id_, ad_matrix_, owned(rhs_), owned(u_[e]));
    if (!st.converged()) r.failed.push_back("advection_diffusion");
    exchange(u_[e]);
  }
  std::fill(cleared_flag_.begin(), cleared_flag_.end(), 0);
}

void ImmersedFlow::interpolate_faces() {
  kernels::face_velocities(Backend::host, view_, sides_, const_velocity_view(), faces_.view());
}

void ImmersedFlow::pressure_solve(systems::LinearSystems& systems, StepReport& r) {
  const double scale = settings_.rho / settings_.dt;
  {
    const systems::AssemblyTimer assembly(systems);
    kernels::pressure_rhs(Backend::host, view_, std::as_const(faces_).view(), scale, rhs_.data());
  }
  const SolveStats st = systems.solve(pressure_id_, p_matrix_, owned(rhs_), owned(p_));
  if (!st.converged()) r.failed.push_back("pressure");
  exchange(p_);
}

// Eq. 4 on faces (the differences of Eq. 7) and at centres (central
// differences of face pressures); ghost cells keep their predictor values.
void ImmersedFlow::project(StepReport& r) {
  kernels::project(Backend::host, view_, sides_, settings_.dt / settings_.rho, p_.data(), faces_.view(),
                   velocity_view());
  const ConstFaceView faces = std::as_const(faces_).view();
  const cell::ConstVelocityView u_old{{u_old_[0].data(), u_old_[1].data(), u_old_[2].data()}};
  const StepMaxima m = kernels::step_maxima(Backend::host, view_, const_velocity_view(), u_old, faces, settings_.dt);
  r.divergence = m.divergence, r.velocity_change = m.velocity_change, r.cfl = m.cfl;
  double not_finite = m.finite ? 0.0 : 1.0;
  if (share_) {
    std::array<double, 4> all = {r.divergence, r.velocity_change, r.cfl, not_finite};
    share_->max(all);
    r.divergence = all[0], r.velocity_change = all[1], r.cfl = all[2], not_finite = all[3];
    for (auto* field : {&u_[0], &u_[1], &u_[2]}) exchange(*field);
  }
  if (not_finite > 0.0) throw StepFailure("step " + std::to_string(steps_ + 1) + ": the velocity is no longer finite");
}

StepReport ImmersedFlow::step(systems::LinearSystems& systems) {
  StepReport r;
  if (body_->move_to(time_ + settings_.dt)) {
    const systems::AssemblyTimer assembly(systems);  // the matrices' rows of the moved body
    place_body();
  }
  predictor(systems, r);
  interpolate_faces();
  pressure_solve(systems, r);
  project(r);
  time_ += settings_.dt;
  ++steps_;
  r.time = time_;
  return r;
}

namespace {

void write_vector(std::ostream& out, const std::vector<double>& v) {
  const std::uint64_t n = v.size();
  out.write(reinterpret_cast<const char*>(&n), sizeof n);
  out.write(reinterpret_cast<const char*>(v.data()), std::streamsize(n * sizeof(double)));
}

void read_vector(std::istream& in, std::vector<double>& v) {
  std::uint64_t n = 0;
  in.read(reinterpret_cast<char*>(&n), sizeof n);
  if (!in || n != v.size())
    throw Error("checkpoint: a field has " + std::to_string(n) + " values, the grid needs " + std::to_string(v.size()));
  in.read(reinterpret_cast<char*>(v.data()), std::streamsize(n * sizeof(double)));
}

}  // namespace

void ImmersedFlow::save(std::ostream& out) const {
  out.write(reinterpret_cast<const char*>(&time_), sizeof time_);
  out.write(reinterpret_cast<const char*>(&steps_), sizeof steps_);
  for (int d = 0; d < 3; ++d) {
    write_vector(out, u_[d]);
    write_vector(out, n_old_[d]);
    write_vector(out, faces_.normal(d));
  }
  write_vector(out, p_);
}

void ImmersedFlow::load(std::istream& in) {
  in.read(reinterpret_cast<char*>(&time_), sizeof time_);
  in.read(reinterpret_cast<char*>(&steps_), sizeof steps_);
  for (int d = 0; d < 3; ++d) {
    read_vector(in, u_[d]);
    read_vector(in, n_old_[d]);
    read_vector(in, faces_.normal(d));
  }
  read_vector(in, p_);
  if (!in) throw Error("checkpoint: truncated flow state");
  if (body_->move_to(time_)) {
    ib_.types.clear();  // no freshly cleared cells: the saved fields belong to this position
    place_body();
  }
}

}  // namespace tb::immersed
