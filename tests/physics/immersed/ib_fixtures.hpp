#pragma once
// Grids, bodies and a registry solver for the immersed-boundary tests.
#include <map>
#include <memory>
#include <string>

#include "physics/immersed/solve_function.hpp"
#include "solvers/factory/registry.hpp"

namespace tb::test {

inline std::vector<double> uniform_nodes(double lo, double hi, index_t cells) {
  std::vector<double> x(std::size_t(cells) + 1);
  for (index_t i = 0; i <= cells; ++i) x[i] = lo + (hi - lo) * double(i) / double(cells);
  return x;
}

// One solver per system name, set up on the first solve and updated after.
class RegistrySolve {
 public:
  explicit RegistrySolve(std::string spec = "bicgstab(rtol=1e-12,maxit=5000)+jacobi") : spec_(std::move(spec)) {}
  immersed::SolveFunction function() {
    return [this](const std::string& system, const BsrMatrix& a, std::span<const double> b, std::span<double> x) {
      auto& s = solvers_[system];
      if (!s) s = make_solver(spec_);
      s->setup(a);
      return s->solve(b, x);
    };
  }

 private:
  std::string spec_;
  std::map<std::string, std::unique_ptr<LinearSolver>> solvers_;
};

}  // namespace tb::test
