#pragma once
// Small flows for the incompressible tests: the lid-driven cavity and the
// plane channel, and a time loop that solves each system with a registry solver.
#include <array>
#include <map>
#include <memory>

#include "../../common/registry_systems.hpp"
#include "physics/incompressible/fractional_step.hpp"
#include "solvers/factory/registry.hpp"

namespace tb::test {

using namespace tb::incompressible;

inline AxisSpec axis(index_t cells, double length = 1.0, double beta = 0.0) {
  AxisSpec a;
  a.cells = cells;
  a.length = length;
  a.stretching = beta > 0.0 ? Stretching::Tanh : Stretching::Uniform;
  a.parameter = beta > 0.0 ? beta : 1.0;
  return a;
}

inline std::array<BoundarySpec, 6> cavity_walls() {
  std::array<BoundarySpec, 6> b{};
  b[side_of(1, 1)].velocity = {1.0, 0.0, 0.0};
  return b;
}

// Parabolic inflow of mean 1 at xmin, convective outflow at xmax, walls elsewhere.
inline std::array<BoundarySpec, 6> channel_sides() {
  std::array<BoundarySpec, 6> b{};
  b[side_of(0, -1)] = {BoundaryKind::inflow, {1.0, 0.0, 0.0}, InflowProfile::parabolic};
  b[side_of(0, 1)].kind = BoundaryKind::outflow;
  return b;
}

// One solver per system, set up on the first solve and updated after.
class RegistrySolvers : public RegistrySystems {
 public:
  explicit RegistrySolvers(std::string momentum = "bicgstab(rtol=1e-10,maxit=500)+bilu0",
                           std::string pressure = "cg(rtol=1e-11,maxit=2000)+bilu0")
      : RegistrySystems({{"momentum", std::move(momentum)}, {"pressure", std::move(pressure)}}) {}
  // One step of `flow`, whose systems these are (declared on its first step).
  StepReport step(FractionalStep& flow) {
    if (stepped_ != &flow) flow.declare_systems(*this);
    stepped_ = &flow;
    return flow.step(*this);
  }

 private:
  const FractionalStep* stepped_ = nullptr;
};

// Steps until max |du/dt| < tol or max_steps; returns the steps taken.
inline long march_to_steady(FractionalStep& flow, RegistrySolvers& solvers, double tol, long max_steps) {
  for (long n = 1; n <= max_steps; ++n) {
    const StepReport r = solvers.step(flow);
    if (!r.failed.empty()) throw Error("a " + r.failed.front() + " solve failed");
    if (r.velocity_change < tol) return n;
  }
  return max_steps;
}

}  // namespace tb::test

namespace tb::test {

// Walls at y = 0 and y = 1, periodic in x (and z when 3D).
inline std::array<BoundarySpec, 6> periodic_channel_sides() {
  std::array<BoundarySpec, 6> b{};
  for (int side : {0, 1, 4, 5}) b[side].kind = BoundaryKind::periodic;
  return b;
}

}  // namespace tb::test
