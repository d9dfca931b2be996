#pragma once
// The pseudo-time system with the residual's own Jacobian, second order
// included, without its matrix (docs/compressible.md; `jacobian.form = matrix_free`):
//
//   (V/dtau + dR/dw) dw = -R(w)                     Eq. 1 of seed 001
//
// solved by FGMRES whose product with dR/dw is a finite difference of the
// residual along each Krylov vector v,
//
//   dR/dw v ~ (R(w + h v) - R(w)) / h,   h = sqrt(eps (1 + ||w||)) / ||v||
//
// (the step of Walker and Pernice, PETSc's MATMFFD_WP), and whose
// preconditioner is the paper's system: the analytic first-order Jacobian
// plus V/dtau, solved by the run's linear solver (each application is one
// solve of the `flow` system, so --shadow, --ab and the autopilot see the
// systems they always saw). The first-order Jacobian alone is a defect
// correction of the second-order residual: at high CFL it leaves modes the
// second-order residual has and it does not (the circulation of an inviscid
// cylinder, docs/compressible.md); the outer iteration sees them. One
// residual evaluation (and ghost exchange) per outer iteration; vectors
// allocated once. With the state resident on a backend (ResidentFlow) the
// products, the Krylov vectors and the preconditioner's right-hand sides
// stay there.
#include <memory>
#include <span>
#include <vector>

#include "physics/compressible/euler_discretisation.hpp"
#include "physics/domain_share.hpp"
#include "solvers/krylov/krylov_method.hpp"
#include "solvers/krylov/solve_stats.hpp"
#include "solvers/systems/linear_systems.hpp"

namespace tb::compressible {

struct MatrixFreeSettings {
  double rtol = 0.1;  // outer FGMRES: relative residual of the second-order system
  int maxit = 20;     // outer iterations (= the restart length), each one preconditioner solve
  // Each preconditioner solve stops after at most this many iterations where
  // its specification allows more (0: its own maxit).
  int inner_maxit = 0;
  // Where the outer FGMRES keeps its scalars (gmres.hpp), checked every
  // iteration; automatic: where a resident state is, for a whole mesh (a
  // device, or the host backend standing in for one), else on the host.
  GmresScalars scalars = GmresScalars::automatic;
};

// The preconditioner's system: the first-order matrix `a`, solved as the
// linear system `system` of the run's systems; a null `a`: the values the
// physics wrote where the systems keep them (LinearSystems::device_values),
// solved with its vectors where they live.
struct FirstOrderSystem {
  systems::LinearSystems& systems;
  systems::SystemId system;
  const BsrMatrix* a;
};

class ResidentFlow;

class MatrixFreeSystem {
 public:
  // share: this rank's part of a decomposed mesh, null for the whole mesh (as
  // PseudoTimeSolver's); owned: the cells whose rows the system has.
  MatrixFreeSystem(EulerDiscretisation& disc, const DomainShare* share, index_t owned, MatrixFreeSettings settings);
  ~MatrixFreeSystem();

  // dw = the solution for the state w, whose residual of this order is r;
  // shift: V/dtau per local cell; rhs = -r on the owned cells. Each
  // preconditioner application solves first_order (from zero); its statistics
  // are appended to `inner`, its seconds added to inner_seconds; returns the
  // outer iteration's (iterations: outer ones).
  SolveStats solve(const std::vector<State>& w, const std::vector<State>& r, int order, std::span<const double> shift,
                   std::span<const double> rhs, std::span<double> dw, const FirstOrderSystem& first_order,
                   std::vector<SolveStats>& inner, double& inner_seconds);

  // The same with the state, its residual (of this order) and the shift
  // resident in `flow` (the mesh, or this rank's piece: a perturbed state's
  // ghosts are refreshed where it lives, DomainShare::exchange_on) and rhs, dw
  // on its backend: every product and every vector operation runs where the
  // state is; the preconditioner's solves take a null FirstOrderSystem::a. dw
  // holds zero on entry.
  SolveStats solve(ResidentFlow& flow, int order, const Vector& rhs, Vector& dw, const FirstOrderSystem& first_order,
                   std::vector<SolveStats>& inner, double& inner_seconds);

  // y = (V/dtau + dR/dw) x by the difference above, without the solve around
  // it (tests compare it with the coloured Jacobian's product).
  void apply(const std::vector<State>& w, const std::vector<State>& r, int order, std::span<const double> shift,
             std::span<const double> x, std::span<double> y);

 private:
  class Operator;
  class ResidentOperator;
  class FirstOrderPreconditioner;
  class ShareSpace;
  MatrixFreeSettings settings_;
  std::unique_ptr<Operator> op_;
  std::unique_ptr<ResidentOperator> resident_op_;  // made by the first resident solve
  std::unique_ptr<FirstOrderPreconditioner> pc_;
  std::unique_ptr<ShareSpace> space_;
  // The outer FGMRES: on host vectors, and on the state's backend (made by the first resident solve).
  std::unique_ptr<KrylovMethod> outer_method(GmresScalars scalars) const;
  std::unique_ptr<KrylovMethod> fgmres_, resident_fgmres_;
  Vector b_, x_;
  const DomainShare* share_;
};

}  // namespace tb::compressible
