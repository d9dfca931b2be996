#pragma once
// Grids, bodies and a registry solver for the immersed-boundary tests.
#include <map>
#include <memory>
#include <string>

#include "../../common/registry_systems.hpp"
#include "physics/immersed/fractional_step.hpp"
#include "solvers/factory/registry.hpp"

namespace tb::test {

inline std::vector<double> uniform_nodes(double lo, double hi, index_t cells) {
  std::vector<double> x(std::size_t(cells) + 1);
  for (index_t i = 0; i <= cells; ++i) x[i] = lo + (hi - lo) * double(i) / double(cells);
  return x;
}

// One solver per system (the same specification for each), set up on every solve.
class RegistrySolve : public RegistrySystems {
 public:
  explicit RegistrySolve(std::string spec = "bicgstab(rtol=1e-12,maxit=5000)+jacobi")
      : RegistrySystems({}, std::move(spec), /*setup_every_solve=*/true) {}
  // One step of `flow`, whose systems these are (declared on its first step).
  immersed::StepReport step(immersed::ImmersedFlow& flow) {
    if (stepped_ != &flow) flow.declare_systems(*this);
    stepped_ = &flow;
    return flow.step(*this);
  }

 private:
  const immersed::ImmersedFlow* stepped_ = nullptr;
};

}  // namespace tb::test
