#include "physics/incompressible/fractional_step.hpp"

#include <algorithm>
#include <cmath>
#include <istream>
#include <ostream>

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

FractionalStep::FractionalStep(const FvGrid& grid, const std::array<BoundarySpec, 6>& bcs, const FlowSettings& settings)
    : grid_(grid),
      boundaries_(grid_, bcs),
      settings_(settings),
      momentum_(make_stencil_pattern(grid_, grid_.dim())),
      poisson_(make_stencil_pattern(grid_, 1)),
      faces_(grid_) {
  TB_REQUIRE(settings.nu > 0.0 && settings.dt > 0.0, "viscosity and time step must be positive");
  const std::size_t cells = std::size_t(grid_.num_cells()), n = std::size_t(grid_.dim());
  for (auto* v : {&u_, &u_old_, &grad_p_, &rhs_m_, &du_}) v->assign(cells * n, 0.0);
  for (auto* v : {&p_, &rhs_p_, &phi_, &div_}) v->assign(cells, 0.0);
  assemble_poisson(grid_, poisson_, poisson_.matrix);
}

StepReport FractionalStep::step(const SolveFunction& solve) {
  const double dt = settings_.dt;
  StepReport r;
  u_old_ = u_;
  boundaries_.advance_outflow(u_, dt);
  pressure_gradient(grid_, p_, grad_p_);
  r.momentum_residual = assemble_momentum(
      grid_, boundaries_, momentum_, {u_, grad_p_, settings_.nu, dt, settings_.body_force}, momentum_.matrix, rhs_m_);
  std::fill(du_.begin(), du_.end(), 0.0);
  if (!solve("momentum", momentum_.matrix, rhs_m_, du_).converged()) r.failed.push_back("momentum");
  for (std::size_t i = 0; i < u_.size(); ++i) u_[i] += du_[i];

  rhie_chow_velocities(grid_, boundaries_, u_, p_, grad_p_, dt, faces_);
  poisson_rhs(grid_, faces_, dt, rhs_p_);
  std::fill(phi_.begin(), phi_.end(), 0.0);
  if (!solve("pressure", poisson_.matrix, rhs_p_, phi_).converged()) r.failed.push_back("pressure");
  project(grid_, phi_, dt, grad_p_, faces_, u_, p_);
  incompressible::divergence(grid_, faces_, div_);

  time_ += dt;
  ++steps_;
  r.time = time_;
  r.cfl = cfl();
  for (std::size_t i = 0; i < u_.size(); ++i) {
    if (!std::isfinite(u_[i])) {
      std::string what = "step ";
      what += std::to_string(steps_);
      what += ": the velocity is no longer finite";
      if (!r.failed.empty()) what += " after a failed " + r.failed.front() + " solve";
      throw StepFailure(what);
    }
    r.velocity_change = std::max(r.velocity_change, std::abs(u_[i] - u_old_[i]) / dt);
  }
  for (double d : div_) r.divergence = std::max(r.divergence, std::abs(d));
  return r;
}

double FractionalStep::cfl() const {
  const int n = grid_.dim();
  double worst = 0.0;
  for (index_t cell = 0; cell < grid_.num_cells(); ++cell) {
    const auto c = grid_.ijk(cell);
    double sum = 0.0;
    for (int d = 0; d < n; ++d) sum += std::abs(u_[std::size_t(n) * cell + d]) / grid_.axis(d).widths[c[d]];
    worst = std::max(worst, sum * settings_.dt);
  }
  return worst;
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
