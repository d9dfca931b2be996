#include "physics/incompressible/fractional_step.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <istream>
#include <ostream>

#include "physics/incompressible/kernels.hpp"
#include "physics/incompressible/momentum.hpp"
#include "physics/incompressible/pressure.hpp"
#include "physics/step_failure.hpp"
#include "solvers/core/error.hpp"

namespace tb::incompressible {

namespace {

template <class T>
void write_raw(std::ostream& out, const T* data, std::size_t count) {
  out.write(reinterpret_cast<const char*>(data), std::streamsize(count * sizeof(T)));
}
template <class T>
void read_raw(std::istream& in, T* data, std::size_t count) {
  in.read(reinterpret_cast<char*>(data), std::streamsize(count * sizeof(T)));
  if (!in) throw Error("checkpoint: incompressible state truncated");
}

}  // namespace

FractionalStep::FractionalStep(const FvGrid& grid, const std::array<BoundarySpec, 6>& bcs, const FlowSettings& settings,
                               const DomainShare* share)
    : grid_(grid),
      share_(share),
      boundaries_(grid_, bcs, share),
      settings_(settings),
      momentum_(make_stencil_pattern(grid_, grid_.dim())),
      poisson_(make_stencil_pattern(grid_, 1)),
      faces_(grid_) {
  TB_REQUIRE(settings.nu > 0.0 && settings.dt > 0.0, "viscosity and time step must be positive");
  const std::size_t cells = std::size_t(grid_.num_cells()), n = std::size_t(grid_.dim());
  for (auto* v : {&u_, &u_old_, &grad_p_, &rhs_m_, &du_}) v->assign(cells * n, 0.0);
  for (auto* v : {&p_, &rhs_p_, &phi_, &div_}) v->assign(cells, 0.0);
  for (auto* v : {&b_div_, &delta_}) v->assign(std::size_t(grid_.owned_cell_end() - grid_.owned_cell_begin()), 0.0);
  assemble_poisson(grid_, poisson_, poisson_.matrix, &poisson_.off_rank);
  if (share_) {
    const PlaneRange& planes = grid_.planes();
    const index_t begin = grid_.owned_cell_begin(), end = grid_.owned_cell_end();
    const index_t offset = planes.first * grid_.stride(planes.axis),
                  whole = planes.whole_planes * grid_.stride(planes.axis);
    TB_REQUIRE(share_->local_size() == grid_.num_cells() && share_->first_owned() == begin &&
                   share_->owned() == end - begin && share_->global_size() == whole &&
                   share_->global_rows()[0] == offset,
               "internal: the domain share does not hold this piece of the grid");
  }
}

std::span<double> FractionalStep::owned_part(std::vector<double>& v, index_t width) const {
  const index_t begin = grid_.owned_cell_begin(), end = grid_.owned_cell_end();
  return std::span<double>(v).subspan(std::size_t(begin * width), std::size_t((end - begin) * width));
}

void FractionalStep::declare_systems(systems::SystemRegistry& registry) {
  const auto declare = [&](const char* name, const StencilPattern& p) {
    systems::SystemDeclaration d = systems::SystemDeclaration::named(name);
    if (share_) d.split_rows = {&p.off_rank, p.ghost_columns};
    return registry.declare(d);
  };
  momentum_id_ = declare("momentum", momentum_);
  pressure_id_ = declare("pressure", poisson_);
}

// phi from A phi = b, or as p^{n+1} - p^n from A p^{n+1} = A p^n + b started
// at p^n (PressureUnknown); p_'s ghosts are current since the last projection.
// Then the projection to tolerance (FlowSettings::projection_tol): what the
// solve left beyond the target is solved for as a correction from zero.
void FractionalStep::pressure_solve(systems::LinearSystems& systems, StepReport& r) {
  const std::span<double> b = owned_part(rhs_p_, 1), x = owned_part(phi_, 1);
  std::copy(b.begin(), b.end(), b_div_.begin());
  const bool whole = settings_.pressure_unknown == PressureUnknown::pressure;
  std::fill(phi_.begin(), phi_.end(), 0.0);
  const index_t begin = grid_.owned_cell_begin();
  if (whole) {
    const systems::AssemblyTimer assembly(systems);
    add_poisson_product(grid_, poisson_, poisson_.matrix, &poisson_.off_rank, p_, b);
    std::copy_n(p_.begin() + begin, x.size(), x.begin());
  }
  if (!systems.solve(pressure_id_, poisson_.matrix, b, x).converged()) r.failed.push_back("pressure");
  if (whole)
    for (std::size_t i = 0; i < x.size(); ++i) x[i] -= p_[std::size_t(begin) + i];
  exchange(phi_, 1);  // the projection's differences across the owned cells' faces
  if (settings_.projection_tol <= 0.0) return;
  const double target = projection_target(Backend::host, grid_.view(), b_div_.data(), u_.data());
  // The correction's right-hand side is the residual itself (the pinned row's entry is zero).
  for (int k = 0; k < max_corrections && divergence_left(b) > target; ++k) {
    std::fill(delta_.begin(), delta_.end(), 0.0);
    ++r.projection_corrections;
    if (correction_failed(systems, k, [&] { return systems.solve(pressure_id_, poisson_.matrix, b, delta_); }))
      r.failed.push_back("pressure");
    for (std::size_t i = 0; i < x.size(); ++i) x[i] += delta_[i];
    exchange(phi_, 1);
  }
}

// div_i = -dt (b - A phi)_i / V_i after the projection (b_i = -(1/dt) sum_f A_f U*_f);
// the pinned cell holds the negated sum of the others' fluxes. The kernels are
// the ones ResidentStep runs on its backend.
double FractionalStep::divergence_left(std::span<double> residual) const {
  std::fill(residual.begin(), residual.end(), 0.0);  // -b_div, as ResidentStep forms it
  kernels::add_scaled(Backend::host, index_t(residual.size()), -1.0, b_div_.data(), residual.data());
  add_poisson_product(grid_, poisson_, poisson_.matrix, &poisson_.off_rank, phi_, residual);
  const index_t pin = grid_.pressure_pin();
  return worst_divergence(kernels::divergence_left(Backend::host, grid_.view(), settings_.dt, pin, residual.data()),
                          pin >= 0 ? grid_.volume(grid_.ijk(pin)) : 0.0, share_);
}

double FractionalStep::worst_divergence(DivergenceLeft left, double pin_volume, const DomainShare* share) {
  if (share) left.flux = share->sum(left.flux);
  const double pinned = pin_volume > 0.0 ? std::abs(left.flux) / pin_volume : 0.0;
  const double worst = std::max(left.largest, pinned);
  return share ? share->max(worst) : worst;
}

double FractionalStep::projection_target(Backend b, const GridView& g, const double* b_div, const double* u) const {
  const double scale = kernels::projection_scale(b, g, settings_.dt, b_div, u);
  return settings_.projection_tol * (share_ ? share_->max(scale) : scale);
}

StepReport FractionalStep::step(systems::LinearSystems& systems) {
  const double dt = settings_.dt;
  const index_t n = grid_.dim();
  StepReport r;
  u_old_ = u_;
  boundaries_.advance_outflow(u_, dt);
  {
    const systems::AssemblyTimer assembly(systems);
    pressure_gradient(grid_, p_, grad_p_);
    r.momentum_residual =
        assemble_momentum(grid_, boundaries_, momentum_, {u_, grad_p_, settings_.nu, dt, settings_.body_force},
                          momentum_.matrix, rhs_m_, share_, &momentum_.off_rank);
  }
  std::fill(du_.begin(), du_.end(), 0.0);
  if (!systems.solve(momentum_id_, momentum_.matrix, owned_part(rhs_m_, n), owned_part(du_, n)).converged())
    r.failed.push_back("momentum");
  for (std::size_t i = 0; i < u_.size(); ++i) u_[i] += du_[i];
  exchange(u_, n);  // u* on the ghosts, for the Rhie-Chow faces of the owned cells

  rhie_chow_velocities(grid_, boundaries_, u_, p_, grad_p_, dt, faces_);
  {
    const systems::AssemblyTimer assembly(systems);
    poisson_rhs(grid_, faces_, dt, rhs_p_);
  }
  pressure_solve(systems, r);
  project(grid_, phi_, dt, grad_p_, faces_, u_, p_);
  // Every ghost now holds its owner's state, as written, checked and restarted
  // from (the outer plane's grad phi was one-sided; u there is not needed before
  // the next exchange of u*, but a state with wrong ghosts would be a trap).
  exchange(u_, n);
  exchange(p_, 1);
  incompressible::divergence(grid_, faces_, div_);

  time_ += dt;
  ++steps_;
  r.time = time_;
  report_maxima(kernels::step_maxima(Backend::host, grid_.view(), u_.data(), u_old_.data(), div_.data(), settings_.dt),
                r);
  return r;
}

// The CFL number, max |du/dt| and max |div U| over the owned cells of every
// rank in one reduction.
void FractionalStep::report_maxima(const StepMaxima& m, StepReport& r) const {
  std::array<double, 4> worst = {m.cfl, m.velocity_change, m.divergence, m.finite ? 0.0 : 1.0};
  if (share_) share_->max(worst);
  if (worst[3] != 0.0) {
    std::string what = "step ";
    what += std::to_string(steps_);
    what += ": the velocity is no longer finite";
    if (!r.failed.empty()) what += " after a failed " + r.failed.front() + " solve";
    throw StepFailure(what);
  }
  r.cfl = worst[0];
  r.velocity_change = worst[1];
  r.divergence = worst[2];
}

double FractionalStep::max_divergence() const {
  double worst = 0.0;
  for (index_t cell = grid_.owned_cell_begin(); cell < grid_.owned_cell_end(); ++cell)
    worst = std::max(worst, std::abs(div_[std::size_t(cell)]));
  return share_ ? share_->max(worst) : worst;
}

void FractionalStep::save(std::ostream& out) const {
  write_raw(out, &time_, 1);
  write_raw(out, &steps_, 1);
  write_raw(out, u_.data(), u_.size());
  write_raw(out, p_.data(), p_.size());
  for (const auto& f : faces_.normal) write_raw(out, f.data(), f.size());
  boundaries_.save(out);
}

void FractionalStep::load(std::istream& in) {
  read_raw(in, &time_, 1);
  read_raw(in, &steps_, 1);
  read_raw(in, u_.data(), u_.size());
  read_raw(in, p_.data(), p_.size());
  for (auto& f : faces_.normal) read_raw(in, f.data(), f.size());
  boundaries_.load(in);
  incompressible::divergence(grid_, faces_, div_);
}

}  // namespace tb::incompressible
