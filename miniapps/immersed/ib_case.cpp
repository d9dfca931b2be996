#include "miniapps/immersed/ib_case.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <tuple>

#include "miniapps/common/case_checks.hpp"
#include "miniapps/common/step_table.hpp"
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
              "Eq. 5: Crank-Nicolson advection-diffusion, one scalar system per velocity component",
              harness::solver_specification()});
  schema.add({"solver.pressure", KeyType::text, default_pressure_solver,
              "Eq. 6: pressure Poisson with the operator of Eq. 7 and Neumann ghost rows (nonsymmetric)",
              harness::solver_specification()});
  schema.add({"case.kind", KeyType::text, "flow",
              "flow (fractional step) or poisson_mms (manufactured Poisson problem)",
              harness::one_of({"flow", "poisson_mms"})});
  const double lo[3] = {-2.0, -2.0, -2.0}, hi[3] = {4.0, 2.0, 2.0};
  for (int d = 0; d < 3; ++d) {
    const char* a = axis_names[d];
    schema.add({key("grid", "min_", a), KeyType::real, std::to_string(lo[d]), "lower end of the box"});
    schema.add({key("grid", "max_", a), KeyType::real, std::to_string(hi[d]), "upper end of the box"});
    schema.add({key("grid", "n", a), KeyType::integer, "24", "cells (uniform) when grid.core_h = 0",
                harness::in_range(2, 4096)});
    schema.add({key("grid", "core_min_", a), KeyType::real, "-0.7", "lower end of the refined core"});
    schema.add({key("grid", "core_max_", a), KeyType::real, "0.7", "upper end of the refined core"});
  }
  schema.add({"grid.core_h", KeyType::real, "0.1", "cell width in the refined core; 0 = uniform grid of grid.n* cells",
              harness::at_least(0)});
  // Past 2 the cells outside the core grow so fast that a box is crossed in a
  // cell or two: the grid would no longer be the stretched grid asked for.
  schema.add({"grid.ratio", KeyType::real, "1.2",
              "growth of the cell widths from the core to the box ends (1 to 2; 1.1-1.3 resolve the wake)",
              harness::in_range(1, 2)});
  schema.add({"body.shape", KeyType::text, "sphere", "sphere, ellipsoid, pulsating_ellipsoid or stl",
              harness::one_of({"sphere", "ellipsoid", "pulsating_ellipsoid", "stl"})});
  for (const char* a : axis_names) {
    schema.add({key("body", "centre_", a), KeyType::real, "0", "centre of the sphere or ellipsoid"});
    schema.add({key("body", "semi_", a), KeyType::real, "0.5", "ellipsoid semi-axis (at t = 0 when pulsating)",
                harness::greater_than(0)});
  }
  schema.add({"body.radius", KeyType::real, "0.5", "sphere radius", harness::greater_than(0)});
  // |eps| < 1 keeps the semi-axes positive at every time.
  const harness::KeyDomain amplitude{.min = -1, .max = 1, .min_open = true, .max_open = true};
  schema.add({"body.pulse_eps", KeyType::real, "0.1", "pulsation amplitude eps of a(t) = a0 (1 + eps sin(2 pi f t))",
              amplitude});
  schema.add({"body.pulse_frequency", KeyType::real, "0.5", "pulsation frequency f", harness::at_least(0)});
  schema.add({"body.file", KeyType::text, "", "STL file (ASCII or binary) for body.shape = stl",
              harness::existing_file(true)});
  schema.add({"flow.reynolds", KeyType::real, "100", "Re = |U| L / nu", harness::greater_than(0)});
  schema.add({"flow.length", KeyType::real, "1", "reference length L of Re (the sphere's diameter)",
              harness::greater_than(0)});
  for (const char* a : axis_names)
    schema.add({key("flow", "u_", a), KeyType::real, a[0] == 'x' ? "1" : "0", "free stream"});
  for (int side = 0; side < 6; ++side)
    // The sides along the stream are outflows too: with the free stream held on
    // them the box is a wind tunnel, whose blockage raised the default sphere's
    // Cd by 6 % (docs/immersed.md).
    schema.add({std::string("bc.") + side_names[side], KeyType::text, side == 0 ? "inflow" : "outflow",
                "inflow (u = free stream), wall (u = 0) or outflow (zero normal gradient, p = 0: also the open sides "
                "of a far field)",
                harness::one_of({"inflow", "wall", "outflow"})});
  schema.add({"time.dt", KeyType::real, "0.04", "time step", harness::greater_than(0)});
  schema.add({"time.steady_tol", KeyType::real, "2e-3", "steady once max |du/dt| falls below this; 0 = never",
              harness::at_least(0)});
  schema.add({"poisson.body_bc", KeyType::text, "dirichlet", "poisson_mms: dirichlet or neumann rows on the body",
              harness::one_of({"dirichlet", "neumann"})});
}

namespace {

// grid.max_* > grid.min_*: checked by the grid and by the body (whichever the
// physics builds first) so that an inverted box is always named as such.
void require_box(const harness::CaseConfig& config) {
  for (const char* a : axis_names) {
    const std::string min_key = key("grid", "min_", a), max_key = key("grid", "max_", a);
    if (!(config.real(max_key) > config.real(min_key)))
      throw config.refusal(max_key, "> " + config.key_and_value(min_key));
  }
}

}  // namespace

CartesianGrid make_grid(const harness::CaseConfig& config) {
  require_box(config);
  std::array<std::vector<double>, 3> nodes;
  const double h = config.real("grid.core_h");
  for (int d = 0; d < 3; ++d) {
    const char* a = axis_names[d];
    const std::string min_key = key("grid", "min_", a), max_key = key("grid", "max_", a);
    const double lo = config.real(min_key), hi = config.real(max_key);
    if (h > 0.0) {
      const std::string core_lo = key("grid", "core_min_", a), core_hi = key("grid", "core_max_", a);
      if (!(config.real(core_lo) >= lo && config.real(core_lo) < config.real(core_hi)))
        throw config.refusal(core_lo, ">= " + config.key_and_value(min_key) + " and < " +
                                          config.key_and_value(core_hi) + " (the refined core lies inside the box)");
      if (!(config.real(core_hi) <= hi))
        throw config.refusal(core_hi,
                             "<= " + config.key_and_value(max_key) + " (the refined core lies inside the box)");
      nodes[d] = clustered_axis_nodes(lo, hi, config.real(core_lo), config.real(core_hi), h, config.real("grid.ratio"));
    } else {
      const long n = config.integer(key("grid", "n", a));  // 2 to 4096 (its domain)
      nodes[d] = shifted_axis_nodes(lo, AxisSpec{index_t(n), hi - lo, Stretching::Uniform, 1.0});
    }
  }
  return CartesianGrid(nodes);
}

namespace {

// The box a body can reach, at any time for a pulsating one.
struct Extent {
  Vec3 lo, hi;
};

Extent extent_of(const harness::CaseConfig& config, const std::string& shape, const Body& body) {
  const Vec3 c = vec(config, "body", "centre_");
  if (shape == "stl") {
    Extent e{{1e300, 1e300, 1e300}, {-1e300, -1e300, -1e300}};
    for (const Triangle& t : body.triangulation())
      for (const Vec3& v : t.v)
        for (int d = 0; d < 3; ++d) e.lo[d] = std::min(e.lo[d], v[d]), e.hi[d] = std::max(e.hi[d], v[d]);
    return e;
  }
  Vec3 reach = vec(config, "body", "semi_");
  if (shape == "sphere") reach = {config.real("body.radius"), config.real("body.radius"), config.real("body.radius")};
  if (shape == "pulsating_ellipsoid")
    for (double& r : reach) r *= 1.0 + std::abs(config.real("body.pulse_eps"));
  return {{c[0] - reach[0], c[1] - reach[1], c[2] - reach[2]}, {c[0] + reach[0], c[1] + reach[1], c[2] + reach[2]}};
}

// The ghost-cell method needs fluid on every side of the body: a body that
// leaves the box, or touches its boundary, is refused (the issue's "body
// outside the box" ran as free stream and reported a drag).
void require_inside_box(const harness::CaseConfig& config, const std::string& shape, const Body& body) {
  require_box(config);
  const Extent e = extent_of(config, shape, body);
  for (int d = 0; d < 3; ++d) {
    const char* a = axis_names[d];
    const std::string min_key = key("grid", "min_", a), max_key = key("grid", "max_", a);
    if (e.lo[d] > config.real(min_key) && e.hi[d] < config.real(max_key)) continue;
    char span[96];
    std::snprintf(span, sizeof span, "; the body spans %s from %g to %g", a, e.lo[d], e.hi[d]);
    const std::string blamed = shape == "stl" ? "body.file" : key("body", "centre_", a);
    throw config.refusal(blamed, std::string("a body strictly inside the box, ") + config.key_and_value(min_key) +
                                     " < " + a + " < " + config.key_and_value(max_key) + span);
  }
}

}  // namespace

std::unique_ptr<Body> make_body(const harness::CaseConfig& config) {
  const std::string& shape = config.text("body.shape");
  const Vec3 centre = vec(config, "body", "centre_"), semi = vec(config, "body", "semi_");
  std::unique_ptr<Body> body;
  if (shape == "sphere") body = std::make_unique<Sphere>(centre, config.real("body.radius"));
  if (shape == "ellipsoid") body = std::make_unique<Ellipsoid>(centre, semi);
  if (shape == "pulsating_ellipsoid")
    body = std::make_unique<PulsatingEllipsoid>(centre, semi, config.real("body.pulse_eps"),
                                                config.real("body.pulse_frequency"));
  if (shape == "stl") {
    if (config.text("body.file").empty())
      throw config.refusal("body.file", "an STL file when " + config.key_and_value("body.shape"));
    body = std::make_unique<TriangulatedBody>(read_stl(config.text("body.file")));
  }
  if (!body) throw config.refusal("body.shape", "one of sphere, ellipsoid, pulsating_ellipsoid, stl");
  require_inside_box(config, shape, *body);
  return body;
}

FlowSettings make_flow_settings(const harness::CaseConfig& config) {
  FlowSettings s;
  s.free_stream = vec(config, "flow", "u_");
  const double speed = std::sqrt(dot(s.free_stream, s.free_stream));
  if (!(speed > 0.0))
    throw config.refusal("flow.u_x", "a free stream that does not vanish (Re is based on it): " +
                                         config.key_and_value("flow.u_y") + ", " + config.key_and_value("flow.u_z"));
  s.nu = speed * config.real("flow.length") / config.real("flow.reynolds");  // both > 0 (their domains)
  s.dt = config.real("time.dt");
  for (int side = 0; side < 6; ++side) {
    const std::string& v = config.text(std::string("bc.") + side_names[side]);  // one of three (its domain)
    s.sides[side] = v == "inflow" ? SideKind::inflow : v == "wall" ? SideKind::wall : SideKind::outflow;
  }
  bool outflow = false;
  for (SideKind k : s.sides) outflow = outflow || k == SideKind::outflow;
  if (!outflow)
    throw config.refusal("bc.xmax",
                         "\"outflow\" on at least one side (it fixes the pressure level and takes the flux)");
  return s;
}

namespace {

// The peak resident memory a cell of tb-ib needs, solvers and output
// included: two steps on a uniform grid of 64^3 cells
// (bench/results/host-memory-per-cell.json).
constexpr double bytes_per_cell = 1.41 * 1024;

// An axis of the grid as make_grid will build it, counted without building
// it: its cells and its smallest width.
struct AxisCount {
  double cells = 0.0;
  double smallest = 0.0;
};

// Cells of growing_widths (cartesian_grid.cpp) over `span` from a cell of
// `h` at growth `ratio`: counted as it does, in closed form past a million.
double growing_cells(double span, double h, double ratio) {
  if (!(span > 0.0)) return 0.0;
  double sum = 0.0, next = h * ratio, n = 0.0;
  while (sum + 0.5 * next < span) {
    if (n >= 1e6)  // sum of h r^k, k = 1..n: solve for n
      return ratio == 1.0 ? span / h : std::log1p(span * (ratio - 1.0) / (h * ratio)) / std::log(ratio);
    sum += next, next *= ratio, n += 1.0;
  }
  return std::max(n, 1.0);
}

// One axis: the refined core of grid.core_h between the box and the core's
// ends, or grid.n* uniform cells. Refuses a core_h wider than the core (it
// would be one cell of the core's width, not of core_h) and a sliver between
// box and core narrower than half a core cell (the grid would hold a cell far
// thinner than any asked for).
AxisCount count_axis(const harness::CaseConfig& config, int d) {
  const char* a = axis_names[d];
  const double lo = config.real(key("grid", "min_", a)), hi = config.real(key("grid", "max_", a));
  const double h = config.real("grid.core_h");
  if (!(h > 0.0)) {
    const double n = double(config.integer(key("grid", "n", a)));
    return {n, (hi - lo) / n};
  }
  const std::string core_lo_key = key("grid", "core_min_", a), core_hi_key = key("grid", "core_max_", a);
  const double core_lo = config.real(core_lo_key), core_hi = config.real(core_hi_key);
  if (!(core_lo >= lo && core_lo < core_hi && core_hi <= hi)) return {};  // make_grid names the keys
  const double width = core_hi - core_lo;
  if (h > width)
    throw config.refusal("grid.core_h", "at most the width of the refined core in " + std::string(a) + " (" +
                                            harness::format_number(width) + ": " + config.key_and_value(core_lo_key) +
                                            ", " + config.key_and_value(core_hi_key) +
                                            "), or the core would be one cell of its width, not of grid.core_h");
  const double core_cells = std::max(1.0, std::floor(width / h + 0.5)), hc = width / core_cells;
  const double ratio = config.real("grid.ratio");
  for (const auto& [span, end_key, core_key] : {std::tuple{core_lo - lo, key("grid", "min_", a), core_lo_key},
                                                std::tuple{hi - core_hi, key("grid", "max_", a), core_hi_key}})
    if (span > 0.0 && span < 0.5 * hc)
      throw config.refusal(core_key, "the box's end (" + config.key_and_value(end_key) +
                                         "), or at least half a core cell (" + harness::format_number(0.5 * hc) +
                                         ") from it: the cell between them would be " + harness::format_number(span) +
                                         " wide");
  return {core_cells + growing_cells(core_lo - lo, hc, ratio) + growing_cells(hi - core_hi, hc, ratio), hc};
}

// The keys a body shape reads; each other body key is noted when given.
void check_body_keys(const harness::CaseConfig& config, harness::CaseNotes& notes) {
  const std::string& shape = config.text("body.shape");
  const std::string with = "with " + config.key_and_value("body.shape");
  const bool ellipsoid = shape == "ellipsoid" || shape == "pulsating_ellipsoid";
  harness::note_if_ignored(config, "body.radius", shape == "sphere", "the sphere's radius; " + with, notes);
  harness::note_if_ignored(config, "body.file", shape == "stl", "the STL body's file; " + with, notes);
  harness::note_if_ignored(config, "body.pulse_eps", shape == "pulsating_ellipsoid", "the pulsation's; " + with, notes);
  harness::note_if_ignored(config, "body.pulse_frequency", shape == "pulsating_ellipsoid", "the pulsation's; " + with,
                           notes);
  for (const char* a : axis_names) {
    harness::note_if_ignored(config, key("body", "semi_", a), ellipsoid, "an ellipsoid's; " + with, notes);
    harness::note_if_ignored(config, key("body", "centre_", a), shape != "stl",
                             "the centre of a sphere or ellipsoid (an STL body lies where its file puts it); " + with,
                             notes);
  }
}

// The grid's keys a grid.core_h reads or leaves, and the Poisson case's and
// the flow's keys each kept to its case.kind.
void check_mode_keys(const harness::CaseConfig& config, harness::CaseNotes& notes) {
  const bool core = config.real("grid.core_h") > 0.0;
  const std::string with_h = "with " + config.key_and_value("grid.core_h");
  for (const char* a : axis_names) {
    harness::note_if_ignored(config, key("grid", "n", a), !core,
                             "the cells of a uniform grid (grid.core_h = 0); " + with_h, notes);
    harness::note_if_ignored(config, key("grid", "core_min_", a), core, "the refined core's; " + with_h, notes);
    harness::note_if_ignored(config, key("grid", "core_max_", a), core, "the refined core's; " + with_h, notes);
  }
  harness::note_if_ignored(config, "grid.ratio", core, "the growth outside the refined core; " + with_h, notes);
  const bool flow = config.text("case.kind") == "flow";
  const std::string with_kind = "with " + config.key_and_value("case.kind");
  harness::note_if_ignored(config, "poisson.body_bc", !flow, "the manufactured Poisson problem's; " + with_kind, notes);
  std::vector<std::string> flow_keys = {"flow.reynolds", "flow.length", "time.dt", "time.steady_tol"};
  for (const char* a : axis_names) flow_keys.push_back(key("flow", "u_", a));
  for (const char* side : side_names) flow_keys.push_back(std::string("bc.") + side);
  for (const auto& k : flow_keys) harness::note_if_ignored(config, k, flow, "the flow's; " + with_kind, notes);
}

// The smallest extent of the body over its smallest cell width must be at
// least 1: a body thinner than a cell falls between the cell centres, and the
// ghost-cell method would see no body at all.
void check_body_resolved(const harness::CaseConfig& config, const std::array<AxisCount, 3>& axes) {
  const std::string& shape = config.text("body.shape");
  if (shape == "stl") return;  // its extent is the file's (make_body checks it lies inside the box)
  for (int d = 0; d < 3; ++d) {
    const char* a = axis_names[d];
    const std::string k = shape == "sphere" ? std::string("body.radius") : key("body", "semi_", a);
    double reach = config.real(k);
    if (shape == "pulsating_ellipsoid") reach *= 1.0 - std::abs(config.real("body.pulse_eps"));
    const double h = axes[std::size_t(d)].smallest;
    if (h > 0.0 && reach < h)
      throw config.refusal(k, "a body at least two cells across: its half-width in " + std::string(a) + ", " +
                                  harness::format_number(reach) + ", is below the cell width there, " +
                                  harness::format_number(h) +
                                  ", and a body between the cell centres is no body to the ghost-cell method");
  }
}

// The flow's magnitudes at its first step (each velocity, nu = |U| L / Re,
// 1/dt; nu/h^2, U/h on the smallest cell) and the time step's CFL number:
// advection is explicit (Adams-Bashforth 2, seed 004 Eq. 5), so a time step
// whose free stream, or a pulsating body's surface, crosses more than a cell
// of the smallest width blows up within a few steps, every solve converged.
void check_flow(const harness::CaseConfig& config, double h) {
  double speed2 = 0.0;
  for (const char* a : axis_names) {
    const std::string k = key("flow", "u_", a);
    harness::require_magnitude(config, k, "the free stream's component", config.real(k));
    speed2 += config.real(k) * config.real(k);
  }
  const double speed = std::sqrt(speed2);
  const double nu = speed * config.real("flow.length") / config.real("flow.reynolds");
  const double dt = config.real("time.dt");
  harness::require_magnitude(config, "flow.reynolds", "the viscosity nu = |U| L / Re", nu, {"flow.length", "flow.u_x"});
  harness::require_magnitude(config, "time.dt", "1 / dt", 1.0 / dt);
  harness::require_magnitude(config, "flow.reynolds",
                             "nu / h^2 on the smallest cell (h = " + harness::format_number(h) + ")", nu / (h * h),
                             {"grid.core_h"});
  harness::require_magnitude(config, "flow.u_x", "|U| / h on the smallest cell (h = " + harness::format_number(h) + ")",
                             speed / h, {"grid.core_h"});
  double surface = 0.0;  // the fastest a pulsating body's surface moves
  if (config.text("body.shape") == "pulsating_ellipsoid")
    for (const char* a : axis_names)
      surface = std::max(surface, config.real(key("body", "semi_", a)) * std::abs(config.real("body.pulse_eps")) * 2.0 *
                                      3.141592653589793 * config.real("body.pulse_frequency"));
  const double cfl = dt * (speed + surface) / h;
  if (cfl > 1.0)
    throw config.refusal("time.dt", "at most " + harness::format_number(h / (speed + surface)) +
                                        " here: advection is explicit (Adams-Bashforth 2, Eq. 5), and a time step "
                                        "must not carry the flow across more than one cell; the free stream" +
                                        (surface > 0.0 ? " and the pulsating surface" : std::string()) + " (" +
                                        harness::format_number(speed + surface) + ") would cross the smallest cell (" +
                                        harness::format_number(h) + ") " + harness::format_number(cfl) +
                                        " times in one step");
}

}  // namespace

harness::CaseNotes check_case_keys(const harness::CaseConfig& config, bool decomposed) {
  (void)decomposed;
  harness::CaseNotes notes;
  check_body_keys(config, notes);
  check_mode_keys(config, notes);
  for (const char* a : axis_names)
    for (const char* end : {"min_", "max_"})
      harness::require_magnitude(config, key("grid", end, a), "the box's end", config.real(key("grid", end, a)));
  harness::require_magnitude(config, "grid.core_h", "the core's cell width", config.real("grid.core_h"));
  require_box(config);
  std::array<AxisCount, 3> axes;
  double h = 0.0;
  for (int d = 0; d < 3; ++d) {
    axes[std::size_t(d)] = count_axis(config, d);
    if (axes[std::size_t(d)].smallest > 0.0)
      h = h > 0.0 ? std::min(h, axes[std::size_t(d)].smallest) : axes[std::size_t(d)].smallest;
  }
  const double cells = axes[0].cells * axes[1].cells * axes[2].cells;
  const bool core = config.real("grid.core_h") > 0.0;
  char counts[96];
  std::snprintf(counts, sizeof counts, " (%.3g x %.3g x %.3g cells)", axes[0].cells, axes[1].cells, axes[2].cells);
  const std::string grid =
      core ? harness::keys_and_values(config, {"grid.core_h", "grid.ratio"}, ", ") + " in the box" + counts
           : harness::keys_and_values(config, {"grid.nx", "grid.ny", "grid.nz"}, " x ");
  harness::require_grid_fits(config, core ? "grid.core_h" : "grid.nx", grid, cells, 2e9, bytes_per_cell);
  check_body_resolved(config, axes);
  if (config.text("case.kind") == "flow" && h > 0.0) check_flow(config, h);
  return notes;
}

BodyCondition poisson_body_condition(const harness::CaseConfig& config) {
  const std::string& v = config.text("poisson.body_bc");
  if (v == "dirichlet") return BodyCondition::dirichlet;
  if (v == "neumann") return BodyCondition::neumann;
  throw Error("poisson.body_bc: '" + v + "' is not one of dirichlet, neumann");
}

}  // namespace tb::immersed
