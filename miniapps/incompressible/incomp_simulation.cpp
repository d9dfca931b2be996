#include "miniapps/incompressible/incomp_simulation.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <istream>
#include <ostream>

#include "mesh/structured/slab.hpp"
#include "miniapps/common/domain_sharing.hpp"
#include "miniapps/common/slab_pieces.hpp"
#include "miniapps/incompressible/field_output.hpp"
#include "miniapps/incompressible/incomp_case.hpp"
#include "solvers/core/atomic_file.hpp"
#include "solvers/core/error.hpp"

namespace tb::incompressible {

IncompressibleSimulation::IncompressibleSimulation(const harness::CaseConfig& config, bool decompose)
    : steady_tol_(config.real("time.steady_tol")),
      ghia_reynolds_(int(config.integer("validation.ghia_reynolds"))),
      poiseuille_(config.boolean("validation.poiseuille")) {
  if (ghia_reynolds_ != 0 && !ghia_u_vertical(ghia_reynolds_))
    throw Error("validation.ghia_reynolds = " + std::to_string(ghia_reynolds_) +
                ": Ghia et al. tabulate 100, 400, 1000");
  FvGrid grid = make_grid(config);
  if (decompose && harness::run_ranks() > 1) grid = slab_of_this_rank(grid);
  flow_ = std::make_unique<FractionalStep>(grid, make_boundaries(config), make_flow_settings(config), share_.get());
  if (config.text("run.backend") == "cuda") reside_on_ = Backend::cuda;
  for (int d = 0; d < flow_->grid().dim(); ++d) domain_length_ = std::max(domain_length_, flow_->grid().extent(d));
}

// Where the step runs under --backend cuda (the systems are solved there in any case).
std::string IncompressibleSimulation::scheme() const {
  if (!reside_on_) return {};
  if (!share_) return "fractional step resident on the device";
  return "fractional step resident on the device, ghost planes exchanged " + harness::device_ghost_path(*share_);
}

IncompressibleSimulation::~IncompressibleSimulation() = default;

// Slabs of whole planes along the slowest axis (y in 2D, z in 3D), two ghost
// planes each side: what the Rhie-Chow faces of the owned cells reach (the
// pressure gradient of the first ghost plane needs the second).
FvGrid IncompressibleSimulation::slab_of_this_rank(const FvGrid& whole) {
  const int axis = whole.planes().axis;
  const std::string name = axis == 1 ? "y" : "z";
  if (whole.axis(axis).periodic)
    throw Error("tb-incomp on " + std::to_string(harness::run_ranks()) + " ranks splits the grid into slabs of " +
                name + " planes: a grid periodic in " + name + " cannot be split (run it on one rank)");
  harness::RankSlab split = harness::split_into_slabs("tb-incomp", whole.shape(), axis, 2);
  share_ = std::move(split.share);
  decomposition_ = std::move(split.decomposition);
  const Slab& slab = split.slab;
  return FvGrid::piece(whole, slab.first_held(), slab.held(), slab.planes_below, slab.planes_below + slab.planes);
}

const FractionalStep& IncompressibleSimulation::flow() const {
  if (!host_current_) resident_->to_host();
  host_current_ = true;
  return *flow_;
}

harness::StepResult IncompressibleSimulation::advance(systems::LinearSystems& systems) {
  if (reside_on_ && !resident_) resident_ = std::make_unique<ResidentStep>(*flow_, systems, *reside_on_);
  const StepReport r = resident_ ? resident_->step(systems) : flow_->step(systems);
  host_current_ = !resident_;
  const double max_u = resident_ ? resident_->max_velocity() : harness::max_magnitude(flow_->velocity());
  last_change_ = r.velocity_change;
  last_domain_cfl_ = flow_->settings().dt * max_u / domain_length_;
  last_divergence_ = r.divergence;
  harness::StepResult result{r.time,
                             flow_->settings().dt,
                             r.cfl,
                             {{"momentum", r.momentum_residual},
                              {"du_dt", r.velocity_change},
                              {"divergence", r.divergence},
                              {"projection_corrections", double(r.projection_corrections)}}};
  result.growth_bounded = 3;  // a count of solves may grow from 1
  return result;
}

// max |du/dt| < steady_tol, with the change measured over at most the time the
// flow takes to cross the domain: |du| / min(dt, L / max|u|). A huge time step
// (time.dt = 1e6) divides |du| by dt and would look steady after one step; where
// dt < L / max|u|, as in every shipped case, this is the plain max |du/dt|.
bool IncompressibleSimulation::steady_state_reached() const {
  return steady_tol_ > 0.0 && last_change_ * std::max(1.0, last_domain_cfl_) < steady_tol_;
}

std::vector<std::pair<std::string, double>> IncompressibleSimulation::state_magnitudes() const {
  if (resident_) return {{"max |u|", resident_->max_velocity()}, {"max |p|", resident_->max_pressure()}};
  std::array<double, 2> m = {harness::max_magnitude(flow_->velocity()), harness::max_magnitude(flow_->pressure())};
  if (share_) share_->max(m);  // the ghosts are copies of other ranks' values: the maxima over the ranks
  return {{"max |u|", m[0]}, {"max |p|", m[1]}};
}

// A decomposed run's state opens with the rank's slab (harness::write_slab_identity).
void IncompressibleSimulation::save_state(std::ostream& out) const {
  if (share_) harness::write_slab_identity(out, flow_->grid().planes());
  flow().save(out);
  out.write(reinterpret_cast<const char*>(&last_change_), sizeof last_change_);
  outputs_.save(out);
}

void IncompressibleSimulation::load_state(std::istream& in) {
  if (share_) harness::check_slab_identity(in, flow_->grid().planes(), share_->rank());
  flow_->load(in);
  if (resident_) resident_->from_host();
  host_current_ = true;
  in.read(reinterpret_cast<char*>(&last_change_), sizeof last_change_);
  outputs_.load(in);
  last_divergence_ = flow_->max_divergence();
}

// A resident step keeps the last accepted state on the device beside its own:
// save_state would bring the fields to the host after every step. The .pvd
// entries are not part of it: a restored state is written under its own step,
// which PvdSeries does not list twice.
bool IncompressibleSimulation::keep_state() {
  if (!resident_) return false;
  resident_->keep();
  kept_scalars_ = {last_change_, last_domain_cfl_, last_divergence_};
  return true;
}

void IncompressibleSimulation::restore_kept_state() {
  resident_->restore_kept();
  host_current_ = false;
  last_change_ = kept_scalars_[0];
  last_domain_cfl_ = kept_scalars_[1];
  last_divergence_ = kept_scalars_[2];
}

void IncompressibleSimulation::write_fields(const std::filesystem::path& dir, long step) {
  const bool root = !share_ || share_->rank() == 0;
  const std::filesystem::path fields = dir / "fields";
  std::filesystem::create_directories(fields);
  const Profile u = u_vertical_centreline(), v = v_horizontal_centreline();  // every rank: they add up
  if (root) {
    write_file_atomically((fields / "centreline_u.csv").string(), profile_csv(u, "y", "u"));
    write_file_atomically((fields / "centreline_v.csv").string(), profile_csv(v, "x", "v"));
  }
  if (!vts_output_available()) {
    if (!warned_no_vtk_ && root) std::fprintf(stderr, "tb-incomp: built without VTK: no .vts/.pvd output\n");
    warned_no_vtk_ = true;
    return;
  }
  char stem[32];
  std::snprintf(stem, sizeof stem, "flow_%06ld", step);
  const std::string entry = "fields/" + std::string(stem) + (share_ ? ".pvts" : ".vts");
  if (share_)
    write_piece(fields, stem);
  else
    write_vts(fields / (std::string(stem) + ".vts"), flow());
  if (root)
    outputs_.add_and_write(dir / "flow.pvd", flow_->time(), entry);
  else
    outputs_.add(flow_->time(), entry);
}

// This rank's owned planes, then, once every piece is on disk, rank 0's .pvts of them.
void IncompressibleSimulation::write_piece(const std::filesystem::path& fields, const std::string& stem) {
  const auto piece = [&](int r) { return stem + "_r" + std::to_string(r) + ".vts"; };
  write_vts(fields / piece(share_->rank()), flow(), share_->rank());
  const std::vector<std::array<index_t, 2>> ranges = harness::owned_planes_on_root(*share_, flow_->grid().planes());
  if (share_->rank() != 0) return;  // the gather also waited for every piece
  std::vector<std::string> pieces;
  for (int r = 0; r < share_->ranks(); ++r) pieces.push_back(piece(r));
  write_pvts(fields / (stem + ".pvts"), flow_->grid(), pieces, ranges);
}

Profile IncompressibleSimulation::u_vertical_centreline() const {
  const FvGrid& g = flow_->grid();
  const std::array<double, 3> mid = {0.5 * g.extent(0), 0.0, 0.5 * g.extent(2)};
  return sample_line(flow(), 0, 1, mid);
}

Profile IncompressibleSimulation::v_horizontal_centreline() const {
  const FvGrid& g = flow_->grid();
  const std::array<double, 3> mid = {0.0, 0.5 * g.extent(1), 0.5 * g.extent(2)};
  return sample_line(flow(), 1, 0, mid);
}

// A decomposed run samples the line on the ranks and adds the profiles up;
// a whole grid reduces the comparison where the velocity is (the device's,
// under a resident step), the same bits as the sampled profile.
double IncompressibleSimulation::ghia_deviation(int component, int along, const Profile& table, double scale) const {
  const FvGrid& g = flow_->grid();
  std::array<double, 3> mid = {0.5 * g.extent(0), 0.5 * g.extent(1), 0.5 * g.extent(2)};
  mid[std::size_t(along)] = 0.0;
  if (share_) return max_deviation(sample_line(flow(), component, along, mid), table, scale);
  const ProfileDeviation d = profile_deviation(line_samples(*flow_, component, along, mid), table, scale);
  if (resident_) return max_deviation(resident_->backend(), d, resident_->velocity(), g.dim(), component);
  return max_deviation(Backend::host, d, flow_->velocity().data(), g.dim(), component);
}

double IncompressibleSimulation::poiseuille_error() const {
  const FvGrid& g = flow_->grid();
  const int n = g.dim();
  const double height = g.extent(1);
  // The mean velocity from the inflow, or in a periodic channel from the force: f H^2 / (12 nu).
  const double inflow = flow_->boundaries().inflow_rate();
  const FlowSettings& fs = flow_->settings();
  const double mean =
      inflow != 0.0 ? inflow / (height * g.extent(2)) : fs.body_force[0] * height * height / (12.0 * fs.nu);
  double worst = 0.0;
  for (index_t k = 0; k < g.cells(2); ++k)
    for (index_t j = 0; j < g.cells(1); ++j) {
      if (!g.owns({g.cells(0) - 1, j, k})) continue;
      const double s = g.axis(1).centres[j] / height;
      const double u = flow().velocity()[std::size_t(n) * g.index(g.cells(0) - 1, j, k)];
      worst = std::max(worst, std::abs(u - 6.0 * mean * s * (1.0 - s)));
    }
  return share_ ? share_->max(worst) : worst;
}

std::vector<std::pair<std::string, double>> IncompressibleSimulation::figures_of_merit() const {
  std::vector<std::pair<std::string, double>> f = {
      {"time", flow_->time()}, {"max_du_dt", last_change_}, {"max_divergence", last_divergence_}};
  if (ghia_reynolds_ != 0) {
    f.emplace_back("ghia_u_max_deviation",
                   ghia_deviation(0, 1, *ghia_u_vertical(ghia_reynolds_), flow_->grid().extent(1)));
    f.emplace_back("ghia_v_max_deviation",
                   ghia_deviation(1, 0, *ghia_v_horizontal(ghia_reynolds_), flow_->grid().extent(0)));
  }
  if (poiseuille_) f.emplace_back("poiseuille_max_error", poiseuille_error());
  return f;
}

}  // namespace tb::incompressible
