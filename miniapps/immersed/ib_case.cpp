#include "miniapps/immersed/ib_case.hpp"

#include <cmath>

#include "physics/immersed/stl_reader.hpp"
#include "solvers/core/error.hpp"

namespace tb::immersed {

using harness::KeyType;

namespace {

constexpr const char* axis_names[3] = {"x", "y", "z"};
constexpr const char* side_names[6] = {"xmin", "xmax", "ymin", "ymax", "zmin", "zmax"};

std::string key(const char* group, const char* name, const char* axis = "") {
  return std::string(group) + "." + name + axis;
}

Vec3 vec(const harness::CaseConfig& c, const char* group, const char* name) {
  return {c.real(key(group, name, "x")), c.real(key(group, name, "y")), c.real(key(group, name, "z"))};
}

}  // namespace

void declare_case_keys(harness::CaseSchema& schema) {
  schema.add({"solver.advection_diffusion", KeyType::text, default_advection_solver,
              "Eq. 5: Crank-Nicolson advection-diffusion, one scalar system per velocity component"});
  schema.add({"solver.pressure", KeyType::text, default_pressure_solver,
              "Eq. 6: pressure Poisson with the operator of Eq. 7 and Neumann ghost rows (nonsymmetric)"});
  schema.add(
      {"case.kind", KeyType::text, "flow", "flow (fractional step) or poisson_mms (manufactured Poisson problem)"});
  const double lo[3] = {-2.0, -2.0, -2.0}, hi[3] = {4.0, 2.0, 2.0};
  for (int d = 0; d < 3; ++d) {
    const char* a = axis_names[d];
    schema.add({key("grid", "min_", a), KeyType::real, std::to_string(lo[d]), "lower end of the box"});
    schema.add({key("grid", "max_", a), KeyType::real, std::to_string(hi[d]), "upper end of the box"});
    schema.add({key("grid", "n", a), KeyType::integer, "24", "cells (uniform) when grid.core_h = 0"});
    schema.add({key("grid", "core_min_", a), KeyType::real, "-0.7", "lower end of the refined core"});
    schema.add({key("grid", "core_max_", a), KeyType::real, "0.7", "upper end of the refined core"});
  }
  schema.add(
      {"grid.core_h", KeyType::real, "0.1", "cell width in the refined core; 0 = uniform grid of grid.n* cells"});
  schema.add({"grid.ratio", KeyType::real, "1.2", "growth of the cell widths from the core to the box ends"});
  schema.add({"body.shape", KeyType::text, "sphere", "sphere, ellipsoid, pulsating_ellipsoid or stl"});
  for (const char* a : axis_names) {
    schema.add({key("body", "centre_", a), KeyType::real, "0", "centre of the sphere or ellipsoid"});
    schema.add({key("body", "semi_", a), KeyType::real, "0.5", "ellipsoid semi-axis (at t = 0 when pulsating)"});
  }
  schema.add({"body.radius", KeyType::real, "0.5", "sphere radius"});
  schema.add({"body.pulse_eps", KeyType::real, "0.1", "pulsation amplitude eps of a(t) = a0 (1 + eps sin(2 pi f t))"});
  schema.add({"body.pulse_frequency", KeyType::real, "0.5", "pulsation frequency f"});
  schema.add({"body.file", KeyType::text, "", "STL file (ASCII or binary) for body.shape = stl"});
  schema.add({"flow.reynolds", KeyType::real, "100", "Re = |U| L / nu"});
  schema.add({"flow.length", KeyType::real, "1", "reference length L of Re (the sphere's diameter)"});
  for (const char* a : axis_names)
    schema.add({key("flow", "u_", a), KeyType::real, a[0] == 'x' ? "1" : "0", "free stream"});
  for (int side = 0; side < 6; ++side)
    schema.add({std::string("bc.") + side_names[side], KeyType::text,
                side == 0   ? "inflow"
                : side == 1 ? "outflow"
                            : "inflow",
                "inflow (u = free stream, also the far field), wall (u = 0) or outflow (zero gradient, p = 0)"});
  schema.add({"time.dt", KeyType::real, "0.04", "time step"});
  schema.add({"time.steady_tol", KeyType::real, "2e-3", "steady once max |du/dt| falls below this; 0 = never"});
  schema.add({"poisson.body_bc", KeyType::text, "dirichlet", "poisson_mms: dirichlet or neumann rows on the body"});
}

CartesianGrid make_grid(const harness::CaseConfig& config) {
  std::array<std::vector<double>, 3> nodes;
  const double h = config.real("grid.core_h");
  for (int d = 0; d < 3; ++d) {
    const char* a = axis_names[d];
    const double lo = config.real(key("grid", "min_", a)), hi = config.real(key("grid", "max_", a));
    if (!(hi > lo)) throw Error(key("grid", "max_", a) + " must exceed " + key("grid", "min_", a));
    if (h > 0.0) {
      try {
        nodes[d] = clustered_axis_nodes(lo, hi, config.real(key("grid", "core_min_", a)),
                                        config.real(key("grid", "core_max_", a)), h, config.real("grid.ratio"));
      } catch (const Error& e) {
        throw Error(key("grid", "core_min_", a) + " / " + key("grid", "core_max_", a) + ": " + e.what());
      }
    } else {
      const long n = config.integer(key("grid", "n", a));
      if (n < 2 || n > 4096) throw Error(key("grid", "n", a) + " = " + std::to_string(n) + " is out of range 2..4096");
      nodes[d] = shifted_axis_nodes(lo, AxisSpec{index_t(n), hi - lo, Stretching::Uniform, 1.0});
    }
  }
  return CartesianGrid(nodes);
}

std::unique_ptr<Body> make_body(const harness::CaseConfig& config) {
  const std::string& shape = config.text("body.shape");
  const Vec3 centre = vec(config, "body", "centre_"), semi = vec(config, "body", "semi_");
  if (shape == "sphere") return std::make_unique<Sphere>(centre, config.real("body.radius"));
  if (shape == "ellipsoid") return std::make_unique<Ellipsoid>(centre, semi);
  if (shape == "pulsating_ellipsoid")
    return std::make_unique<PulsatingEllipsoid>(centre, semi, config.real("body.pulse_eps"),
                                                config.real("body.pulse_frequency"));
  if (shape == "stl") {
    if (config.text("body.file").empty()) throw Error("body.file: body.shape = stl needs an STL file");
    return std::make_unique<TriangulatedBody>(read_stl(config.text("body.file")));
  }
  throw Error("body.shape: '" + shape + "' is not one of sphere, ellipsoid, pulsating_ellipsoid, stl");
}

FlowSettings make_flow_settings(const harness::CaseConfig& config) {
  FlowSettings s;
  s.free_stream = vec(config, "flow", "u_");
  const double re = config.real("flow.reynolds"), speed = std::sqrt(dot(s.free_stream, s.free_stream));
  if (!(re > 0.0)) throw Error("flow.reynolds must be positive");
  if (!(speed > 0.0)) throw Error("flow.u_x, u_y, u_z: the free stream must not vanish (Re is based on it)");
  s.nu = speed * config.real("flow.length") / re;
  s.dt = config.real("time.dt");
  if (!(s.dt > 0.0)) throw Error("time.dt must be positive");
  for (int side = 0; side < 6; ++side) {
    const std::string k = std::string("bc.") + side_names[side];
    const std::string& v = config.text(k);
    if (v == "inflow")
      s.sides[side] = SideKind::inflow;
    else if (v == "wall")
      s.sides[side] = SideKind::wall;
    else if (v == "outflow")
      s.sides[side] = SideKind::outflow;
    else
      throw Error(k + ": '" + v + "' is not one of inflow, wall, outflow");
  }
  bool outflow = false;
  for (SideKind k : s.sides) outflow = outflow || k == SideKind::outflow;
  if (!outflow)
    throw Error("bc: at least one side must be an outflow (it fixes the pressure level and takes the flux)");
  return s;
}

BodyCondition poisson_body_condition(const harness::CaseConfig& config) {
  const std::string& v = config.text("poisson.body_bc");
  if (v == "dirichlet") return BodyCondition::dirichlet;
  if (v == "neumann") return BodyCondition::neumann;
  throw Error("poisson.body_bc: '" + v + "' is not one of dirichlet, neumann");
}

}  // namespace tb::immersed
