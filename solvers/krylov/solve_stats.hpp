#pragma once
// What one linear solve did: returned by every solver, printed as one line, written as JSON.
#include <string>
#include <vector>

namespace tb {

enum class StopReason {
  converged_rtol,  // ||r|| <= rtol * ||r0|| (or rtol * ||b||: StopCriteria::relative_to)
  converged_atol,  // ||r|| <= atol
  max_iterations,  // iteration limit reached first
  breakdown,       // a Krylov scalar vanished (rho, (r0,v), omega, p'Ap <= 0 ...)
  stagnation,      // no progress over stagnation_window iterations
  diverged,        // ||r|| > dtol * ||r0||
  non_finite,      // NaN or Inf in the iterates or scalars
  not_run,
};

std::string_view to_string(StopReason r);
bool is_converged(StopReason r);

struct SolveStats {
  std::string solver;  // the specification that ran
  StopReason reason = StopReason::not_run;
  int iterations = 0;
  double initial_residual = 0.0;  // ||b - A x0||
  double final_residual = 0.0;    // true ||b - A x|| recomputed after the solve
  // False: final_residual is the method's own last estimate, not recomputed
  // (a solve that preconditions an outer iteration: LinearSolver::recompute_final_residual).
  bool final_recomputed = true;
  double target_residual = 0.0;          // the method's residual norm that counted as converged (0: not told)
  std::vector<double> residual_history;  // the method's residual norm per iteration, [0] = initial
  double setup_seconds = 0.0;            // last setup/update of the preconditioner
  double solve_seconds = 0.0;
  double communication_seconds = 0.0;  // of solve_seconds, in MPI's allreduces and ghost waits (distributed solvers)
  // Device launches (solvers/core/device_launches.hpp) of the solve's
  // iterations, the final residual check not included; 0 on the host. Of
  // them, the preconditioner's, over its applications (counted on any
  // backend; 0 for a complete solver, whose preconditioner is its own).
  long device_launches = 0;
  long preconditioner_applications = 0;
  long preconditioner_launches = 0;
  std::string detail;  // free text: which scalar broke down, etc.

  bool converged() const { return is_converged(reason); }
  // final_residual = the last estimate of the history (||r0|| without one), final_recomputed = false.
  void take_estimate_as_final();
  std::string line() const;  // one human-readable line
  std::string json() const;  // one JSON object, residual history included
};

}  // namespace tb
