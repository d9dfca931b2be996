#include "physics/immersed/fractional_step.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <istream>
#include <optional>
#include <ostream>

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
  work_.assign(n, 0.0);
  cleared_flag_.assign(n, 0);
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
  ib_ = build_ghost_cells(grid_, *body_);
  if (share_) check_ghost_planes(grid_, ib_, *share_);
  pattern_ = make_system_pattern(grid_, ib_);
  ad_matrix_ = p_matrix_ = pattern_.matrix;
  const FlowSettings& s = settings_;
  assemble_system(grid_, ib_, pattern_, velocity_box(), BodyCondition::dirichlet, 1.0, 0.5 * s.dt * s.nu, ad_matrix_);
  assemble_system(grid_, ib_, pattern_, pressure_box(), BodyCondition::neumann, 0.0, 1.0, p_matrix_);
  if (!before.empty()) fill_cleared(before);
}

// Cells that were solid or ghost and are fluid now (Mittal 2008 §2.4) take the
// mean of their face neighbours that were fluid before and are fluid now, or
// the body's velocity where they have none.
void ImmersedFlow::fill_cleared(const std::vector<CellType>& before) {
  cleared_ = 0;
  std::fill(cleared_flag_.begin(), cleared_flag_.end(), 0);
  for (index_t cell = begin_; cell < end_; ++cell) {
    if (ib_.types[cell] != CellType::fluid || before[cell] == CellType::fluid) continue;
    ++cleared_;
    cleared_flag_[cell] = 1;
    const auto c = grid_.ijk(cell);
    std::array<double, 4> sum{};
    int count = 0;
    for (int d = 0; d < 3; ++d)
      for (int s : {-1, 1}) {
        if (!has_neighbour(grid_, c, d, s)) continue;
        const index_t nb = cell + s * grid_.stride(d);
        if (before[nb] != CellType::fluid || ib_.types[nb] != CellType::fluid) continue;
        for (int e = 0; e < 3; ++e) sum[e] += u_[e][nb];
        sum[3] += p_[nb];
        ++count;
      }
    const Vec3 wall = body_->velocity(body_->closest(grid_.centre(c)).point);
    for (int e = 0; e < 3; ++e) u_[e][cell] = count > 0 ? sum[e] / count : wall[e];
    if (count > 0) p_[cell] = sum[3] / count;
  }
  if (share_) {
    cleared_ = long(share_->sum(double(cleared_)));
    for (auto* field : {&u_[0], &u_[1], &u_[2], &p_}) exchange(*field);
  }
  if (cleared_ > 0) interpolate_faces();
}

// Conservative advection sum_f U_f phi_f / Delta x with phi_f linearly
// interpolated between centres (second order on the stretched grid).
void ImmersedFlow::advection(int e, std::span<double> out) const {
  const std::vector<double>& phi = u_[e];
  const BoxConditions box = velocity_box();
#pragma omp parallel for schedule(static)
  for (index_t cell = begin_; cell < end_; ++cell) {
    if (ib_.types[cell] != CellType::fluid) {
      out[cell] = 0.0;
      continue;
    }
    const auto c = grid_.ijk(cell);
    double sum = 0.0;
    for (int d = 0; d < 3; ++d)
      for (int s : {-1, 1}) {
        double value = phi[cell];
        if (has_neighbour(grid_, c, d, s)) {
          const index_t lo = s > 0 ? c[d] : c[d] - 1;
          const double t = (grid_.axis(d).nodes[lo + 1] - grid_.axis(d).centres[lo]) / grid_.spacing(d, lo);
          const double a = s > 0 ? phi[cell] : phi[cell - grid_.stride(d)];
          const double b = s > 0 ? phi[cell + grid_.stride(d)] : phi[cell];
          value = a + t * (b - a);
        } else if (box[side_of(d, s)] == FaceKind::dirichlet) {
          value = face_value(e, side_of(d, s));
        }
        sum += s * faces_.normal(d)[faces_.face(d, c, s)] * value / grid_.axis(d).widths[c[d]];
      }
    out[cell] = sum;
  }
}

void ImmersedFlow::declare_systems(systems::SystemRegistry& registry) {
  advection_diffusion_id_ = registry.declare(systems::SystemDeclaration::named("advection_diffusion"));
  pressure_id_ = registry.declare(systems::SystemDeclaration::named("pressure"));
}

void ImmersedFlow::predictor(systems::LinearSystems& systems, StepReport& r) {
  const double dt = settings_.dt, half = 0.5 * dt * settings_.nu;
  const BoxConditions box = velocity_box();
  for (int e = 0; e < 3; ++e) {
    std::optional<systems::AssemblyTimer> assembly(std::in_place, systems);
    const FaceValue wall = [&](int side, const Vec3&) { return face_value(e, side); };
    advection(e, work_);
    apply_laplacian(grid_, ib_, box, wall, u_[e], rhs_);
    const bool first = steps_ == 0;
    for (index_t cell = begin_; cell < end_; ++cell) {
      const double n_now = work_[cell];
      // Adams-Bashforth 2 (Euler on the first step and in freshly cleared cells).
      const double h = first || cleared_flag_[cell] ? n_now : 1.5 * n_now - 0.5 * n_old_[e][cell];
      n_old_[e][cell] = n_now;
      rhs_[cell] = ib_.types[cell] == CellType::fluid ? u_[e][cell] + dt * (-h + 0.5 * settings_.nu * rhs_[cell]) : 0.0;
    }
    add_box_values(grid_, ib_, box, half, wall, rhs_);
    set_ghost_rhs(
        ib_, BodyCondition::dirichlet, [&](const GhostCell& g) { return body_->velocity(g.boundary_point)[e]; }, rhs_);
    u_old_[e] = u_[e];
    assembly.reset();
    const SolveStats st = systems.solve(advection_diffusion_id_, ad_matrix_, owned(rhs_), owned(u_[e]));
    if (!st.converged()) r.failed.push_back("advection_diffusion");
    exchange(u_[e]);
  }
  std::fill(cleared_flag_.begin(), cleared_flag_.end(), 0);
}

void ImmersedFlow::interpolate_faces() {
  for (int d = 0; d < 3; ++d) {
    std::vector<double>& f = faces_.normal(d);
    const std::vector<double>& u = u_[d];
    for (index_t cell = begin_; cell < faces_end_; ++cell) {
      const auto c = grid_.ijk(cell);
      if (c[d] > 0) {
        const index_t lo = c[d] - 1;
        const double t = (grid_.axis(d).nodes[c[d]] - grid_.axis(d).centres[lo]) / grid_.spacing(d, lo);
        f[faces_.face(d, c, -1)] = u[cell - grid_.stride(d)] + t * (u[cell] - u[cell - grid_.stride(d)]);
      }
      for (int s : {-1, 1}) {
        if (has_neighbour(grid_, c, d, s)) continue;
        const int side = side_of(d, s);
        f[faces_.face(d, c, s)] = settings_.sides[side] == SideKind::outflow ? u[cell] : face_value(d, side);
      }
    }
  }
}

void ImmersedFlow::pressure_solve(systems::LinearSystems& systems, StepReport& r) {
  const double scale = settings_.rho / settings_.dt;
  {
    const systems::AssemblyTimer assembly(systems);
#pragma omp parallel for schedule(static)
    for (index_t cell = begin_; cell < end_; ++cell)
      rhs_[cell] = ib_.types[cell] == CellType::fluid ? -scale * face_divergence(grid_, faces_, grid_.ijk(cell)) : 0.0;
  }
  const SolveStats st = systems.solve(pressure_id_, p_matrix_, owned(rhs_), owned(p_));
  if (!st.converged()) r.failed.push_back("pressure");
  exchange(p_);
}

// Eq. 4 on faces (the differences of Eq. 7) and at centres (central
// differences of face pressures); ghost cells keep their predictor values.
void ImmersedFlow::project(StepReport& r) {
  const double k = settings_.dt / settings_.rho;
  const BoxConditions pbox = pressure_box();
  for (int d = 0; d < 3; ++d) {
    std::vector<double>& f = faces_.normal(d);
    for (index_t cell = begin_; cell < faces_end_; ++cell) {
      const auto c = grid_.ijk(cell);
      const double w = grid_.axis(d).widths[c[d]];
      if (c[d] > 0 && ib_.types[cell] != CellType::solid && ib_.types[cell - grid_.stride(d)] != CellType::solid)
        f[faces_.face(d, c, -1)] -= k * (p_[cell] - p_[cell - grid_.stride(d)]) / grid_.spacing(d, c[d] - 1);
      for (int s : {-1, 1})
        if (!has_neighbour(grid_, c, d, s) && pbox[side_of(d, s)] == FaceKind::dirichlet)
          f[faces_.face(d, c, s)] -= k * s * (0.0 - p_[cell]) / (0.5 * w);
      if (ib_.types[cell] != CellType::fluid || cell >= end_) continue;
      double face_p[2];
      for (int s : {-1, 1}) {
        double pf = p_[cell];
        if (has_neighbour(grid_, c, d, s)) {
          const index_t lo = s > 0 ? c[d] : c[d] - 1;
          const double t = (grid_.axis(d).nodes[lo + 1] - grid_.axis(d).centres[lo]) / grid_.spacing(d, lo);
          const double a = p_[s > 0 ? cell : cell - grid_.stride(d)], b = p_[s > 0 ? cell + grid_.stride(d) : cell];
          pf = a + t * (b - a);
        } else if (pbox[side_of(d, s)] == FaceKind::dirichlet) {
          pf = 0.0;
        }
        face_p[s > 0] = pf;
      }
      u_[d][cell] -= k * (face_p[1] - face_p[0]) / w;
    }
  }
  double not_finite = 0.0;
  for (index_t cell = begin_; cell < end_; ++cell) {
    for (int d = 0; d < 3; ++d)
      if (!std::isfinite(u_[d][cell])) not_finite = 1.0;
    if (ib_.types[cell] != CellType::fluid) continue;
    const auto c = grid_.ijk(cell);
    r.divergence = std::max(r.divergence, std::abs(face_divergence(grid_, faces_, c)));
    double cfl = 0.0;
    for (int d = 0; d < 3; ++d) {
      cfl += std::abs(u_[d][cell]) * settings_.dt / grid_.axis(d).widths[c[d]];
      r.velocity_change = std::max(r.velocity_change, std::abs(u_[d][cell] - u_old_[d][cell]) / settings_.dt);
    }
    r.cfl = std::max(r.cfl, cfl);
  }
  if (share_) {
    std::array<double, 4> m = {r.divergence, r.velocity_change, r.cfl, not_finite};
    share_->max(m);
    r.divergence = m[0], r.velocity_change = m[1], r.cfl = m[2], not_finite = m[3];
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
