#include "miniapps/incompressible/incomp_case.hpp"

#include <algorithm>
#include <cmath>

#include "mesh/structured/structured_grid.hpp"
#include "miniapps/common/case_checks.hpp"
#include "miniapps/common/step_table.hpp"
#include "solvers/core/error.hpp"

namespace tb::incompressible {

using harness::KeyType;

namespace {

constexpr const char* axis_names[3] = {"x", "y", "z"};

std::string key(const char* group, const char* name, const char* axis) {
  std::string k = group;
  k += '.';
  k += name;
  k += axis;
  return k;
}

std::string side_key(int side, const char* what) {
  std::string k = "bc.";
  k += side_name(side);
  k += '.';
  k += what;
  return k;
}

}  // namespace

void declare_case_keys(harness::CaseSchema& schema) {
  schema.add({"solver.momentum", KeyType::text, default_momentum_solver,
              "momentum predictor: block system, n = 2 (2D) or 3 (3D), 7-point pattern",
              harness::solver_specification()});
  schema.add({"solver.pressure", KeyType::text, default_pressure_solver,
              "pressure: SPD Poisson system, n = 1 (its unknown: solver.pressure_unknown)",
              harness::solver_specification()});
  schema.add({"solver.pressure_unknown", KeyType::text, "pressure",
              "the pressure system's unknown: pressure (p^{n+1} from p^n; with relative_to=b rtol is relative to the "
              "whole pressure's right-hand side) or correction (phi from 0); the same matrix and step",
              harness::one_of({"pressure", "correction"})});
  schema.add({"solver.projection_tol", KeyType::real, "4e-10",
              "largest divergence a projection may leave (the pinned cell's included), over the larger of the "
              "divergence it removes and max sum_d |u_d| / h_d; beyond it correction solves of 1, 2, 4 iterations "
              "and then a whole one remove the rest, each only while it is exceeded; 0: the pressure solver's "
              "stopping rule alone",
              harness::in_range(0, 1)});
  for (int d = 0; d < 3; ++d) {
    const char* a = axis_names[d];
    // x and y need two cells (the grid's rule, physics/incompressible/fv_grid.cpp); z: 1 is 2D.
    schema.add({key("grid", "n", a), KeyType::integer, d == 2 ? "1" : "32",
                d == 2 ? "cells in z; 1 makes the case two-dimensional" : "cells in this direction",
                harness::in_range(d == 2 ? 1 : 2, 100000)});
    schema.add({key("grid", "l", a), KeyType::real, "1", "domain length", harness::greater_than(0)});
    schema.add({key("grid", "stretch_", a), KeyType::real, "0",
                "tanh clustering towards both ends (beta of mesh/structured); 0 = uniform", harness::at_least(0)});
  }
  schema.add({"flow.reynolds", KeyType::real, "100", "Reynolds number U L / nu with unit reference velocity and length",
              harness::greater_than(0)});
  for (const char* a : axis_names)
    schema.add({key("flow", "force_", a), KeyType::real, "0", "body force per unit mass (drives a periodic channel)"});
  schema.add({"time.dt", KeyType::real, "0.2", "time step", harness::greater_than(0)});
  schema.add({"time.steady_tol", KeyType::real, "1e-5", "steady once max |du/dt| falls below this; 0 = never",
              harness::at_least(0)});
  for (int side = 0; side < 6; ++side) {
    const bool lid = side == side_of(1, 1);
    schema.add({side_key(side, "type"), KeyType::text, "wall", "wall, inflow, outflow or periodic (both sides)",
                harness::one_of({"wall", "inflow", "outflow", "periodic"})});
    schema.add({side_key(side, "u"), KeyType::real, lid ? "1" : "0", "x velocity of the wall, or mean inflow"});
    schema.add({side_key(side, "v"), KeyType::real, "0", "y velocity of the wall, or mean inflow"});
    schema.add({side_key(side, "w"), KeyType::real, "0", "z velocity of the wall, or mean inflow"});
    schema.add({side_key(side, "profile"), KeyType::text, "uniform",
                "inflow profile: uniform or parabolic (mean = u,v,w)", harness::one_of({"uniform", "parabolic"})});
  }
  schema.add({"validation.ghia_reynolds", KeyType::integer, "100",
              "compare the centrelines with Ghia et al. (1982) at Re 100, 400 or 1000, the unit 2D cavity with a "
              "unit lid speed at flow.reynolds = this; 0 = no comparison; not given: the table of the case's "
              "Reynolds number where the case is that cavity, else 0",
              harness::one_of({"0", "100", "400", "1000"})});
  schema.add({"validation.poiseuille", KeyType::boolean, "false",
              "compare the outlet profile with the exact Poiseuille parabola of a channel (walls at ymin and ymax, "
              "an xmin inflow with an xmax outflow, or periodic in x driven by flow.force_x)"});
}

namespace {

// The peak resident memory a cell of tb-incomp needs, 2D and 3D, solvers
// and output included: two steps at 512^2 and at 64^3 cells
// (bench/results/host-memory-per-cell.json, the larger grid of each).
constexpr double bytes_per_cell_2d = 1.51 * 1024, bytes_per_cell_3d = 2.45 * 1024;

bool two_dimensional(const harness::CaseConfig& config) { return config.integer("grid.nz") == 1; }

const std::string& type_of(const harness::CaseConfig& config, int side) { return config.text(side_key(side, "type")); }

// The unit 2D cavity Ghia et al. computed: walls on the four sides of a unit
// square, the ymax lid moving at u = 1 and the others at rest.
bool is_ghia_cavity(const harness::CaseConfig& config) {
  if (!two_dimensional(config) || config.real("grid.lx") != 1.0 || config.real("grid.ly") != 1.0) return false;
  for (int side = 0; side < 4; ++side) {
    if (type_of(config, side) != "wall") return false;
    const bool lid = side == side_of(1, 1);
    if (config.real(side_key(side, "u")) != (lid ? 1.0 : 0.0) || config.real(side_key(side, "v")) != 0.0) return false;
  }
  return true;
}

std::string ghia_cavity_keys(const harness::CaseConfig& config) {
  std::string keys;
  for (const char* k :
       {"grid.nz", "grid.lx", "grid.ly", "bc.xmin.type", "bc.xmax.type", "bc.ymin.type", "bc.ymax.type", "bc.ymax.u"})
    keys += (keys.empty() ? "" : ", ") + config.key_and_value(k);
  return keys;
}

// Sides: a velocity only where the side takes one (a wall's tangential
// velocity, an inflow: refused elsewhere), an inflow profile only on an
// inflow and nothing on the z sides of a 2D case (else noted as ignored).
void check_sides(const harness::CaseConfig& config, harness::CaseNotes& notes) {
  const bool planar = two_dimensional(config);
  for (int side = 0; side < 6; ++side) {
    const std::string type_key = side_key(side, "type");
    const std::string& type = config.text(type_key);
    if (planar && side >= 4) {
      for (const char* what : {"type", "u", "v", "w", "profile"})
        harness::note_if_ignored(config, side_key(side, what), false,
                                 "read only in 3D, and " + config.key_and_value("grid.nz") + " makes the case 2D",
                                 notes);
      continue;
    }
    for (const char* component : {"u", "v", "w"}) {
      const std::string k = side_key(side, component);
      if (planar && component[0] == 'w') {
        harness::note_if_ignored(
            config, k, false, "read only in 3D, and " + config.key_and_value("grid.nz") + " makes the case 2D", notes);
        continue;
      }
      if ((type == "outflow" || type == "periodic") && config.real(k) != 0.0)
        throw config.refusal(k, "0 with " + config.key_and_value(type_key) +
                                    (type == "outflow" ? ": an outflow's velocity follows from the inflow's"
                                                       : ": a periodic side takes the flow's velocity"));
    }
    harness::note_if_ignored(config, side_key(side, "profile"), type == "inflow",
                             "the profile of an inflow, and " + config.key_and_value(type_key), notes);
  }
  if (planar) harness::note_if_ignored(config, "grid.stretch_z", false, "read only with grid.nz > 1", notes);
}

void check_validation(const harness::CaseConfig& config) {
  if (const long ghia = config.integer("validation.ghia_reynolds"); ghia != 0) {
    if (config.real("flow.reynolds") != double(ghia))
      throw config.refusal("validation.ghia_reynolds", "0, or the Reynolds number of the case (" +
                                                           config.key_and_value("flow.reynolds") +
                                                           "): each table of Ghia et al. is of one Reynolds number");
    if (!is_ghia_cavity(config))
      throw config.refusal("validation.ghia_reynolds",
                           "0 here: Ghia et al. computed the unit 2D cavity with a unit lid speed (grid.nz = 1, "
                           "grid.lx = grid.ly = 1, walls on the four sides, bc.ymax.u = 1, the other walls at "
                           "rest); this case has " +
                               ghia_cavity_keys(config));
  }
  if (!config.boolean("validation.poiseuille")) return;
  const std::string xmin = type_of(config, 0), xmax = type_of(config, 1);
  const bool driven = xmin == "periodic" ? config.real("flow.force_x") != 0.0 : xmin == "inflow" && xmax == "outflow";
  const bool walls = type_of(config, 2) == "wall" && type_of(config, 3) == "wall" &&
                     config.real(side_key(2, "u")) == 0.0 && config.real(side_key(3, "u")) == 0.0 &&
                     config.real(side_key(2, "w")) == 0.0 && config.real(side_key(3, "w")) == 0.0;
  const bool plane = two_dimensional(config) || type_of(config, 4) == "periodic";
  if (!driven || !walls || !plane)
    throw config.refusal("validation.poiseuille",
                         "false here: the Poiseuille parabola is the flow of a plane channel (walls at rest at ymin "
                         "and ymax, an xmin inflow with an xmax outflow or periodic in x with flow.force_x != 0, 2D "
                         "or periodic in z); this case has " +
                             harness::keys_and_values(config,
                                                      {"bc.xmin.type", "bc.xmax.type", "flow.force_x", "bc.ymin.type",
                                                       "bc.ymax.type", "bc.ymin.u", "bc.ymax.u", "grid.nz"},
                                                      ", "));
}

// The grid: cells within 32-bit indices and the machine's memory, and each
// axis the grid asked for (tanh clustering strong enough to collapse the end
// cells to nothing is refused, not found as a singular pivot).
std::array<double, 3> check_grid(const harness::CaseConfig& config) {
  const std::vector<std::string> n_keys = {"grid.nx", "grid.ny", "grid.nz"};
  const double cells =
      double(config.integer("grid.nx")) * double(config.integer("grid.ny")) * double(config.integer("grid.nz"));
  harness::require_grid_fits(config, "grid.nx", harness::keys_and_values(config, n_keys, " x "), cells, 2e9 / 3,
                             two_dimensional(config) ? bytes_per_cell_2d : bytes_per_cell_3d);
  std::array<double, 3> smallest{};
  for (int d = 0; d < 3; ++d) {
    const char* a = axis_names[d];
    const std::string l_key = key("grid", "l", a), beta_key = key("grid", "stretch_", a);
    const double length = config.real(l_key), beta = config.real(beta_key);
    harness::require_magnitude(config, l_key, "the domain length", length);
    const AxisSpec axis{index_t(config.integer(key("grid", "n", a))), length,
                        beta > 0.0 ? Stretching::Tanh : Stretching::Uniform, beta > 0.0 ? beta : 1.0};
    const std::vector<double> x = axis_nodes(axis);
    double h = length;
    for (std::size_t i = 0; i + 1 < x.size(); ++i) h = std::min(h, x[i + 1] - x[i]);
    if (!(h >= 1e-12 * length))
      throw config.refusal(beta_key, "a clustering that keeps every cell (its smallest cell would be " +
                                         harness::format_number(h) + " of a length of " +
                                         harness::format_number(length) +
                                         ", below 1e-12 of it, where the node coordinates no longer tell the "
                                         "cells apart); with " +
                                         config.key_and_value(key("grid", "n", a)));
    smallest[std::size_t(d)] = h;
  }
  return smallest;
}

// The magnitudes the momentum equation reaches at its first step, from the
// keys: each speed and force, nu = 1/Re, 1/dt, and on the smallest cell h
// nu/h^2, U/h and U max(1/dt, nu/h^2, U/h).
void check_magnitudes(const harness::CaseConfig& config, double h) {
  std::string fastest;
  double speed = 0.0;
  for (int side = 0; side < 6; ++side)
    for (const char* component : {"u", "v", "w"}) {
      const std::string k = side_key(side, component);
      harness::require_magnitude(config, k, "the boundary speed", config.real(k));
      if (std::abs(config.real(k)) > speed) speed = std::abs(config.real(k)), fastest = k;
    }
  for (const char* a : axis_names)
    harness::require_magnitude(config, key("flow", "force_", a), "the body force",
                               config.real(key("flow", "force_", a)));
  const double nu = 1.0 / config.real("flow.reynolds"), rate = 1.0 / config.real("time.dt");
  harness::require_magnitude(config, "flow.reynolds", "the viscosity nu = 1 / Re", nu);
  harness::require_magnitude(config, "time.dt", "1 / dt", rate);
  const std::vector<std::string> grid = {"grid.nx", "grid.ny", "grid.nz", "grid.lx", "grid.ly", "grid.lz"};
  harness::require_magnitude(config, "flow.reynolds",
                             "nu / h^2 on the smallest cell (h = " + harness::format_number(h) + ")", nu / (h * h),
                             grid);
  if (fastest.empty()) return;
  harness::require_magnitude(config, fastest, "U / h on the smallest cell (h = " + harness::format_number(h) + ")",
                             speed / h, grid);
  harness::require_magnitude(config, fastest, "the momentum equation's terms U max(1/dt, nu/h^2, U/h)",
                             speed * std::max({rate, nu / (h * h), speed / h}), {"time.dt", "flow.reynolds"});
}

}  // namespace

void resolve_case_defaults(harness::CaseConfig& config) {
  // The lid's default speed is a wall's: an outflow or periodic side takes none.
  for (int side = 0; side < 6; ++side) {
    const std::string& type = type_of(config, side);
    if (type != "outflow" && type != "periodic") continue;
    for (const char* component : {"u", "v", "w"})
      if (const std::string k = side_key(side, component); config.origin(k).empty() && config.real(k) != 0.0)
        config.set(k, "0", "the default of an " + std::string(type == "outflow" ? "outflow" : "periodic") + " side");
  }
  if (!config.origin("validation.ghia_reynolds").empty()) return;
  const double re = config.real("flow.reynolds");
  const bool tabulated = re == 100.0 || re == 400.0 || re == 1000.0;
  const std::string ghia = tabulated && is_ghia_cavity(config) ? std::to_string(long(re)) : "0";
  if (ghia != config.text("validation.ghia_reynolds"))
    config.set("validation.ghia_reynolds", ghia, "the table of the case's Reynolds number (flow.reynolds)");
}

harness::CaseNotes check_case_keys(const harness::CaseConfig& config, bool decomposed) {
  (void)decomposed;
  harness::CaseNotes notes;
  check_sides(config, notes);
  check_validation(config);
  const std::array<double, 3> h = check_grid(config);
  check_magnitudes(config, *std::min_element(h.begin(), h.begin() + (two_dimensional(config) ? 2 : 3)));
  return notes;
}

FvGrid make_grid(const harness::CaseConfig& config) {
  std::array<AxisSpec, 3> axes;
  for (int d = 0; d < 3; ++d) {
    const char* a = axis_names[d];
    axes[d].cells = index_t(config.integer(key("grid", "n", a)));  // in its domain (declare_case_keys)
    axes[d].length = config.real(key("grid", "l", a));
    const double beta = config.real(key("grid", "stretch_", a));
    axes[d].stretching = beta > 0.0 ? Stretching::Tanh : Stretching::Uniform;
    axes[d].parameter = beta > 0.0 ? beta : 1.0;
  }
  std::array<bool, 3> periodic{};
  for (int d = 0; d < 3; ++d)
    periodic[d] =
        config.text(side_key(2 * d, "type")) == "periodic" && config.text(side_key(2 * d + 1, "type")) == "periodic";
  return FvGrid(axes[0], axes[1], axes[2], periodic);
}

std::array<BoundarySpec, 6> make_boundaries(const harness::CaseConfig& config) {
  std::array<BoundarySpec, 6> specs;
  for (int side = 0; side < 6; ++side) {
    try {
      specs[side].kind = parse_boundary_kind(config.text(side_key(side, "type")));
      specs[side].profile = parse_inflow_profile(config.text(side_key(side, "profile")));
    } catch (const Error& e) {
      std::string what = "bc.";
      what += side_name(side);
      what += ": ";
      what += e.what();
      throw Error(what);
    }
    specs[side].velocity = {config.real(side_key(side, "u")), config.real(side_key(side, "v")),
                            config.real(side_key(side, "w"))};
    // Cross-key checks, naming the keys (Boundaries checks the same, without the place).
    const char* normal = side < 2 ? "u" : side < 4 ? "v" : "w";
    if (specs[side].kind == BoundaryKind::wall && specs[side].velocity[std::size_t(side / 2)] != 0.0)
      throw config.refusal(side_key(side, normal), std::string("0 on a wall (") + side_key(side, "type") +
                                                       " = \"wall\": its velocity must be tangential)");
  }
  for (int d = 0; d < 3; ++d) {
    const bool lo = specs[2 * d].kind == BoundaryKind::periodic, hi = specs[2 * d + 1].kind == BoundaryKind::periodic;
    if (lo != hi)
      throw config.refusal(side_key(lo ? 2 * d + 1 : 2 * d, "type"),
                           "\"periodic\" as " + side_key(lo ? 2 * d : 2 * d + 1, "type") +
                               " is: periodic on both sides of a direction or on neither");
  }
  return specs;
}

FlowSettings make_flow_settings(const harness::CaseConfig& config) {
  FlowSettings s{1.0 / config.real("flow.reynolds"), config.real("time.dt"), {}};  // both > 0 (their domains)
  for (int d = 0; d < 3; ++d) s.body_force[d] = config.real(key("flow", "force_", axis_names[d]));
  s.pressure_unknown =
      config.text("solver.pressure_unknown") == "pressure" ? PressureUnknown::pressure : PressureUnknown::correction;
  s.projection_tol = config.real("solver.projection_tol");
  return s;
}

}  // namespace tb::incompressible
