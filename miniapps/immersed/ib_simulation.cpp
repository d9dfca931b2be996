#include "miniapps/immersed/ib_simulation.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <istream>
#include <ostream>

#include "miniapps/common/domain_sharing.hpp"
#include "miniapps/common/slab_pieces.hpp"
#include "miniapps/immersed/field_output.hpp"
#include "miniapps/immersed/ib_case.hpp"
#include "physics/immersed/surface_force.hpp"
#include "physics/immersed/wake.hpp"
#include "solvers/core/error.hpp"
#include "solvers/factory/solver_communicator.hpp"

namespace tb::immersed {

namespace {

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

// Ghost planes of a slab: the stencil of an owned ghost cell reads fluid cells
// up to stencil_reach (5) planes away (ghost_cells.hpp), the drag's wall fits
// up to four from an owned surface point (wall_fit.hpp).
constexpr int ib_ghost_planes = 6;

// The cells as a .vts, or in a decomposed run this rank's owned planes as a
// piece and, once every piece is on disk, rank 0's .pvts naming them. Returns
// the file the .pvd series names.
std::string write_cell_fields(const std::filesystem::path& fields, const std::string& stem, const IbSlab& slab,
                              const std::vector<CellArray>& arrays) {
  if (!slab.share) {
    write_grid_vts(fields / (stem + ".vts"), slab.grid, arrays);
    return stem + ".vts";
  }
  const DomainShare& share = *slab.share;
  const auto piece = [&](int r) { return stem + "_r" + std::to_string(r) + ".vts"; };
  write_owned_vts(fields / piece(share.rank()), slab.grid, arrays);
  const std::vector<std::array<index_t, 2>> owned = harness::owned_planes_on_root(share, slab.grid.planes());
  if (share.rank() == 0) {  // the gather also waited for every piece
    std::vector<PvtsPiece> pieces;
    for (int r = 0; r < share.ranks(); ++r)
      pieces.push_back({piece(r), owned[std::size_t(r)][0], owned[std::size_t(r)][1]});
    write_pvts(fields / (stem + ".pvts"), slab.grid, arrays, pieces);
  }
  return stem + ".pvts";
}

}  // namespace

IbSlab::IbSlab(const CartesianGrid& whole, bool decompose) : grid(whole) {
  for (int d = 0; d < 3; ++d)
    longest_side = std::max(longest_side, whole.axis(d).nodes.back() - whole.axis(d).nodes.front());
  if (!decompose || harness::run_ranks() <= 1) return;
  harness::RankSlab split = harness::split_into_slabs("tb-ib", whole.shape(), 2, ib_ghost_planes);
  share = std::move(split.share);
  decomposition = std::move(split.decomposition);
  const Slab& slab = split.slab;
  grid =
      CartesianGrid::piece(whole, slab.first_held(), slab.held(), slab.planes_below, slab.planes_below + slab.planes);
}

FlowSimulation::FlowSimulation(const harness::CaseConfig& config, bool decompose)
    : slab_(make_grid(config), decompose),
      flow_(
          std::make_unique<ImmersedFlow>(slab_.grid, make_body(config), make_flow_settings(config), slab_.share.get())),
      steady_tol_(config.real("time.steady_tol")) {
  on_cuda_ = config.text("run.backend") == "cuda";
  on_device_ = on_cuda_ && ResidentStep::resident(*flow_);
}

// Where the step runs under --backend cuda (the systems are solved there in any case).
std::string FlowSimulation::scheme() const {
  if (!on_cuda_) return {};
  if (!on_device_) return "fractional step on the host (a decomposed grid exchanges its ghost planes there)";
  if (flow_->body().at_rest()) return "fractional step resident on the device";
  return "fractional step resident on the device; the moving body placed on the host each step, its changes sent";
}

const ImmersedFlow& FlowSimulation::flow() const {
  if (!host_current_) resident_->to_host();
  host_current_ = true;
  return *flow_;
}

harness::StepResult FlowSimulation::advance(systems::LinearSystems& systems) {
  if (on_device_ && !resident_) resident_ = std::make_unique<ResidentStep>(*flow_, systems, Backend::cuda);
  const StepReport r = resident_ ? resident_->step(systems) : flow_->step(systems);
  host_current_ = !resident_;
  last_change_ = r.velocity_change;
  double speed = 0.0;
  if (resident_)
    speed = std::max(speed, resident_->max_velocity());
  else
    for (int d = 0; d < 3; ++d) speed = std::max(speed, harness::max_magnitude(flow_->velocity(d)));
  if (slab_.share) speed = slab_.share->max(speed);
  last_domain_cfl_ = flow_->settings().dt * speed / slab_.longest_side;
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
  if (resident_) return {{"max |u|", resident_->max_velocity()}, {"max |p|", resident_->max_pressure()}};
  std::array<double, 2> m = {0.0, harness::max_magnitude(flow_->pressure())};
  for (int d = 0; d < 3; ++d) {
    const double u = harness::max_magnitude(flow_->velocity(d));
    m[0] = u != u ? u : std::max(m[0], u);
  }
  if (slab_.share) slab_.share->max(m);  // the ghost planes are copies: the maxima over the ranks
  return {{"max |u|", m[0]}, {"max |p|", m[1]}};
}

double FlowSimulation::drag() const {
  const auto* sphere = dynamic_cast<const Sphere*>(&flow_->body());
  if (!sphere) return std::nan("");
  return drag_coefficient(*flow_, *sphere, sphere_surface_force(*sphere));
}

SurfaceForce FlowSimulation::sphere_surface_force(const Sphere& sphere) const {
  if (!drag_) drag_ = std::make_unique<SphereDrag>(*flow_, sphere);
  if (resident_) return resident_->force(*drag_);
  return drag_->force(*flow_);
}

void FlowSimulation::save_state(std::ostream& out) const {
  if (slab_.share) harness::write_slab_identity(out, slab_.grid.planes());
  flow().save(out);
  out.write(reinterpret_cast<const char*>(&last_change_), sizeof last_change_);
  out.write(reinterpret_cast<const char*>(&last_divergence_), sizeof last_divergence_);
  fields_.save(out);
  surfaces_.save(out);
}

void FlowSimulation::load_state(std::istream& in) {
  if (slab_.share) harness::check_slab_identity(in, slab_.grid.planes(), slab_.share->rank());
  flow_->load(in);
  if (resident_) resident_->from_host();
  host_current_ = true;
  in.read(reinterpret_cast<char*>(&last_change_), sizeof last_change_);
  in.read(reinterpret_cast<char*>(&last_divergence_), sizeof last_divergence_);
  fields_.load(in);
  surfaces_.load(in);
}

// A resident step keeps the last accepted state on the device beside its own:
// save_state would bring the fields to the host after every step. The .pvd
// series are not part of it: a restored state is written under its own step.
bool FlowSimulation::keep_state() {
  if (!resident_) return false;
  resident_->keep();
  kept_scalars_ = {last_change_, last_domain_cfl_, last_divergence_};
  return true;
}

void FlowSimulation::restore_kept_state() {
  resident_->restore_kept();
  host_current_ = false;
  last_change_ = kept_scalars_[0];
  last_domain_cfl_ = kept_scalars_[1];
  last_divergence_ = kept_scalars_[2];
}

void FlowSimulation::write_fields(const std::filesystem::path& dir, long step) {
  if (slab_.root() ? warn_without_vtk(warned_no_vtk_) : !vtk_output_available()) return;
  const std::filesystem::path fields = dir / "fields";
  std::filesystem::create_directories(fields);
  const ImmersedFlow& flow = this->flow();
  std::vector<CellArray> arrays =
      masked_flow_arrays(flow.cells().types, {flow.velocity(0), flow.velocity(1), flow.velocity(2)}, flow.pressure());
  arrays.push_back(cell_type_array(flow_->cells()));
  char stem[32];
  std::snprintf(stem, sizeof stem, "flow_%06ld", step);
  const std::string vts = write_cell_fields(fields, stem, slab_, arrays);
  const std::string vtp = numbered("body", step, "vtp");
  if (slab_.root()) {
    write_surface_vtp(fields / vtp, flow_->body().triangulation());
    fields_.add_and_write(dir / "flow.pvd", flow_->time(), "fields/" + vts);
    surfaces_.add_and_write(dir / "body.pvd", flow_->time(), "fields/" + vtp);
  } else {  // the series live in every rank's state, as rank 0's
    fields_.add(flow_->time(), "fields/" + vts);
    surfaces_.add(flow_->time(), "fields/" + vtp);
  }
}

std::vector<std::pair<std::string, double>> FlowSimulation::figures_of_merit() const {
  std::vector<std::pair<std::string, double>> f = {
      {"time", flow_->time()}, {"max_du_dt", last_change_}, {"max_divergence", last_divergence_}};
  if (const auto* sphere = dynamic_cast<const Sphere*>(&flow_->body())) {
    const SurfaceForce force = sphere_surface_force(*sphere);
    const double scale = drag_coefficient(*flow_, *sphere, force) / force.total()[0];
    f.emplace_back("cd", drag_coefficient(*flow_, *sphere, force));
    f.emplace_back("cd_pressure", force.pressure[0] * scale);
    f.emplace_back("cd_viscous", force.viscous[0] * scale);
    f.emplace_back("cd_reference_johnson_patel_1999", 1.087);
    const Vec3 c = sphere->centre();
    const double diameter = 2.0 * sphere->radius();
    f.emplace_back("recirculation_length",
                   recirculation_length(flow(), c[0] + sphere->radius(), c[1], c[2]) / diameter);
    f.emplace_back("recirculation_length_reference_johnson_patel_1999", 0.88);
  }
  return f;
}

PoissonSimulation::PoissonSimulation(const harness::CaseConfig& config, bool decompose)
    : slab_(make_grid(config), decompose),
      grid_(slab_.grid),
      body_(make_body(config)),
      condition_(poisson_body_condition(config)),
      cells_(build_ghost_cells(grid_, *body_)) {
  if (slab_.share) check_ghost_planes(grid_, cells_, *slab_.share);
}

void PoissonSimulation::declare_systems(systems::SystemRegistry& registry) {
  registry.declare(systems::SystemDeclaration::named("advection_diffusion"));
  pressure_id_ = registry.declare(systems::SystemDeclaration::named("pressure"));
}

harness::StepResult PoissonSimulation::advance(systems::LinearSystems& systems) {
  result_ = solve_manufactured_poisson(grid_, cells_, condition_, systems, pressure_id_);
  if (slab_.share) result_.max_error = slab_.share->max(result_.max_error);
  solved_ = true;
  return {1.0, 1.0, std::nan(""), {{"max_error", result_.max_error}}};
}

void PoissonSimulation::save_state(std::ostream& out) const {
  if (slab_.share) harness::write_slab_identity(out, slab_.grid.planes());
  const char done = solved_;
  out.write(&done, 1);
  out.write(reinterpret_cast<const char*>(&result_.max_error), sizeof result_.max_error);
}

void PoissonSimulation::load_state(std::istream& in) {
  if (slab_.share) harness::check_slab_identity(in, slab_.grid.planes(), slab_.share->rank());
  char done = 0;
  in.read(&done, 1);
  in.read(reinterpret_cast<char*>(&result_.max_error), sizeof result_.max_error);
  if (!in) throw Error("checkpoint: truncated Poisson state");
  solved_ = done != 0;
}

void PoissonSimulation::write_fields(const std::filesystem::path& dir, long step) {
  bool warned = !slab_.root();
  if (warn_without_vtk(warned) || result_.phi.empty()) return;
  std::filesystem::create_directories(dir / "fields");
  // phi and its error on the owned cells (the ghost planes' values are not written).
  CellArray phi{"phi", 1, result_.phi}, error{"error", 1, std::vector<double>(result_.phi.size(), 0.0)};
  for (index_t c = grid_.owned_cell_begin(); c < grid_.owned_cell_end(); ++c)
    if (cells_.types[c] == CellType::fluid)
      error.values[c] = result_.phi[c] - manufactured_phi(grid_.centre(grid_.ijk(c)));
  char stem[32];
  std::snprintf(stem, sizeof stem, "poisson_%06ld", step);
  write_cell_fields(dir / "fields", stem, slab_, {phi, error, cell_type_array(cells_)});
  if (slab_.root()) write_surface_vtp(dir / "fields" / numbered("body", step, "vtp"), body_->triangulation());
}

std::vector<std::pair<std::string, double>> PoissonSimulation::figures_of_merit() const {
  return {{"max_error", result_.max_error}, {"cells", double(grid_.num_cells())}};
}

std::unique_ptr<harness::Simulation> make_simulation(const harness::CaseConfig& config, bool decompose) {
  const std::string& kind = config.text("case.kind");
  if (kind == "flow") return std::make_unique<FlowSimulation>(config, decompose);
  if (kind == "poisson_mms") return std::make_unique<PoissonSimulation>(config, decompose);
  throw Error("case.kind: '" + kind + "' is not one of flow, poisson_mms");
}

}  // namespace tb::immersed
