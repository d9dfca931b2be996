#include "miniapps/incompressible/incomp_case.hpp"

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
  schema.add({"solver.projection_tol", KeyType::real, "1e-8",
              "largest divergence a projection may leave (the pinned cell's included), over the larger of the "
              "divergence it removes and max sum_d |u_d| / h_d; beyond it a correction solve removes the rest; 0: the "
              "pressure solver's stopping rule alone",
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
              "compare the centrelines with Ghia et al. (1982) at Re 100, 400 or 1000; 0 = no comparison",
              harness::one_of({"0", "100", "400", "1000"})});
  schema.add({"validation.poiseuille", KeyType::boolean, "false",
              "compare the outlet profile with the exact Poiseuille parabola of the xmin inflow"});
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
