#include "miniapps/compressible/comp_case.hpp"

#include <algorithm>
#include <filesystem>
#include <numbers>

#include "mesh/cell_ordering.hpp"
#include "mesh/check.hpp"
#include "mesh/io/mesh_io.hpp"
#include "mesh/mesh_graph.hpp"
#include "mesh/reorder.hpp"
#include "miniapps/common/case_checks.hpp"
#include "solvers/core/error.hpp"
#include "solvers/factory/spec.hpp"
#include "solvers/systems/autopilot_spec.hpp"

namespace tb::compressible {

using harness::KeyType;

void declare_case_keys(harness::CaseSchema& schema) {
  // The domains are those PseudoTimeSettings and the discretisation require
  // (physics/compressible): checked here first, where the place is known.
  const harness::KeyDomain open_unit{.min = 0, .max = 1, .min_open = true, .max_open = true};
  const harness::KeyDomain open_closed_unit{.min = 0, .max = 1, .min_open = true};
  schema.add({"solver.flow", KeyType::text, default_flow_solver,
              "the backward-Euler system (V/dtau + J) dw = -r: 4 x 4 blocks, one block row per cell",
              harness::solver_specification()});
  schema.add({"mesh.file", KeyType::text, TB_INPUTS_DIR "/meshes/cylinder_layered.msh",
              "Gmsh 2.2 / 4.1 (.msh) or SU2 (.su2) mesh", harness::existing_file()});
  schema.add({"mesh.ordering", KeyType::text, "auto",
              "cell ordering applied once before assembly: none, rcm, 1wd, line, line-rcm, line-1wd; auto: rcm with "
              "jacobian.form = matrix_free, else none",
              harness::one_of({"auto", "none", "rcm", "1wd", "line", "line-rcm", "line-1wd"})});
  schema.add({"mesh.partition", KeyType::text, "cells",
              "what METIS balances across ranks (decomposed runs): cells, or work (a cell's matrix blocks, 1 + its "
              "neighbours, plus 2 for its vector work: mesh/partition.hpp)",
              harness::one_of({"cells", "work"})});
  schema.add({"boundary.wall", KeyType::text, "cylinder", "comma-separated markers that are slip walls"});
  schema.add({"boundary.farfield", KeyType::text, "farfield", "comma-separated markers that are far field"});
  schema.add(
      {"boundary.noslip", KeyType::text, "", "comma-separated markers that are adiabatic no-slip walls (viscous)"});
  schema.add({"boundary.isothermal", KeyType::text, "", "comma-separated markers that are isothermal no-slip walls"});
  schema.add({"boundary.wall_flux", KeyType::text, "mirror",
              "inviscid flux of all walls: mirror (scheme.flux with the mirrored state, as FVENS) or pressure (p n)",
              harness::one_of({"mirror", "pressure"})});
  schema.add({"boundary.wall_temperature", KeyType::real, "1", "temperature of isothermal walls over T_inf",
              harness::greater_than(0)});
  // Above 0: the state is scaled by the free stream's speed (its dynamic
  // pressure normalises the forces, Re is on it); a gas at rest has no Cl or Cd.
  schema.add({"flow.mach", KeyType::real, "0.38", "free-stream Mach number (> 0: the forces are scaled by its speed)",
              harness::greater_than(0)});
  schema.add({"flow.alpha_deg", KeyType::real, "0", "angle of attack in degrees"});
  schema.add({"flow.gamma", KeyType::real, "1.4", "ratio of specific heats", harness::greater_than(1)});
  schema.add({"flow.reynolds", KeyType::real, "0",
              "Reynolds number on forces.reference_length; 0 = inviscid (Euler), else laminar Navier-Stokes",
              harness::at_least(0)});
  schema.add({"flow.prandtl", KeyType::real, "0.72", "Prandtl number (constant)", harness::greater_than(0)});
  // A temperature in kelvin where Sutherland's law of air holds: a value in
  // degrees Celsius (15 for 288.15 K) is refused rather than taken as 15 K.
  schema.add({"flow.t_inf_kelvin", KeyType::real, "288.15",
              "free-stream temperature in kelvin (not Celsius: 15 C is 288.15 K) for Sutherland's law of air (S = "
              "110.4 K)",
              harness::in_range(50, 5000)});
  schema.add({"flow.viscosity", KeyType::text, "sutherland",
              "viscosity law: sutherland (of the temperature, seed 001 §2) or constant (mu_inf everywhere, as "
              "benchmark cases such as the high-order workshop's NACA 0012 at Re 5000 prescribe)",
              harness::one_of({"sutherland", "constant"})});
  schema.add({"scheme.flux", KeyType::text, "roe", "inviscid flux: roe (Harten entropy fix), hllc or rusanov",
              harness::one_of({"roe", "hllc", "rusanov"})});
  schema.add({"scheme.entropy_fix", KeyType::text, "all",
              "waves of the Roe flux that take Harten's entropy fix: acoustic, or all (entropy and shear too, for "
              "stagnation points and wakes)",
              harness::one_of({"acoustic", "all"})});
  schema.add({"scheme.entropy_fix_fraction", KeyType::real, "0.1",
              "Harten's delta over |u.n| + c of the Roe average: waves slower than delta take (l^2 + delta^2) / "
              "(2 delta)",
              harness::at_least(0)});
  schema.add({"scheme.low_mach_fix", KeyType::text, "none",
              "Roe flux at low local Mach numbers: none, or rieper (the normal-velocity jump of the acoustic waves "
              "scaled by the local Mach number, Rieper 2011; for boundary layers and stagnation points)",
              harness::one_of({"none", "rieper"})});
  schema.add({"scheme.low_mach_cutoff", KeyType::real, "0.5",
              "with low_mach_fix = rieper: the least scale, as a fraction of flow.mach (it keeps pressure and "
              "velocity coupled where the flow stops)",
              harness::in_range(0.01, 1.0)});
  schema.add({"jacobian.flux", KeyType::text, "",
              "flux whose first-order Jacobian the system uses: roe, hllc or rusanov; empty: scheme.flux (exact)",
              harness::one_of({"", "roe", "hllc", "rusanov"})});
  schema.add({"jacobian.form", KeyType::text, "matrix_free",
              "the system's Jacobian: first_order (analytic, of the first-order residual: the paper's), exact (the "
              "residual's own, second order included, by finite differences over a distance-2 colouring: 4 x colours "
              "residual evaluations a step, for studies; one process), matrix_free (the residual's own, applied by "
              "a difference of the residual per outer FGMRES iteration, each preconditioned by one solve of the "
              "first-order system with solver.flow) or first_order_then_matrix_free (first_order until the first "
              "stall of the second-order continuation, cfl.stall_steps steps without a new lowest residual, then "
              "matrix_free)",
              harness::one_of({"first_order", "first_order_then_matrix_free", "exact", "matrix_free"})});
  schema.add({"jacobian.matrix_free_rtol", KeyType::real, "0.1",
              "jacobian.form = matrix_free (first_order_then_matrix_free after its switch): the outer FGMRES stops at "
              "this relative residual of the second-order system",
              open_unit});
  schema.add({"jacobian.matrix_free_maxit", KeyType::integer, "40",
              "jacobian.form = matrix_free (first_order_then_matrix_free after its switch): at most this many outer "
              "iterations (solves of the first-order system) per step",
              harness::in_range(1, 100)});
  schema.add({"jacobian.matrix_free_inner_maxit", KeyType::integer, "0",
              "jacobian.form = matrix_free (first_order_then_matrix_free after its switch): each solve of the "
              "first-order system that preconditions the outer FGMRES stops after at most this many iterations; 0: "
              "solver.flow's own maxit (an autopilot's candidates: each its own)",
              harness::in_range(0, 1e6)});
  schema.add({"jacobian.reuse", KeyType::integer, "10",
              "steps one assembled first-order Jacobian (and its factors) may serve while the CFL and the order stay "
              "as at its assembly and every step is healthy (no relaxation, safeguard or retry, solves converged, "
              "residual falling): in practice at the CFL cap; 1: assembled every step (the paper); jacobian.form = "
              "exact assembles every step",
              harness::in_range(1, 1000)});
  schema.add({"scheme.order", KeyType::integer, "2", "1, or 2 (least-squares gradients, after a first-order start)",
              harness::one_of({"1", "2"})});
  schema.add({"scheme.boundary_gradients", KeyType::text, "ghosts",
              "least-squares gradients of boundary cells: ghosts (a ghost per boundary face, as FVENS) or interior "
              "(interior neighbours only)",
              harness::one_of({"ghosts", "interior"})});
  schema.add({"scheme.gradient_stencil", KeyType::text, "triangle_nodes",
              "cells each least-squares gradient reads: faces (face neighbours, seed 001's), nodes (every cell sharing "
              "a node) or triangle_nodes (nodes on triangles, faces on quadrilaterals: converges on triangular meshes "
              "where faces does not)",
              harness::one_of({"faces", "nodes", "triangle_nodes"})});
  schema.add({"scheme.limiter", KeyType::text, "none", "second-order limiter: none or venkatakrishnan",
              harness::one_of({"none", "venkatakrishnan"})});
  schema.add({"scheme.limiter_k", KeyType::real, "5", "Venkatakrishnan's K (eps^2 = (K h)^3)", harness::at_least(0)});
  schema.add({"cfl.min", KeyType::real, "20", "smallest CFL number of the ramp (cuts may go below)",
              harness::greater_than(0)});
  schema.add(
      {"cfl.start", KeyType::real, "500", "CFL of the first step (first order); 0: cfl.min", harness::at_least(0)});
  schema.add({"cfl.max", KeyType::real, "1e4", "largest CFL number", harness::greater_than(0)});
  schema.add({"cfl.ramp_up", KeyType::real, "0.25", "Eq. 3 exponent when the residual fell", harness::at_least(0)});
  schema.add({"cfl.ramp_down", KeyType::real, "0.3", "Eq. 3 exponent when the residual grew", harness::at_least(0)});
  schema.add(
      {"cfl.cut", KeyType::real, "0.1", "CFL factor when a step gives a non-physical state (step redone)", open_unit});
  schema.add({"cfl.second_order", KeyType::real, "100",
              "CFL of the first second-order step (after the first-order start); 0: cfl.start", harness::at_least(0)});
  schema.add({"cfl.stall_steps", KeyType::integer, "10",
              "steps without a new lowest residual before the CFL is cut by cfl.stall_cut; 0: never",
              harness::in_range(0, 1e6)});
  schema.add({"cfl.stall_cut", KeyType::real, "0.5", "CFL factor when the residual stalled", open_closed_unit});
  schema.add({"cfl.stall_drop", KeyType::real, "0.1",
              "a new lowest residual (cfl.stall_steps) lies this fraction below the last one; 0: any lower",
              harness::KeyDomain{.min = 0, .max = 1, .max_open = true}});
  schema.add({"cfl.growth", KeyType::real, "0",
              "smallest CFL factor after a healthy step (no relaxation, residual below cfl.growth_tolerance times the "
              "previous); 1: Eq. 3 alone; 0: 1.5 with jacobian.form = matrix_free, else 1",
              harness::in_range(0, 100)});
  schema.add({"cfl.growth_tolerance", KeyType::real, "1.1",
              "a healthy step leaves the residual below this times the previous one", harness::in_range(1, 100)});
  schema.add({"relax.omega_cfl", KeyType::real, "0.1",
              "a step relaxed below this omega scales the next CFL by omega / relax.omega_cfl (>= cfl.cut)",
              harness::in_range(0, 1)});
  schema.add({"relax.max_change", KeyType::real, "0.2", "largest relative change of density and pressure per step",
              harness::greater_than(0)});
  schema.add(
      {"converge.rel_tol", KeyType::real, "1e-6", "converged when the energy residual fell by this factor", open_unit});
  schema.add({"converge.force_tol", KeyType::real, "1e-5",
              "converged also needs Cl and Cd settled: each one's last change plus its estimated remaining change (a "
              "geometric tail of the last three values) below this; 0: the energy residual alone",
              harness::at_least(0)});
  schema.add({"converge.first_order_drop", KeyType::real, "0.1",
              "energy-residual drop of the first-order start before second order", harness::greater_than(0)});
  schema.add({"forces.reference_length", KeyType::real, "1", "length that normalises Cl and Cd (diameter, chord)",
              harness::greater_than(0)});
}

OrderedMesh load_ordered_mesh(const harness::CaseConfig& config) {
  const std::string& file = config.text("mesh.file");
  if (!std::filesystem::is_regular_file(file)) throw config.refusal("mesh.file", "an existing regular file");
  Mesh2D mesh = read_mesh(file);
  // The checks tb-mesh info runs: a tangled, inverted or degenerate mesh is refused before any step.
  if (const MeshCheck check = check_mesh(mesh); !check.ok()) {
    std::string problems;
    for (const auto& p : check.problems) problems += "\n  " + p;
    throw config.refusal("mesh.file", "a mesh that passes the checks of tb-mesh info; this one fails them:" + problems);
  }
  // Lines of the file's mesh with the options the line orderings use, so the
  // field shows the very lines they ordered by.
  const Lines lines = detect_mesh_lines(mesh, compute_geometry(mesh), cell_graph(mesh), LineOptions{});
  const std::string name = cell_ordering_name(config);
  if (name == "none") {
    const index_t cells = mesh.num_cells();
    return {std::move(mesh), Permutation::identity(cells), lines.line_of};
  }
  CellOrdering ordering;
  try {
    ordering = parse_cell_ordering(name);
  } catch (const Error& e) {
    throw Error(std::string("mesh.ordering: ") + e.what() + " (or none)");
  }
  if (ordering == CellOrdering::Natural || ordering == CellOrdering::Colour)
    throw Error("mesh.ordering: '" + name + "': expected none, rcm, 1wd, line, line-rcm or line-1wd");
  Permutation p = order_cells(mesh, ordering);
  std::vector<index_t> line_id(lines.line_of.size());
  for (std::size_t c = 0; c < line_id.size(); ++c) line_id[c] = lines.line_of[std::size_t(p.new_to_old[c])];
  return {reorder_cells(mesh, p), std::move(p), std::move(line_id)};
}

// auto: BILU(0), the default preconditioner, in RCM order for the matrix-free
// form, whose outer vectors are harder for it than the residual (the cylinder
// O-grid of 128 x 64 cut into triangles: 32 steps in RCM order, unconverged in
// 400 in the file's); the paper's system in the file's order (the built-in
// cylinder: 159 steps, against 281 in RCM order).
std::string cell_ordering_name(const harness::CaseConfig& config) {
  const std::string& name = config.text("mesh.ordering");
  if (name != "auto") return name;
  return config.text("jacobian.form") == "matrix_free" ? "rcm" : "none";
}

BoundaryMap make_boundary_map(const harness::CaseConfig& config) {
  BoundaryMap map;
  map.far_field = split_marker_list(config.text("boundary.farfield"));
  map.slip_wall = split_marker_list(config.text("boundary.wall"));
  map.no_slip_adiabatic = split_marker_list(config.text("boundary.noslip"));
  map.no_slip_isothermal = split_marker_list(config.text("boundary.isothermal"));
  return map;
}

double angle_of_attack(const harness::CaseConfig& config) {
  return config.real("flow.alpha_deg") * std::numbers::pi / 180.0;
}

EulerSettings make_euler_settings(const harness::CaseConfig& config) {
  EulerSettings s;
  s.gas.gamma = config.real("flow.gamma");
  const double mach = config.real("flow.mach");
  try {
    s.flux = parse_flux_scheme(config.text("scheme.flux"));
  } catch (const Error& e) {
    throw Error(std::string("scheme.flux: ") + e.what());
  }
  if (const std::string& jac = config.text("jacobian.flux"); !jac.empty()) try {
      s.jacobian_flux = parse_flux_scheme(jac);
    } catch (const Error& e) {
      throw Error(std::string("jacobian.flux: ") + e.what());
    }
  const std::string& limiter = config.text("scheme.limiter");
  if (limiter != "none" && limiter != "venkatakrishnan")
    throw Error("scheme.limiter: '" + limiter + "': expected none or venkatakrishnan");
  s.limiter = limiter == "venkatakrishnan";
  s.boundary_ghost_gradients = config.text("scheme.boundary_gradients") == "ghosts";
  s.gradient_stencil = parse_gradient_stencil(config.text("scheme.gradient_stencil"));
  s.roe.all_waves = config.text("scheme.entropy_fix") == "all";
  s.roe.fraction = config.real("scheme.entropy_fix_fraction");
  if (config.text("scheme.low_mach_fix") == "rieper") {
    if (s.flux != FluxScheme::Roe) throw config.refusal("scheme.low_mach_fix", "none with a flux other than roe");
    if (!(mach > 0.0)) throw config.refusal("flow.mach", "> 0 with scheme.low_mach_fix = rieper (its floor scales it)");
    s.roe.low_mach_floor = std::min(1.0, config.real("scheme.low_mach_cutoff") * mach);
  }
  s.limiter_k = config.real("scheme.limiter_k");
  s.free_stream = s.gas.free_stream(mach, angle_of_attack(config));
  const double re = config.real("flow.reynolds");
  if (re > 0.0) {
    if (!(mach > 0.0)) throw config.refusal("flow.mach", "> 0 when flow.reynolds > 0 (mu_inf = Mach L / Re)");
    s.viscous.mu_inf = mach * config.real("forces.reference_length") / re;
    s.viscous.gamma = s.gas.gamma;
    s.viscous.prandtl = config.real("flow.prandtl");
    s.viscous.sutherland = 110.4 / config.real("flow.t_inf_kelvin");
    s.viscous.constant = config.text("flow.viscosity") == "constant";
  }
  s.wall_temperature = config.real("boundary.wall_temperature");
  s.wall_flux = config.text("boundary.wall_flux") == "mirror" ? WallFlux::Mirror : WallFlux::Pressure;
  return s;
}

namespace {

// The magnitudes of the free stream and the viscous terms (rho = 1, c = 1,
// |u| = M, p = 1 / gamma): each within what double precision squares.
void check_magnitudes(const harness::CaseConfig& config) {
  const double mach = config.real("flow.mach"), gamma = config.real("flow.gamma");
  harness::require_magnitude(config, "flow.mach", "the free stream's speed M", mach);
  harness::require_magnitude(config, "flow.mach", "the free stream's kinetic energy M^2 / 2", 0.5 * mach * mach);
  harness::require_magnitude(config, "flow.gamma", "the free stream's internal energy 1 / (gamma (gamma - 1))",
                             1.0 / (gamma * (gamma - 1.0)));
  harness::require_magnitude(config, "forces.reference_length", "the reference length",
                             config.real("forces.reference_length"));
  harness::require_magnitude(config, "boundary.wall_temperature", "the wall temperature over T_inf",
                             config.real("boundary.wall_temperature"));
  if (const double re = config.real("flow.reynolds"); re > 0.0)
    harness::require_magnitude(config, "flow.reynolds", "the viscosity mu_inf = M L / Re",
                               mach * config.real("forces.reference_length") / re,
                               {"flow.mach", "forces.reference_length"});
}

// Keys a setting of the case does not read: noted when given.
void note_ignored_keys(const harness::CaseConfig& config, bool decomposed, harness::CaseNotes& notes) {
  const auto with = [&](const char* key) { return "; with " + config.key_and_value(key); };
  const bool viscous = config.real("flow.reynolds") > 0.0;
  for (const char* key : {"flow.prandtl", "flow.viscosity"})
    harness::note_if_ignored(config, key, viscous, "the viscous flux's" + with("flow.reynolds"), notes);
  harness::note_if_ignored(config, "flow.t_inf_kelvin", viscous && config.text("flow.viscosity") == "sutherland",
                           "Sutherland's law's" + with("flow.reynolds") + with("flow.viscosity").substr(1), notes);
  harness::note_if_ignored(config, "boundary.wall_temperature", !config.text("boundary.isothermal").empty(),
                           "the isothermal walls'" + with("boundary.isothermal"), notes);
  const bool second = config.integer("scheme.order") == 2;
  for (const char* key : {"cfl.second_order", "converge.first_order_drop", "scheme.limiter"})
    harness::note_if_ignored(config, key, second, "of the second-order scheme" + with("scheme.order"), notes);
  harness::note_if_ignored(config, "scheme.limiter_k", second && config.text("scheme.limiter") == "venkatakrishnan",
                           "Venkatakrishnan's limiter's" + with("scheme.limiter"), notes);
  harness::note_if_ignored(config, "scheme.low_mach_cutoff", config.text("scheme.low_mach_fix") == "rieper",
                           "the low-Mach fix's" + with("scheme.low_mach_fix"), notes);
  const std::string& form = config.text("jacobian.form");
  const bool matrix_free = form == "matrix_free" || form == "first_order_then_matrix_free";
  for (const char* key :
       {"jacobian.matrix_free_rtol", "jacobian.matrix_free_maxit", "jacobian.matrix_free_inner_maxit"})
    harness::note_if_ignored(config, key, matrix_free, "the matrix-free form's" + with("jacobian.form"), notes);
  harness::note_if_ignored(config, "jacobian.reuse", form != "exact",
                           "of the assembled first-order Jacobian" + with("jacobian.form"), notes);
  harness::note_if_ignored(config, "mesh.partition", decomposed,
                           "how METIS splits the mesh over the ranks of a decomposed run, and this run is not one",
                           notes);
}

// Whether `spec` (or a candidate of an autopilot's) preconditions with the
// asynchronous ILU in its asynchronous schedule.
bool sweeps_asynchronously(const std::string& spec) {
  if (systems::is_autopilot_spec(spec)) {
    const std::vector<std::string> candidates = systems::parse_autopilot_spec(spec).candidates;
    return std::any_of(candidates.begin(), candidates.end(), sweeps_asynchronously);
  }
  for (const SpecComponent& c : parse_spec(spec).components)
    if (c.name == "async_bilu" || c.name == "async_ilu") {
      const std::string* schedule = param_value(c, "schedule");
      return schedule == nullptr || *schedule != "sync";
    }
  return false;
}

}  // namespace

harness::CaseNotes check_case_keys(const harness::CaseConfig& config, bool decomposed) {
  check_magnitudes(config);
  harness::CaseNotes notes;
  note_ignored_keys(config, decomposed, notes);
  if (config.text("jacobian.form") != "exact") return notes;
  // The exact Jacobian differentiates the residual's own flux: another one named for it would do nothing.
  if (!config.text("jacobian.flux").empty())
    throw config.refusal("jacobian.flux", "empty with " + config.key_and_value("jacobian.form") +
                                              " (it differentiates scheme.flux itself)");
  if (decomposed)
    throw config.refusal(
        "jacobian.form",
        "first_order under mpiexec (the exact Jacobian's colouring takes the whole mesh: run it on one "
        "process, or with run.decompose = false)");
  // A device runs the asynchronous ILU's triangular sweeps close to the
  // synchronous order, with which the exact Jacobian's systems are far harder
  // than with the host's (docs/async_ilu.md, "The exact Jacobian").
  if (config.text("run.backend") == "cuda" && sweeps_asynchronously(config.text("solver.flow")))
    notes.push_back(config.key_and_value("jacobian.form") + " on the device with " +
                    config.key_and_value("solver.flow") +
                    ": the asynchronous ILU's triangular sweeps there act like Jacobi sweeps, with which the exact "
                    "Jacobian's systems may take far more steps than BiLU(0)'s on the host, or not converge "
                    "(docs/async_ilu.md, \"The exact Jacobian\")");
  return notes;
}

PseudoTimeSettings make_pseudo_time_settings(const harness::CaseConfig& config) {
  PseudoTimeSettings s;
  s.order = int(config.integer("scheme.order"));  // 1 or 2 (its domain)
  s.cfl_min = config.real("cfl.min");
  s.cfl_max = config.real("cfl.max");
  s.ramp_up = config.real("cfl.ramp_up");
  s.ramp_down = config.real("cfl.ramp_down");
  s.cfl_cut = config.real("cfl.cut");
  s.max_change = config.real("relax.max_change");
  s.cfl_start = config.real("cfl.start");
  s.cfl_second_order = config.real("cfl.second_order");
  s.stall_steps = int(config.integer("cfl.stall_steps"));  // 0 to 1e6 (its domain)
  s.stall_cut = config.real("cfl.stall_cut");
  s.stall_drop = config.real("cfl.stall_drop");
  // 0 (the default) by the form: the residual's own Jacobian follows a CFL
  // raised x1.5 a healthy step (the built-in cylinder: 13 steps to CFL 1e4,
  // against 20 to 2,700 by Eq. 3 alone); the paper's first-order one does not
  // (1,000 steps unconverged, against 159 by Eq. 3 alone; docs/compressible.md).
  s.cfl_growth = config.real("cfl.growth");
  if (s.cfl_growth > 0.0 && s.cfl_growth < 1.0)
    throw config.refusal("cfl.growth", "0 (by jacobian.form) or between 1 and 100");
  s.growth_tolerance = config.real("cfl.growth_tolerance");
  s.omega_cfl = config.real("relax.omega_cfl");
  s.rel_tol = config.real("converge.rel_tol");
  s.first_order_drop = config.real("converge.first_order_drop");
  // Its domain: first_order, first_order_then_matrix_free, exact, matrix_free.
  const std::string form = config.text("jacobian.form");
  s.jacobian = form == "exact"         ? JacobianForm::exact
               : form == "matrix_free" ? JacobianForm::matrix_free
                                       : JacobianForm::first_order;
  if (s.cfl_growth == 0.0) s.cfl_growth = s.jacobian == JacobianForm::matrix_free ? 1.5 : 1.0;
  // first_order_then_matrix_free: the paper's system, and the switch at its first stall.
  s.matrix_free_after_stall = form == "first_order_then_matrix_free";
  if (s.matrix_free_after_stall && s.stall_steps == 0)
    throw config.refusal("jacobian.form",
                         "another form with " + config.key_and_value("cfl.stall_steps") + " (it waits for a stall)");
  s.jacobian_reuse = int(config.integer("jacobian.reuse"));  // 1 to 1000 (its domain)
  s.matrix_free.rtol = config.real("jacobian.matrix_free_rtol");
  s.matrix_free.maxit = int(config.integer("jacobian.matrix_free_maxit"));  // 1 to 100 (its domain)
  if (s.cfl_max < s.cfl_min) throw config.refusal("cfl.max", ">= " + config.key_and_value("cfl.min"));
  return s;
}

}  // namespace tb::compressible
