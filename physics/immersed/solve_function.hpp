#pragma once
// How the physics asks for a linear solve: the miniapp passes the harness's
// solvers (one per named system), tests a registry solver.
#include <functional>
#include <span>
#include <string>

#include "solvers/krylov/solve_stats.hpp"
#include "solvers/matrix/bsr.hpp"

namespace tb::immersed {

// Solves A x = b for the named system; x holds the initial guess.
using SolveFunction = std::function<SolveStats(const std::string& system, const BsrMatrix& a, std::span<const double> b,
                                               std::span<double> x)>;

}  // namespace tb::immersed
