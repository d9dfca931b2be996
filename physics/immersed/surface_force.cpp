#include "physics/immersed/surface_force.hpp"

#include <cmath>
#include <numbers>

namespace tb::immersed {

namespace {

// Whether the surface point at height z lies in an owned z plane: node values
// are the whole grid's bits on every rank, so each point has one owner.
bool owned_height(const CartesianGrid& g, double z) {
  const std::vector<double>& nodes = g.axis(2).nodes;
  const PlaneRange& p = g.planes();
  const bool bottom = p.first + p.owned_begin == 0, top = p.first + p.owned_end == p.whole_planes;
  return (bottom || z >= nodes[p.owned_begin]) && (top || z < nodes[p.owned_end]);
}

}  // namespace

SphereDrag::SphereDrag(const ImmersedFlow& flow, const Sphere& sphere, int bands, int sectors) {
  const CartesianGrid& g = flow.grid();
  const std::span<const CellType> types = flow.cells().types;
  const double r = sphere.radius(), du = 2.0 / bands, dphi = 2.0 * std::numbers::pi / sectors;
  area_ = r * r * du * dphi;
  for (int b = 0; b < bands; ++b) {
    const double ct = -1.0 + (b + 0.5) * du, st = std::sqrt(1.0 - ct * ct);
    for (int s = 0; s < sectors; ++s) {
      const double phi = (s + 0.5) * dphi;
      const Vec3 n{st * std::cos(phi), st * std::sin(phi), ct};
      const Vec3 xs = sphere.centre() + r * n;
      if (g.is_piece() && !owned_height(g, xs[2])) continue;
      const Vec3 wall = sphere.velocity(xs);
      normals_.insert(normals_.end(), n.begin(), n.end());
      wall_velocities_.insert(wall_velocities_.end(), wall.begin(), wall.end());
      pressure_.add(WallFit(g, types, xs, n, WallCondition::neumann).value_at(xs));
      shear_.add(WallFit(g, types, xs, n, WallCondition::dirichlet).normal_derivative());
    }
  }
}

SurfaceForce SphereDrag::force(const ImmersedFlow& flow) const {
  const double mu = flow.settings().rho * flow.settings().nu;
  const cell::SurfaceView points = view(mu);
  const cell::ConstVelocityView u{{flow.velocity(0).data(), flow.velocity(1).data(), flow.velocity(2).data()}};
  const ForceSums total = kernels::surface_force(Backend::host, points, flow.pressure().data(), u);
  SurfaceForce f;
  for (int d = 0; d < 3; ++d) f.pressure[d] = total.pressure[d], f.viscous[d] = total.viscous[d];
  if (const DomainShare* share = flow.share()) {
    std::array<double, 6> sums = {f.pressure[0], f.pressure[1], f.pressure[2],
                                  f.viscous[0],  f.viscous[1],  f.viscous[2]};
    share->sum(sums);
    f.pressure = {sums[0], sums[1], sums[2]};
    f.viscous = {sums[3], sums[4], sums[5]};
  }
  return f;
}

cell::SurfaceView SphereDrag::view(double mu) const {
  return {pressure_.view(),
          shear_.view(),
          pressure_.boundary_weights.data(),
          shear_.boundary_weights.data(),
          normals_.data(),
          wall_velocities_.data(),
          mu,
          area_};
}

SurfaceForce SphereDrag::force(Backend backend, double mu, const double* p, const cell::ConstVelocityView& u) {
  if (!copy_ || copy_->backend != backend) {
    copy_ = std::make_unique<Copy>();
    copy_->backend = backend;
    copy_->indices.reserve(4);
    copy_->values.reserve(8);
    const auto indices = [&](const std::vector<index_t>& v) {
      return copy_->indices.emplace_back(backend, std::span<const index_t>(v)).data();
    };
    const auto values = [&](const std::vector<double>& v) {
      return copy_->values.emplace_back(backend, std::span<const double>(v)).data();
    };
    const auto stencils = [&](const FlatStencils& f) {
      return cell::StencilsView{f.count(), indices(f.offsets), indices(f.at), values(f.weights)};
    };
    cell::SurfaceView& v = copy_->view;
    v = view(mu);
    v.pressure = stencils(pressure_);
    v.shear = stencils(shear_);
    v.pressure_boundary = values(pressure_.boundary_weights);
    v.shear_boundary = values(shear_.boundary_weights);
    v.normal = values(normals_);
    v.wall_velocity = values(wall_velocities_);
  }
  cell::SurfaceView v = copy_->view;
  v.mu = mu;
  const ForceSums sums = kernels::surface_force(backend, v, p, u);
  SurfaceForce f;
  for (int d = 0; d < 3; ++d) f.pressure[d] = sums.pressure[d], f.viscous[d] = sums.viscous[d];
  return f;
}

SurfaceForce sphere_force(const ImmersedFlow& flow, const Sphere& sphere, int bands, int sectors) {
  return SphereDrag(flow, sphere, bands, sectors).force(flow);
}

double drag_coefficient(const ImmersedFlow& flow, const Sphere& sphere, const SurfaceForce& f) {
  const Vec3& u = flow.settings().free_stream;
  const double r = sphere.radius();
  return f.total()[0] / (0.5 * flow.settings().rho * dot(u, u) * std::numbers::pi * r * r);
}

}  // namespace tb::immersed
