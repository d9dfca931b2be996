#include "miniapps/immersed/ib_simulation.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <istream>
#include <ostream>

#include "miniapps/immersed/field_output.hpp"
#include "miniapps/immersed/ib_case.hpp"
#include "physics/immersed/surface_force.hpp"
#include "solvers/core/error.hpp"
#include "solvers/factory/solver_communicator.hpp"

namespace tb::immersed {

namespace {

SolveFunction reporting(harness::LinearSystems& solvers, long step) {
  return
      [&solvers, step](const std::string& system, const BsrMatrix& a, std::span<const double> b, std::span<double> x) {
        SolveStats s = solvers.solve(system, a, b, x);
        if (!s.converged())
          std::fprintf(stderr, "tb-ib: step %ld: the %s solve did not converge: %s\n", step, system.c_str(),
                       s.line().c_str());
        return s;
      };
}

bool warn_without_vtk(bool& warned) {
  if (vtk_output_available()) return false;
  if (!warned) std::fprintf(stderr, "tb-ib: built without VTK: no .vts/.vtp/.pvd output\n");
  warned = true;
  return true;
}

std::string numbered(const char* stem, long step, const char* ext) {
  char name[64];
  std::snprintf(name, sizeof name, "%s_%06ld.%s", stem, step, ext);
  return name;
}

}  // namespace

FlowSimulation::FlowSimulation(const harness::CaseConfig& config)
    : flow_(std::make_unique<ImmersedFlow>(make_grid(config), make_body(config), make_flow_settings(config))),
      steady_tol_(config.real("time.steady_tol")) {}

harness::StepResult FlowSimulation::advance(harness::LinearSystems& solvers) {
  const StepReport r = flow_->step(reporting(solvers, flow_->steps() + 1));
  last_change_ = r.velocity_change;
  double speed = 0.0, length = 0.0;
  for (int d = 0; d < 3; ++d) {
    speed = std::max(speed, harness::max_magnitude(flow_->velocity(d)));
    length = std::max(length, flow_->grid().axis(d).nodes.back() - flow_->grid().axis(d).nodes.front());
  }
  last_domain_cfl_ = flow_->settings().dt * speed / length;
  last_divergence_ = r.divergence;
  harness::StepResult out{
      r.time, flow_->settings().dt, r.cfl, {{"du_dt", r.velocity_change}, {"divergence", r.divergence}}};
  if (dynamic_cast<const Sphere*>(&flow_->body())) out.residuals.emplace_back("cd", drag());
  if (dynamic_cast<const PulsatingEllipsoid*>(&flow_->body()))
    out.residuals.emplace_back("cleared_cells", double(flow_->cleared_cells()));
  return out;
}

// As tb-incomp: |du| over at most the time the flow takes to cross the domain,
// so a huge time step cannot look steady (plain max |du/dt| for smaller dt).
bool FlowSimulation::steady_state_reached() const {
  return steady_tol_ > 0.0 && last_change_ * std::max(1.0, last_domain_cfl_) < steady_tol_;
}

std::vector<std::pair<std::string, double>> FlowSimulation::state_magnitudes() const {
  double u = 0.0;
  for (int d = 0; d < 3; ++d) {
    const double m = harness::max_magnitude(flow_->velocity(d));
    u = m != m ? m : std::max(u, m);
  }
  return {{"max |u|", u}, {"max |p|", harness::max_magnitude(flow_->pressure())}};
}

double FlowSimulation::drag() const {
  const auto* sphere = dynamic_cast<const Sphere*>(&flow_->body());
  if (!sphere) return std::nan("");
  return drag_coefficient(*flow_, *sphere, sphere_force(*flow_, *sphere));
}

void FlowSimulation::save_state(std::ostream& out) const {
  flow_->save(out);
  out.write(reinterpret_cast<const char*>(&last_change_), sizeof last_change_);
  out.write(reinterpret_cast<const char*>(&last_divergence_), sizeof last_divergence_);
  fields_.save(out);
  surfaces_.save(out);
}

void FlowSimulation::load_state(std::istream& in) {
  flow_->load(in);
  in.read(reinterpret_cast<char*>(&last_change_), sizeof last_change_);
  in.read(reinterpret_cast<char*>(&last_divergence_), sizeof last_divergence_);
  fields_.load(in);
  surfaces_.load(in);
}

void FlowSimulation::write_fields(const std::filesystem::path& dir, long step) {
  if (warn_without_vtk(warned_no_vtk_)) return;
  const std::filesystem::path fields = dir / "fields";
  std::filesystem::create_directories(fields);
  const CartesianGrid& g = flow_->grid();
  CellArray velocity{"velocity", 3, std::vector<double>(3 * std::size_t(g.num_cells()))};
  for (index_t c = 0; c < g.num_cells(); ++c)
    for (int d = 0; d < 3; ++d) velocity.values[3 * std::size_t(c) + d] = flow_->velocity(d)[c];
  CellArray pressure{"pressure", 1, {flow_->pressure().begin(), flow_->pressure().end()}};
  const std::string vtp = numbered("body", step, "vtp");
  // Under MPI (several ranks, rank 0 writing) one piece per rank in a .pvts.
  const int ranks = solver_communicator()->size();
  const std::string vts = numbered("flow", step, ranks > 1 ? "pvts" : "vts");
  const std::vector<CellArray> arrays = {velocity, pressure, cell_type_array(flow_->cells())};
  if (ranks > 1)
    write_grid_pvts(fields / vts, g, arrays, std::min(ranks, int(g.cells(2))));
  else
    write_grid_vts(fields / vts, g, arrays);
  write_surface_vtp(fields / vtp, flow_->body().triangulation());
  fields_.add_and_write(dir / "flow.pvd", flow_->time(), "fields/" + vts);
  surfaces_.add_and_write(dir / "body.pvd", flow_->time(), "fields/" + vtp);
}

std::vector<std::pair<std::string, double>> FlowSimulation::figures_of_merit() const {
  std::vector<std::pair<std::string, double>> f = {
      {"time", flow_->time()}, {"max_du_dt", last_change_}, {"max_divergence", last_divergence_}};
  if (const auto* sphere = dynamic_cast<const Sphere*>(&flow_->body())) {
    const SurfaceForce force = sphere_force(*flow_, *sphere);
    const double scale = drag_coefficient(*flow_, *sphere, force) / force.total()[0];
    f.emplace_back("cd", drag_coefficient(*flow_, *sphere, force));
    f.emplace_back("cd_pressure", force.pressure[0] * scale);
    f.emplace_back("cd_viscous", force.viscous[0] * scale);
    f.emplace_back("cd_reference_johnson_patel_1999", 1.087);
  }
  return f;
}

PoissonSimulation::PoissonSimulation(const harness::CaseConfig& config)
    : grid_(make_grid(config)),
      body_(make_body(config)),
      condition_(poisson_body_condition(config)),
      cells_(build_ghost_cells(grid_, *body_)) {}

harness::StepResult PoissonSimulation::advance(harness::LinearSystems& solvers) {
  result_ = solve_manufactured_poisson(grid_, cells_, condition_, reporting(solvers, 1));
  solved_ = true;
  return {1.0, 1.0, std::nan(""), {{"max_error", result_.max_error}}};
}

void PoissonSimulation::save_state(std::ostream& out) const {
  const char done = solved_;
  out.write(&done, 1);
  out.write(reinterpret_cast<const char*>(&result_.max_error), sizeof result_.max_error);
}

void PoissonSimulation::load_state(std::istream& in) {
  char done = 0;
  in.read(&done, 1);
  in.read(reinterpret_cast<char*>(&result_.max_error), sizeof result_.max_error);
  if (!in) throw Error("checkpoint: truncated Poisson state");
  solved_ = done != 0;
}

void PoissonSimulation::write_fields(const std::filesystem::path& dir, long step) {
  bool warned = false;
  if (warn_without_vtk(warned) || result_.phi.empty()) return;
  std::filesystem::create_directories(dir / "fields");
  CellArray phi{"phi", 1, result_.phi}, error{"error", 1, std::vector<double>(result_.phi.size(), 0.0)};
  for (index_t c = 0; c < grid_.num_cells(); ++c)
    if (cells_.types[c] == CellType::fluid)
      error.values[c] = result_.phi[c] - manufactured_phi(grid_.centre(grid_.ijk(c)));
  write_grid_vts(dir / "fields" / numbered("poisson", step, "vts"), grid_, {phi, error, cell_type_array(cells_)});
  write_surface_vtp(dir / "fields" / numbered("body", step, "vtp"), body_->triangulation());
}

std::vector<std::pair<std::string, double>> PoissonSimulation::figures_of_merit() const {
  return {{"max_error", result_.max_error}, {"cells", double(grid_.num_cells())}};
}

std::unique_ptr<harness::Simulation> make_simulation(const harness::CaseConfig& config) {
  const std::string& kind = config.text("case.kind");
  if (kind == "flow") return std::make_unique<FlowSimulation>(config);
  if (kind == "poisson_mms") return std::make_unique<PoissonSimulation>(config);
  throw Error("case.kind: '" + kind + "' is not one of flow, poisson_mms");
}

}  // namespace tb::immersed
