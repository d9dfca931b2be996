#include "physics/incompressible/boundaries.hpp"

#include <istream>
#include <ostream>

#include "physics/incompressible/kernels.hpp"
#include "solvers/core/error.hpp"

namespace tb::incompressible {

namespace {

// The two directions tangential to d, lower first.
std::array<int, 2> tangential(int d) {
  return d == 0 ? std::array{1, 2} : d == 1 ? std::array{0, 2} : std::array{0, 1};
}

// Visits every face of a side with its cell.
template <class F>
void for_each_face(const FvGrid& g, int side, F&& f) {
  const int d = side / 2;
  const auto [t1, t2] = tangential(d);
  std::array<index_t, 3> c{};
  c[d] = side % 2 == 0 ? 0 : g.cells(d) - 1;
  for (c[t2] = 0; c[t2] < g.cells(t2); ++c[t2])
    for (c[t1] = 0; c[t1] < g.cells(t1); ++c[t1]) f(c);
}

bool side_exists(const FvGrid& g, int side) { return side / 2 < g.dim() && !g.axis(side / 2).periodic; }

// Visits the faces of a side that lie on this rank's planes.
template <class F>
void for_each_owned_face(const FvGrid& g, int side, F&& f) {
  for_each_face(g, side, [&](const std::array<index_t, 3>& c) {
    if (g.owns(c)) f(c);
  });
}

// Poiseuille shape 6 s (1 - s) averaged over face i, so that the discrete
// inflow rate is exactly the mean velocity times the area on any grid;
// `length` is the whole domain's (a piece's axis is part of it).
double parabola(const AxisGeometry& a, index_t i, double length) {
  const double s0 = a.nodes[i] / length, s1 = a.nodes[i + 1] / length;
  const double integral = 3.0 * (s1 * s1 - s0 * s0) - 2.0 * (s1 * s1 * s1 - s0 * s0 * s0);
  return integral / (s1 - s0);
}

}  // namespace

const char* side_name(int side) {
  static const char* names[6] = {"xmin", "xmax", "ymin", "ymax", "zmin", "zmax"};
  return names[side];
}

BoundaryKind parse_boundary_kind(const std::string& text) {
  if (text == "wall") return BoundaryKind::wall;
  if (text == "inflow") return BoundaryKind::inflow;
  if (text == "outflow") return BoundaryKind::outflow;
  if (text == "periodic") return BoundaryKind::periodic;
  throw Error("boundary type '" + text + "' is not one of wall, inflow, outflow, periodic");
}

InflowProfile parse_inflow_profile(const std::string& text) {
  if (text == "uniform") return InflowProfile::uniform;
  if (text == "parabolic") return InflowProfile::parabolic;
  throw Error("inflow profile '" + text + "' is not one of uniform, parabolic");
}

Boundaries::Boundaries(const FvGrid& grid, const std::array<BoundarySpec, 6>& specs, const DomainShare* share)
    : grid_(grid), share_(share), specs_(specs) {
  bool has_inflow = false, has_outflow = false;
  for (int d = 0; d < grid.dim(); ++d) {
    const bool lo = specs_[2 * d].kind == BoundaryKind::periodic, hi = specs_[2 * d + 1].kind == BoundaryKind::periodic;
    if (lo != hi || lo != grid.axis(d).periodic) {
      std::string what = side_name(2 * d);
      what += " and ";
      what += side_name(2 * d + 1);
      what += ": periodic on both sides of a periodic grid direction, or on neither";
      throw Error(what);
    }
  }
  for (int side = 0; side < 6; ++side)
    if (grid.is_interface(side)) specs_[side] = BoundarySpec{};  // at rest; only ghost rows see it
  for (int side = 0; side < 6; ++side) {
    if (!side_exists(grid, side)) continue;
    const int d = side / 2;
    const auto [t1, t2] = tangential(d);
    values_[side].assign(3 * std::size_t(grid.cells(t1) * grid.cells(t2)), 0.0);
    const BoundarySpec& b = specs_[side];
    // The case's sides, not the piece's: the same answer on every rank.
    has_inflow = has_inflow || specs[side].kind == BoundaryKind::inflow;
    has_outflow = has_outflow || specs[side].kind == BoundaryKind::outflow;
    if (b.kind == BoundaryKind::wall && b.velocity[d] != 0.0)
      throw Error(std::string("wall ") + side_name(side) + ": a wall velocity must be tangential to the wall");
    if (b.kind == BoundaryKind::outflow) continue;  // set by advance_outflow
    for_each_face(grid, side, [&, t1 = t1, t2 = t2](const std::array<index_t, 3>& c) {
      double shape = 1.0;
      if (b.kind == BoundaryKind::inflow && b.profile == InflowProfile::parabolic)
        for (int t : {t1, t2})
          if (t < grid.dim() && !grid.axis(t).periodic) shape *= parabola(grid.axis(t), c[t], grid.extent(t));
      double* v = values_[side].data() + 3 * face_index(side, c);
      for (int e = 0; e < 3; ++e) v[e] = shape * b.velocity[e];
    });
  }
  if (has_outflow && !has_inflow) throw Error("an outflow boundary needs an inflow boundary to set its speed");
  has_outflow_ = has_outflow;
}

index_t Boundaries::face_index(int side, const std::array<index_t, 3>& c) const {
  const auto [t1, t2] = tangential(side / 2);
  return c[t1] + grid_.cells(t1) * c[t2];
}

double Boundaries::side_flux(int side) const {
  const int d = side / 2, s = side % 2 == 0 ? -1 : 1;
  double q = 0.0;
  for_each_owned_face(grid_, side,
                      [&](const std::array<index_t, 3>& c) { q += s * grid_.area(d, c) * value(side, c)[d]; });
  return q;
}

double Boundaries::side_area(int side) const {
  double a = 0.0;
  for_each_owned_face(grid_, side, [&](const std::array<index_t, 3>& c) { a += grid_.area(side / 2, c); });
  return a;
}

double Boundaries::own_inflow() const {
  double q = 0.0;
  for (int side = 0; side < 2 * grid_.dim(); ++side)
    if (specs_[side].kind == BoundaryKind::inflow) q -= side_flux(side);
  return q;
}

double Boundaries::inflow_rate() const { return share_ ? share_->sum(own_inflow()) : own_inflow(); }

std::array<double, 2> Boundaries::outflow_area_and_inflow() const {
  // The outflow area and the inflow rate, over the ranks in one reduction.
  std::array<double, 2> sums = {0.0, own_inflow()};
  for (int side = 0; side < 2 * grid_.dim(); ++side)
    if (specs_[side].kind == BoundaryKind::outflow) sums[0] += side_area(side);
  if (share_) share_->sum(sums);
  return sums;
}

void Boundaries::advance_outflow(std::span<const double> u, double dt) {
  std::array<double*, 6> values{};
  for (int side = 0; side < 6; ++side) values[std::size_t(side)] = values_[side].data();
  advance_outflow(Backend::host, grid_.view(), u.data(), dt, values);
}

void Boundaries::advance_outflow(Backend b, const GridView& g, const double* u, double dt,
                                 const std::array<double*, 6>& values) const {
  if (!has_outflow_) return;  // the case's, so every rank returns here or none
  const auto [outflow_area, q_in] = outflow_area_and_inflow();
  double q_out = 0.0;
  for (int side = 0; side < 2 * grid_.dim(); ++side) {
    if (specs_[side].kind != BoundaryKind::outflow) continue;
    kernels::advance_outflow(b, g, side, dt, q_in / outflow_area, u, values[std::size_t(side)]);
    q_out += kernels::side_flux(b, g, side, values[std::size_t(side)]);
  }
  if (share_) q_out = share_->sum(q_out);
  const double shift = (q_in - q_out) / outflow_area;
  for (int side = 0; side < 2 * grid_.dim(); ++side)
    if (specs_[side].kind == BoundaryKind::outflow) kernels::shift_side(b, g, side, shift, values[std::size_t(side)]);
}

BoundaryView Boundaries::view() const {
  BoundaryView v;
  for (int side = 0; side < 6; ++side) v.values[side] = values_[side].data();
  for (int d = 0; d < 3; ++d) v.cells[d] = grid_.cells(d);
  return v;
}

void Boundaries::save(std::ostream& out) const {
  for (const auto& v : values_)
    out.write(reinterpret_cast<const char*>(v.data()), std::streamsize(v.size() * sizeof(double)));
}

void Boundaries::load(std::istream& in) {
  for (auto& v : values_) in.read(reinterpret_cast<char*>(v.data()), std::streamsize(v.size() * sizeof(double)));
  if (!in) throw Error("checkpoint: boundary values truncated");
}

}  // namespace tb::incompressible
