#include "miniapps/incompressible/incomp_simulation.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <istream>
#include <ostream>

#include "miniapps/incompressible/field_output.hpp"
#include "miniapps/incompressible/incomp_case.hpp"
#include "solvers/core/atomic_file.hpp"
#include "solvers/core/error.hpp"

namespace tb::incompressible {

IncompressibleSimulation::IncompressibleSimulation(const harness::CaseConfig& config)
    : flow_(std::make_unique<FractionalStep>(make_grid(config), make_boundaries(config), make_flow_settings(config))),
      steady_tol_(config.real("time.steady_tol")),
      ghia_reynolds_(int(config.integer("validation.ghia_reynolds"))),
      poiseuille_(config.boolean("validation.poiseuille")) {
  for (int d = 0; d < flow_->grid().dim(); ++d)
    domain_length_ = std::max(domain_length_, flow_->grid().axis(d).nodes.back() - flow_->grid().axis(d).nodes.front());
  if (ghia_reynolds_ != 0 && !ghia_u_vertical(ghia_reynolds_))
    throw Error("validation.ghia_reynolds = " + std::to_string(ghia_reynolds_) +
                ": Ghia et al. tabulate 100, 400, 1000");
}

harness::StepResult IncompressibleSimulation::advance(harness::LinearSystems& solvers) {
  const long step = flow_->steps() + 1;
  const StepReport r =
      flow_->step([&](const std::string& system, const BsrMatrix& a, std::span<const double> b, std::span<double> x) {
        SolveStats s = solvers.solve(system, a, b, x);
        if (!s.converged())
          std::fprintf(stderr, "tb-incomp: step %ld: the %s solve did not converge: %s\n", step, system.c_str(),
                       s.line().c_str());
        return s;
      });
  last_change_ = r.velocity_change;
  last_domain_cfl_ = flow_->settings().dt * harness::max_magnitude(flow_->velocity()) / domain_length_;
  last_divergence_ = r.divergence;
  return {r.time,
          flow_->settings().dt,
          r.cfl,
          {{"momentum", r.momentum_residual}, {"du_dt", r.velocity_change}, {"divergence", r.divergence}}};
}

// max |du/dt| < steady_tol, with the change measured over at most the time the
// flow takes to cross the domain: |du| / min(dt, L / max|u|). A huge time step
// (time.dt = 1e6) divides |du| by dt and would look steady after one step; where
// dt < L / max|u|, as in every shipped case, this is the plain max |du/dt|.
bool IncompressibleSimulation::steady_state_reached() const {
  return steady_tol_ > 0.0 && last_change_ * std::max(1.0, last_domain_cfl_) < steady_tol_;
}

std::vector<std::pair<std::string, double>> IncompressibleSimulation::state_magnitudes() const {
  return {{"max |u|", harness::max_magnitude(flow_->velocity())},
          {"max |p|", harness::max_magnitude(flow_->pressure())}};
}

void IncompressibleSimulation::save_state(std::ostream& out) const {
  flow_->save(out);
  out.write(reinterpret_cast<const char*>(&last_change_), sizeof last_change_);
  outputs_.save(out);
}

void IncompressibleSimulation::load_state(std::istream& in) {
  flow_->load(in);
  in.read(reinterpret_cast<char*>(&last_change_), sizeof last_change_);
  outputs_.load(in);
  last_divergence_ = 0.0;
  for (double d : flow_->divergence()) last_divergence_ = std::max(last_divergence_, std::abs(d));
}

void IncompressibleSimulation::write_fields(const std::filesystem::path& dir, long step) {
  const std::filesystem::path fields = dir / "fields";
  std::filesystem::create_directories(fields);
  write_file_atomically((fields / "centreline_u.csv").string(), profile_csv(u_vertical_centreline(), "y", "u"));
  write_file_atomically((fields / "centreline_v.csv").string(), profile_csv(v_horizontal_centreline(), "x", "v"));
  if (!vts_output_available()) {
    if (!warned_no_vtk_) std::fprintf(stderr, "tb-incomp: built without VTK: no .vts/.pvd output\n");
    warned_no_vtk_ = true;
    return;
  }
  char name[32];
  std::snprintf(name, sizeof name, "flow_%06ld.vts", step);
  write_vts(fields / name, *flow_);
  std::string entry = "fields/";
  entry += name;
  outputs_.add_and_write(dir / "flow.pvd", flow_->time(), entry);
}

Profile IncompressibleSimulation::u_vertical_centreline() const {
  const FvGrid& g = flow_->grid();
  const std::array<double, 3> mid = {0.5 * g.axis(0).nodes.back(), 0.0, 0.5 * g.axis(2).nodes.back()};
  return sample_line(*flow_, 0, 1, mid);
}

Profile IncompressibleSimulation::v_horizontal_centreline() const {
  const FvGrid& g = flow_->grid();
  const std::array<double, 3> mid = {0.0, 0.5 * g.axis(1).nodes.back(), 0.5 * g.axis(2).nodes.back()};
  return sample_line(*flow_, 1, 0, mid);
}

double IncompressibleSimulation::poiseuille_error() const {
  const FvGrid& g = flow_->grid();
  const int n = g.dim();
  const double height = g.axis(1).nodes.back();
  // The mean velocity from the inflow, or in a periodic channel from the force: f H^2 / (12 nu).
  const double inflow = flow_->boundaries().inflow_rate();
  const FlowSettings& fs = flow_->settings();
  const double mean =
      inflow != 0.0 ? inflow / (height * g.axis(2).nodes.back()) : fs.body_force[0] * height * height / (12.0 * fs.nu);
  double worst = 0.0;
  for (index_t k = 0; k < g.cells(2); ++k)
    for (index_t j = 0; j < g.cells(1); ++j) {
      const double s = g.axis(1).centres[j] / height;
      const double u = flow_->velocity()[std::size_t(n) * g.index(g.cells(0) - 1, j, k)];
      worst = std::max(worst, std::abs(u - 6.0 * mean * s * (1.0 - s)));
    }
  return worst;
}

std::vector<std::pair<std::string, double>> IncompressibleSimulation::figures_of_merit() const {
  std::vector<std::pair<std::string, double>> f = {
      {"time", flow_->time()}, {"max_du_dt", last_change_}, {"max_divergence", last_divergence_}};
  if (ghia_reynolds_ != 0) {
    f.emplace_back("ghia_u_max_deviation", max_deviation(u_vertical_centreline(), *ghia_u_vertical(ghia_reynolds_),
                                                         flow_->grid().axis(1).nodes.back()));
    f.emplace_back("ghia_v_max_deviation", max_deviation(v_horizontal_centreline(), *ghia_v_horizontal(ghia_reynolds_),
                                                         flow_->grid().axis(0).nodes.back()));
  }
  if (poiseuille_) f.emplace_back("poiseuille_max_error", poiseuille_error());
  return f;
}

}  // namespace tb::incompressible
