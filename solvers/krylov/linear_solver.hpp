#pragma once
// A Krylov method, a preconditioner and the operator they act on: what the
// factory builds from a specification and what every miniapp calls each step.
#include <memory>
#include <span>
#include <string>

#include "krylov_method.hpp"
#include "solvers/matrix/bsr_operator.hpp"

namespace tb {

class LinearSolver {
 public:
  LinearSolver(std::string spec, std::unique_ptr<KrylovMethod> method, std::unique_ptr<Preconditioner> precond,
               Backend backend);
  ~LinearSolver();

  void setup(const BsrMatrix& a);   // symbolic + numeric; once per pattern
  void update(const BsrMatrix& a);  // numeric only; same pattern as setup
  // Host vectors in and out; copied to and from the backend when it is not the host.
  SolveStats solve(std::span<const double> b, std::span<double> x);
  // Vectors already on the solver's backend.
  SolveStats solve(const Vector& b, Vector& x);

  const std::string& spec() const { return spec_; }
  Backend backend() const { return backend_; }
  KrylovMethod& method() { return *method_; }
  Preconditioner& preconditioner() { return *precond_; }

 private:
  std::string spec_;
  std::unique_ptr<KrylovMethod> method_;
  std::unique_ptr<Preconditioner> precond_;
  Backend backend_;
  std::unique_ptr<BsrOperator> op_;
  double setup_seconds_ = 0.0;
  Vector b_dev_, x_dev_, r_dev_;
};

}  // namespace tb
