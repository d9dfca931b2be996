#pragma once
// One time step of the incremental pressure-correction method on the
// collocated grid (docs/incompressible.md):
//   1. convective outflow values for the new level;
//   2. momentum predictor: the block system of momentum.hpp for du = u* - u^n;
//   3. Rhie-Chow face velocities U* of u*;
//   4. pressure correction phi from the Poisson system of pressure.hpp;
//   5. projection: faces and cells corrected by -dt grad phi, p += phi.
// The matrices' patterns are built once in the constructor; a step refills
// values and reuses every buffer, so the loop allocates nothing.
//
// On a piece of the grid (docs/distributed.md) every rank steps its piece: it assembles
// its own rows only (in the whole grid's numbering, of which a slab's cells are
// one contiguous range), refreshes the ghost planes after each update (u*, phi,
// then u, p), and reduces its norms and maxima over the ranks.
#include <iosfwd>
#include <span>
#include <string>
#include <vector>

#include "physics/domain_share.hpp"
#include "physics/incompressible/boundaries.hpp"
#include "physics/incompressible/operators.hpp"
#include "physics/incompressible/stencil_pattern.hpp"
#include "solvers/krylov/solve_stats.hpp"
#include "solvers/systems/linear_systems.hpp"

namespace tb::incompressible {

// What the pressure system's unknown is. The matrix is the same: `correction`
// solves A phi = b from phi = 0; `pressure` solves A p^{n+1} = A p^n + b from
// p^n and takes phi = p^{n+1} - p^n, so that a stopping rule relative to the
// right-hand side (relative_to=b) measures the whole pressure, as a
// non-incremental projection does, and not a correction that vanishes as the
// flow settles.
enum class PressureUnknown { correction, pressure };

struct DivergenceLeft;  // kernels.hpp
struct StepMaxima;      // kernels.hpp

struct FlowSettings {
  double nu = 0.01;  // kinematic viscosity = U L / Re in the case's units
  double dt = 0.01;
  std::array<double, 3> body_force{};  // per unit mass; drives periodic channels
  PressureUnknown pressure_unknown = PressureUnknown::correction;
  // The projection to tolerance: after the pressure solve, the largest
  // divergence it leaves (the pinned cell's included: its equation is the sum
  // of the others', so a residual the solver's norm allows adds up there) must
  // be at most projection_tol times the larger of the divergence it had to
  // remove and the velocity's own scale max sum_d |u_d| / h_d, an absolute
  // floor as the flow settles; else the rest is removed by a correction solve.
  // 0: the solver's stopping rule alone.
  double projection_tol = 0.0;
};

struct StepReport {
  double time = 0.0;
  double cfl = 0.0;                 // max over cells of sum_d |u_d| dt / h_d
  double momentum_residual = 0.0;   // RMS of the steady momentum residual at u^n
  int projection_corrections = 0;   // correction solves the projection's tolerance asked for
  double velocity_change = 0.0;     // max |u^{n+1} - u^n| / dt
  double divergence = 0.0;          // max |div U| after the projection
  std::vector<std::string> failed;  // systems whose solve did not converge
};

class FractionalStep {
 public:
  // `grid` may be a piece (FvGrid::piece) whose ghosts `share` refreshes; its
  // local entries are the grid's cells in their natural order.
  FractionalStep(const FvGrid& grid, const std::array<BoundarySpec, 6>& bcs, const FlowSettings& settings,
                 const DomainShare* share = nullptr);
  FractionalStep(const FractionalStep&) = delete;
  FractionalStep& operator=(const FractionalStep&) = delete;

  // Declares the two systems, "momentum" then "pressure" (on a piece, with
  // their blocks in ghost columns: StencilPattern), keeping their handles.
  void declare_systems(systems::SystemRegistry& registry);
  // Solves each system through `systems` by its handle: on a piece, A is the
  // rank's rows and b, x its entries.
  StepReport step(systems::LinearSystems& systems);

  const FvGrid& grid() const { return grid_; }
  const Boundaries& boundaries() const { return boundaries_; }
  const FlowSettings& settings() const { return settings_; }
  std::span<const double> velocity() const { return u_; }
  std::span<double> velocity() { return u_; }
  std::span<const double> pressure() const { return p_; }
  std::span<double> pressure() { return p_; }  // for initial conditions
  const FaceVelocities& faces() const { return faces_; }
  // Divergence of the face velocities per cell (after the last projection).
  std::span<const double> divergence() const { return div_; }
  // Its largest magnitude over the owned cells of every rank (what a step reports).
  double max_divergence() const;
  // The systems as solved: on a piece, this rank's rows (make_stencil_pattern).
  const BsrMatrix& momentum_matrix() const { return momentum_.matrix; }
  const BsrMatrix& poisson_matrix() const { return poisson_.matrix; }
  // On a piece, each system's blocks in ghost columns, refilled where they are
  // beside the matrix each solve gets (StencilPattern).
  const StencilPattern& momentum_system() const { return momentum_; }
  const StencilPattern& poisson_system() const { return poisson_; }
  const DomainShare* share() const { return share_; }
  double time() const { return time_; }
  long steps() const { return steps_; }

  void save(std::ostream& out) const;
  void load(std::istream& in);

 private:
  friend class ResidentStep;  // the same step with the state on a backend
  // The step's maxima of this rank (kernels::step_maxima, on whichever
  // backend) over the ranks into r; a velocity no longer finite on any rank
  // ends the step on all (StepFailure).
  void report_maxima(const StepMaxima& m, StepReport& r) const;
  void pressure_solve(systems::LinearSystems& systems, StepReport& r);
  // The largest divergence a projection with phi_ (ghosts current) would
  // leave, from the residual of b_div_ (FlowSettings::projection_tol).
  double divergence_left(std::span<double> residual) const;
  // The largest divergence of this rank's `left` (its flux summed here over
  // the ranks), the pinned cell's (its volume; 0: no pinned cell here)
  // included, over the ranks.
  static double worst_divergence(DivergenceLeft left, double pin_volume, const DomainShare* share);
  // The projection's target: projection_tol times the larger of max |div U*| and max sum_d |u_d| / h_d,
  // from b_div (per owned cell) and u on backend b (this step's own arrays, or a ResidentStep's).
  double projection_target(Backend b, const GridView& g, const double* b_div, const double* u) const;
  // A projection above its target is corrected at most max_corrections times,
  // correction k capped at correction_cap(k) iterations from zero (0: the
  // specification's own maxit, the last): 1, 2, 4, then a whole solve. Just
  // enough to bring the divergence under the target: a whole solve to the
  // solver's own tolerance at once would leave this step's divergence far
  // below every other step's (one multigrid-preconditioned iteration cuts the
  // residual about tenfold).
  static constexpr int max_corrections = 4;
  static constexpr int correction_cap(int k) { return k + 1 < max_corrections ? 1 << k : 0; }
  // Correction k: solve() (the pressure system's solve of the residual) under
  // its cap; whether it failed (a capped one stopped at its cap did not).
  template <class Solve>
  bool correction_failed(systems::LinearSystems& systems, int k, Solve&& solve) const {
    const int cap = correction_cap(k);
    systems.precondition_outer(pressure_id_, cap > 0, cap);
    const SolveStats st = solve();
    systems.precondition_outer(pressure_id_, false, 0);
    return !st.converged() && !(cap > 0 && st.reason == StopReason::max_iterations);
  }
  // Ghosts take their owners' values (nothing on one process).
  void exchange(std::span<double> values, index_t width) const {
    if (share_) share_->exchange(values, width);
  }
  std::span<double> owned_part(std::vector<double>& v, index_t width) const;

  FvGrid grid_;
  const DomainShare* share_;
  Boundaries boundaries_;
  FlowSettings settings_;
  StencilPattern momentum_, poisson_;
  systems::SystemId momentum_id_, pressure_id_;
  std::vector<double> u_, u_old_, p_, grad_p_, rhs_m_, du_, rhs_p_, phi_, div_;
  std::vector<double> b_div_, delta_;  // the divergence's right-hand side and a correction, owned cells
  FaceVelocities faces_;
  double time_ = 0.0;
  long steps_ = 0;
};

}  // namespace tb::incompressible
