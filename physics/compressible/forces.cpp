#include "physics/compressible/forces.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace tb::compressible {

namespace {

double dynamic_pressure(const EulerSettings& s) {
  const State& f = s.free_stream;
  return 0.5 * (f[1] * f[1] + f[2] * f[2]) / f[0];
}

// Wall faces of the rank's own cells: a ghost cell's face is its owner's to count.
bool counted(const Mesh2D& mesh, index_t face, const DomainShare* share) {
  return !share || mesh.faces[std::size_t(face)].left < share->owned();
}

}  // namespace

std::vector<WallPoint> wall_distribution(const EulerDiscretisation& disc, const std::vector<State>& w, int order,
                                         const DomainShare* share) {
  const EulerSettings& s = disc.settings();
  const double p_inf = s.gas.pressure(s.free_stream), q_inf = dynamic_pressure(s);
  const double speed = std::hypot(s.free_stream[1], s.free_stream[2]);
  const double ex = speed > 0.0 ? s.free_stream[1] / speed : 1.0, ey = speed > 0.0 ? s.free_stream[2] / speed : 0.0;
  std::vector<WallPoint> points;
  const Mesh2D& mesh = disc.mesh();
  for (index_t f = mesh.num_interior_faces; f < mesh.num_faces(); ++f) {
    const BoundaryKind kind = disc.boundary_kind(f);
    if (!is_wall(kind) || !counted(mesh, f, share)) continue;
    const Vec2 mid = disc.geometry().face_midpoint[std::size_t(f)];
    const double p = disc.wall_pressure(w, order, f);
    double cf = 0.0;
    if (is_no_slip(kind) && s.viscous.enabled()) {
      // The viscous flux out of the fluid is tau n; the body feels -tau n.
      const State fv = disc.wall_viscous_flux(w, f);
      cf = -(fv[1] * ex + fv[2] * ey) / q_inf;
    }
    points.push_back({mid.x, mid.y, (p - p_inf) / q_inf, cf});
  }
  if (!share || share->ranks() == 1) return points;
  constexpr std::size_t fields = sizeof(WallPoint) / sizeof(double);
  static_assert(sizeof(WallPoint) == fields * sizeof(double), "WallPoint: doubles only, gathered as such");
  const std::vector<double> all =
      share->gather_on_root({reinterpret_cast<const double*>(points.data()), points.size() * fields});
  points.resize(all.size() / fields);
  std::copy(all.begin(), all.end(), reinterpret_cast<double*>(points.data()));
  return points;
}

Forces pressure_forces(const EulerDiscretisation& disc, const std::vector<State>& w, int order, double alpha,
                       double reference_length, const DomainShare* share) {
  // Per wall face its part (kernels.hpp's wall_forces), summed in face order.
  return pressure_forces(disc, disc.wall_forces(w, order, share ? share->owned() : disc.num_cells()), alpha,
                         reference_length, share);
}

Forces pressure_forces(const EulerDiscretisation& disc, const State& f, double alpha, double reference_length,
                       const DomainShare* share) {
  const double q_inf = dynamic_pressure(disc.settings());
  double px = f[0], py = f[1], vx = f[2], vy = f[3];
  if (share) {
    double parts[4] = {px, py, vx, vy};
    share->sum(parts);
    px = parts[0], py = parts[1], vx = parts[2], vy = parts[3];
  }
  const double scale = 1.0 / (q_inf * reference_length), c = std::cos(alpha), sn = std::sin(alpha);
  Forces out;
  out.cd_pressure = scale * (px * c + py * sn);
  out.cd_viscous = scale * (vx * c + vy * sn);
  out.cd = out.cd_pressure + out.cd_viscous;
  out.cl = scale * (-(px + vx) * sn + (py + vy) * c);
  return out;
}

double entropy_error(const EulerDiscretisation& disc, const std::vector<State>& w, const DomainShare* share) {
  const Gas& gas = disc.settings().gas;
  const auto entropy = [&](const State& s) { return gas.pressure(s) / std::pow(s[0], gas.gamma); };
  const double s_inf = entropy(disc.settings().free_stream);
  double sum = 0.0, area = 0.0;
  const std::size_t own = share ? std::size_t(share->owned()) : w.size();
  for (std::size_t c = 0; c < own; ++c) {
    const double v = disc.geometry().cell_area[c], e = entropy(w[c]) / s_inf - 1.0;
    sum += v * e * e, area += v;
  }
  if (share) {
    double parts[2] = {sum, area};
    share->sum(parts);
    sum = parts[0], area = parts[1];
  }
  return std::sqrt(sum / area);
}

double separation_x(const std::vector<WallPoint>& wall) {
  std::vector<WallPoint> upper;
  for (const WallPoint& p : wall)
    if (p.y > 0.0) upper.push_back(p);
  std::sort(upper.begin(), upper.end(), [](const WallPoint& a, const WallPoint& b) { return a.x < b.x; });
  for (std::size_t i = 1; i < upper.size(); ++i)
    if (upper[i - 1].cf > 0.0 && upper[i].cf <= 0.0) {
      // Linear interpolation of the zero crossing.
      const WallPoint& a = upper[i - 1];
      const WallPoint& b = upper[i];
      return a.x + (b.x - a.x) * a.cf / (a.cf - b.cf);
    }
  return std::numeric_limits<double>::quiet_NaN();
}

}  // namespace tb::compressible
