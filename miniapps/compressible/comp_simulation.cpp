#include "miniapps/compressible/comp_simulation.hpp"

#include <cmath>
#include <cstdio>
#include <istream>
#include <ostream>

#include "mesh/io/vtu_writer.hpp"
#include "miniapps/compressible/field_output.hpp"
#include "solvers/core/atomic_file.hpp"
#include "solvers/core/error.hpp"

namespace tb::compressible {

namespace {

// Every marker a boundary key names is one of the mesh's, refused with the
// key's place otherwise (boundary_kinds_by_marker checks the same, without it).
void require_mesh_markers(const harness::CaseConfig& config, const Mesh2D& mesh) {
  for (const char* key : {"boundary.wall", "boundary.farfield", "boundary.noslip", "boundary.isothermal"})
    for (const auto& name : split_marker_list(config.text(key)))
      if (mesh.find_marker(name) < 0) {
        std::string markers;
        for (const auto& m : mesh.marker_names) markers += (markers.empty() ? "'" : ", '") + m + "'";
        throw config.refusal(key, "a comma-separated list of the mesh's markers (" + markers + "); '" + name +
                                      "' is not a marker of the mesh");
      }
}

}  // namespace

CompressibleSimulation::CompressibleSimulation(const harness::CaseConfig& config)
    : mesh_(load_ordered_mesh(config)),
      alpha_(angle_of_attack(config)),
      reference_length_(config.real("forces.reference_length")) {
  require_mesh_markers(config, mesh_.mesh);
  std::vector<BoundaryKind> kinds = boundary_kinds_by_marker(mesh_.mesh, make_boundary_map(config));
  if (config.real("flow.reynolds") == 0.0)
    for (BoundaryKind k : kinds)
      if (is_no_slip(k))
        throw config.refusal("flow.reynolds", "> 0 with no-slip walls (" + config.key_and_value("boundary.noslip") +
                                                  ", " + config.key_and_value("boundary.isothermal") + ")");
  disc_ = std::make_unique<EulerDiscretisation>(mesh_.mesh, std::move(kinds), make_euler_settings(config));
  std::vector<State> initial(std::size_t(mesh_.mesh.num_cells()), disc_->settings().free_stream);
  solver_ = std::make_unique<PseudoTimeSolver>(*disc_, std::move(initial), make_pseudo_time_settings(config));
}

harness::StepResult CompressibleSimulation::advance(harness::LinearSystems& solvers) {
  const long step = solver_->steps() + 1;
  const PseudoStepReport r = solver_->step([&](const BsrMatrix& a, std::span<const double> b, std::span<double> x) {
    SolveStats s = solvers.solve("flow", a, b, x);
    if (!s.converged())
      std::fprintf(stderr, "tb-comp2d: step %ld: the flow solve did not converge: %s\n", step, s.line().c_str());
    return s;
  });
  if (r.retries > 0)
    std::fprintf(stderr, "tb-comp2d: step %ld: non-physical state, redone with CFL %.3g (%d cut%s)\n", step, r.cfl,
                 r.retries, r.retries > 1 ? "s" : "");
  // Pseudo time has no common clock across cells: "time" counts steps.
  return {double(step),
          1.0,
          r.cfl,
          {{"energy_drop", r.energy_drop},
           {"rho", r.residual_norms[0]},
           {"rho_u", r.residual_norms[1]},
           {"rho_v", r.residual_norms[2]},
           {"rho_E", r.residual_norms[3]},
           {"order", double(r.order)},
           {"omega", r.omega},
           {"retries", double(r.retries)},
           {"cfl_cut", double(r.safeguard)},
           {"residual_s", r.residual_s},
           {"jacobian_s", r.jacobian_s}}};
}

void CompressibleSimulation::save_state(std::ostream& out) const {
  solver_->save(out);
  outputs_.save(out);
}

void CompressibleSimulation::load_state(std::istream& in) {
  solver_->load(in);
  outputs_.load(in);
}

void CompressibleSimulation::write_fields(const std::filesystem::path& dir, long step) {
  write_file_atomically((dir / "wall.csv").string(),
                        wall_csv(wall_distribution(*disc_, solver_->state(), solver_->order())));
  if (!vtu_writer_available()) {
    if (!warned_no_vtk_) std::fprintf(stderr, "tb-comp2d: built without VTK: no .vtu/.pvd output\n");
    warned_no_vtk_ = true;
    return;
  }
  const std::filesystem::path fields = dir / "fields";
  std::filesystem::create_directories(fields);
  char name[32];
  std::snprintf(name, sizeof name, "flow_%06ld.vtu", step);
  write_flow_vtu((fields / name).string(), *disc_, solver_->state(), solver_->residual(), mesh_.ordering.new_to_old,
                 mesh_.line_id);
  const std::string entry = std::string("fields/") + name;
  outputs_.add_and_write(dir / "flow.pvd", double(step), entry);
}

std::vector<std::pair<std::string, double>> CompressibleSimulation::figures_of_merit() const {
  const Forces f = pressure_forces(*disc_, solver_->state(), solver_->order(), alpha_, reference_length_);
  const std::vector<State>& r = solver_->residual();
  std::vector<std::pair<std::string, double>> figures = {{"cl", f.cl},
                                                         {"cd", f.cd},
                                                         {"cd_pressure", f.cd_pressure},
                                                         {"cd_viscous", f.cd_viscous},
                                                         {"converged", solver_->converged() ? 1.0 : 0.0},
                                                         {"pseudo_steps", double(solver_->steps())},
                                                         {"order", double(solver_->order())},
                                                         {"final_cfl", solver_->cfl()},
                                                         {"energy_residual", residual_norms(r)[3]},
                                                         {"entropy_error", entropy_error(*disc_, solver_->state())},
                                                         {"cells", double(disc_->num_cells())}};
  // Only where the wall shear turns negative on the upper surface (never NaN in summary.json).
  const double separation = separation_x(wall_distribution(*disc_, solver_->state(), solver_->order()));
  if (std::isfinite(separation)) figures.emplace_back("separation_x", separation);
  return figures;
}

}  // namespace tb::compressible
