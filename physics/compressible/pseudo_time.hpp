#pragma once
// Pseudo-time marching to steady state (seed 001 §2):
//   (V_i / dtau_i I + dr/dw) dw = -r(w)            Eq. 1 (backward Euler)
//   w <- w + omega dw                               Eq. 2
//   dtau_i = cfl V_i / sum_f (|u.n| + c)_f |f|      Eq. 4
//   cfl <- cfl (|r^n| / |r^n+1|)^e, e = ramp_up when the residual fell, else
//          ramp_down, kept within [cfl_min, cfl_max]  Eq. 3
// omega limits the relative change of density and pressure in any cell to
// max_change. A second-order run starts first order until the energy residual
// has dropped by first_order_drop, then goes on in second order from
// cfl_second_order (the paper's initial first-order solve). A step that would
// leave a non-physical state (rho or p <= 0, non-finite) is undone and redone
// with the CFL number cut by cfl_cut.
//
// Eq. 3 raises the CFL only as fast as the residual falls. While the start-up
// transient still has to leave through the far field the residual stays level
// for tens of steps (the medium NACA0012 from CFL 20: 0.19 for 40 steps), and
// so does the CFL. A growth floor (docs/compressible.md): a healthy step, one that needed
// no relaxation (omega = 1), no safeguard, and left the residual below
// growth_tolerance times its previous value, raises the CFL by at least
// cfl_growth; cfl_growth = 1 is Eq. 3 alone.
//
// Two safeguards keep Eq. 3 from settling where the iteration no longer
// converges (docs/compressible.md, "Why the residual climbed back"):
//   - a relaxed step (omega < 1) does not raise the CFL, and one relaxed below
//     omega_cfl scales it by omega / omega_cfl (at least cfl_cut): Eq. 3 alone
//     sees a residual ratio near 1 after a step shrunk to nothing and keeps the
//     CFL that produced it, step after step;
//   - stall_steps steps without a new lowest residual (of this order) scale it
//     by stall_cut: an oscillation whose residual neither grows nor falls
//     leaves Eq. 3's ratio at 1 and the CFL where it is. A new lowest counts
//     only below (1 - stall_drop) times the last one: a residual that creeps
//     (0.1 % a step, as on the nested NACA0012 L1 q1 mesh) stalls too, and
//     with matrix_free_after_stall leaves the paper's system 40 steps sooner.
// A third scales it by stall_cut after a step whose linear system was not
// solved (matrix-free: the outer iteration missed its tolerance; the paper's
// system: its solve stopped with less than a tenth off its own residual) and
// which took less than a tenth off the residual: the CFL has outgrown the
// linear solver (and the growth floor, which counts such a step as healthy,
// would raise it further).
// With matrix_free_after_stall, the first such stall in the final order
// instead moves the paper's system (first_order) to the matrix-free form for
// the rest of the run, the CFL kept: the first-order Jacobian cannot damp
// the second-order residual's modes the stall is made of (the nested
// NACA0012 meshes with quadrilateral layers, docs/compressible.md), while the
// steps before it, as cheap as the paper's, are all most meshes need.
#include <functional>
#include <iosfwd>
#include <memory>
#include <span>
#include <vector>

#include "physics/compressible/euler_discretisation.hpp"
#include "physics/compressible/matrix_free_system.hpp"
#include "physics/domain_share.hpp"
#include "solvers/krylov/solve_stats.hpp"
#include "solvers/systems/linear_systems.hpp"

namespace tb::compressible {

enum class JacobianForm { first_order, exact, matrix_free };

struct PseudoTimeSettings {
  int order = 2;          // spatial order of the residual in the end
  double cfl_min = 20.0;  // smallest CFL number of Eq. 3 (cuts may go below)
  double cfl_max = 1e4;
  double ramp_up = 0.25;            // Eq. 3 exponent when the residual fell
  double ramp_down = 0.3;           // ... when it grew
  double max_change = 0.2;          // largest relative change of rho and p per step
  double rel_tol = 1e-6;            // converged: energy residual / its first value
  double first_order_drop = 0.1;    // energy-residual drop of the first-order start
  double cfl_cut = 0.1;             // CFL factor after a non-physical step
  int max_retries = 12;             // CFL cuts in one step before giving up (tb::Error)
  double cfl_start = 500.0;         // CFL of the first step; 0: cfl_min
  double cfl_second_order = 100.0;  // CFL of the first second-order step; 0: cfl_start
  double omega_cfl = 0.1;           // relaxation below which the next CFL shrinks with omega
  int stall_steps = 10;             // steps without a new lowest residual before a CFL cut; 0: never
  double stall_drop = 0.1;          // a new lowest lies this fraction below the last one; 0: any lower
  double stall_cut = 0.5;           // that cut
  double cfl_growth = 1.0;          // smallest CFL factor after a healthy step; 1: Eq. 3 alone (tb-comp2d: by the form)
  double growth_tolerance = 1.1;    // a healthy step's residual stays below this times the previous
  // The system's Jacobian: the analytic first-order one (the paper's); the
  // residual's own linearisation, second order included, assembled by
  // coloured finite differences (coloured_jacobian.hpp; one process only), or
  // applied by differences of the residual in an outer FGMRES preconditioned by
  // the paper's system (matrix_free_system.hpp; in first order too, where the
  // product is the analytic Jacobian's and the outer iteration adds up cheap
  // inner solves).
  JacobianForm jacobian = JacobianForm::first_order;
  bool matrix_free_after_stall = false;  // first_order only: the switch above (tb-comp2d: first_order_then_matrix_free)
  // Steps one assembled first-order Jacobian serves (the paper's system, or the
  // matrix-free form's preconditioner), reused while the CFL and the order stay
  // as they were at its assembly and each step is healthy (no relaxation, no
  // safeguard, no retry, every solve converged, the residual fell): in
  // practice at the CFL cap. 1: assembled every step (the paper). The solver's
  // set-up is skipped with it (the harness sees the same values). The exact
  // form assembles every step.
  int jacobian_reuse = 1;
  MatrixFreeSettings matrix_free;
};

class ColouredJacobian;
class ResidentFlow;

// The safeguard that cut the next step's CFL (docs/compressible.md, "Pseudo-time
// marching", step 5). The values are steps.csv's res:cfl_cut column.
enum class CflSafeguard : int {
  none = 0,
  relaxation = 1,          // the update was relaxed below omega_cfl
  stall = 2,               // cfl.stall_steps steps without a new lowest residual
  unsolved = 3,            // the step's system was not solved (the matrix-free outer iteration
                           // short of its tolerance, or a solve of the paper's system stopped with
                           // less than 10 % off) on a step that took less than 10 % off the residual
  matrix_free_switch = 4,  // a stall moved the first-order form to the matrix-free one (the CFL kept)
};

struct PseudoStepReport {
  int order = 1;                                // the residual's order during this step
  double cfl = 0.0;                             // the CFL number the accepted update used
  double omega = 1.0;                           // the relaxation it used
  int retries = 0;                              // non-physical attempts redone with a smaller CFL
  CflSafeguard safeguard = CflSafeguard::none;  // the one that cut the next step's CFL
  bool jacobian_reused = false;  // the step's system is the one assembled at an earlier step (jacobian_reuse)
  double residual_s = 0.0;       // wall time of the residual evaluation(s) and of the
  double jacobian_s = 0.0;       // Jacobian assembly (spectral radii included; matrix-free: the outer
                                 // iteration less its preconditioner solves) in this step
  int outer_iterations = 0;      // matrix-free: the outer FGMRES's iterations, over the step's attempts
  bool outer_converged = true;   // matrix-free: the accepted attempt's outer iteration met its tolerance
  State residual_norms{};        // ||r_k||_2 per equation after the step
  double energy_drop = 1.0;      // energy residual over its first value in this order
  double residual_factor = 1.0;  // ||r|| after the update over ||r|| before it, both of the step's order
  std::vector<SolveStats> solves;
};

// Its progress probe (systems::ProgressProbe) is trial_reduction: how far a
// solution of the step's system would carry the pseudo-time iteration.
class PseudoTimeSolver final : public systems::ProgressProbe {
 public:
  // share: this rank's part of a decomposed mesh (disc's mesh is the piece,
  // `initial` has a state per local cell); null for the whole mesh. It must
  // outlive the solver.
  PseudoTimeSolver(EulerDiscretisation& disc, std::vector<State> initial, PseudoTimeSettings settings,
                   const DomainShare* share = nullptr);
  ~PseudoTimeSolver() override;

  // On a piece, the blocks of this rank's rows in the ghosts' columns
  // (JacobianPattern::off_rank, columns named by pattern().ghost_columns):
  // refilled where they are with each Jacobian, beside the a of each solve.
  const BsrMatrix& off_rank_block() const { return off_rank_; }
  // Declares the system "flow" (an inexact Newton step: a solve at its
  // iteration limit with a reduced residual is accepted; this solver as its
  // progress probe; on a piece, off_rank_block() beside each solve's matrix).
  void declare_systems(systems::SystemRegistry& registry);
  // One pseudo-time step, its linear solves through `systems`: on a
  // decomposed mesh, A holds this rank's block rows, b and x its own entries.
  PseudoStepReport step(systems::LinearSystems& systems);
  bool converged() const;
  // Called from within step()'s solve: how far the update dw (a solution of
  // the step's system) would carry the iteration, ||r(w + omega dw)|| / ||r(w)||
  // with omega as step() relaxes it, +inf for a non-physical state. The state,
  // its residual and the step are untouched (only trial_, which step() writes
  // after the solve, and a residual scratch array). The solver autopilot weighs
  // its candidates with it (ProgressProbe, docs/autopilot.md). NaN (cannot
  // tell) where the solve is a preconditioner application of the matrix-free system.
  double trial_reduction(std::span<const double> dw);
  const char* name() const override { return "pseudo-time residual reduction"; }
  double progress(std::span<const double> dw) override { return trial_reduction(dw); }

  // The state and everything a step needs resident on `backend` from here on
  // (tb-comp2d's --backend cuda): the state, its residual and reconstruction,
  // the local time steps, the first-order or exact Jacobian's values (written
  // where `systems` keep the flow system's matrix, LinearSystems::device_values),
  // the right-hand side, the update and the matrix-free form's Krylov vectors;
  // per step only scalars come back (norms, the relaxation, admissibility,
  // forces). The same sequence of steps as on the host, the same bits on the
  // host backend. After declare_systems on `systems`, whose device storage is
  // on `backend`. Only where can_reside().
  bool can_reside() const;
  void reside(Backend backend, systems::LinearSystems& systems);
  bool resident() const { return resident_ != nullptr; }
  // The wall forces of the current state on this rank's cells (pressure x, y,
  // viscous x, y; EulerDiscretisation::wall_forces), reduced where it lives.
  State wall_force_sums() const;
  // Resident: a copy of the state, its residual and the scalars kept beside it
  // on the backend (the harness's last good state), and back. A restored
  // state assembles its Jacobian afresh at its next step.
  void keep();
  void restore_kept();

  // Per local cell; only the owned ones' residuals are meaningful on a piece.
  // Resident: brought to the host when asked (output, checkpoints), with the
  // discretisation's reconstruction of the state, which wall_distribution reads.
  const std::vector<State>& state() const {
    sync_host();
    return w_;
  }
  const std::vector<State>& residual() const {
    sync_host();
    return r_;
  }
  // ||r_k||_2 per equation over the whole mesh (all ranks), of the current state.
  const State& residual_norms() const { return norms_; }
  index_t owned_cells() const { return owned_; }
  int order() const { return order_; }
  // True while step()'s solves are preconditioner applications of the
  // matrix-free system: their tolerance is a preconditioner's, and one stopped
  // at its iteration limit is no failed step.
  bool preconditioning() const { return preconditioning_; }
  double cfl() const { return cfl_; }
  long steps() const { return steps_; }
  const PseudoTimeSettings& settings() const { return settings_; }

  // Everything the next step depends on, so that a restart continues bit for
  // bit: the scalars and the owned cells' states (a piece's own on a decomposed mesh).
  void save(std::ostream& out) const;
  void load(std::istream& in);

 private:
  void evaluate_residual();
  void sync_host() const;
  // The step's parts on the host or the resident backend.
  void spectral_sums();
  void negated_residual();
  void solve_step(systems::LinearSystems& systems, PseudoStepReport& rep);
  void accept_trial();
  // A Jacobian reused across a restart (load) of a resident run: assembled at its first step.
  void assemble_loaded(systems::LinearSystems& systems);
  State global_norms(const std::vector<State>& r) const;
  double start_cfl() const { return settings_.cfl_start > 0.0 ? settings_.cfl_start : settings_.cfl_min; }
  double relaxation(std::span<const double> dw) const;
  // trial_ = w + omega dw on the owned cells (ghosts as they are); whether it is
  // physical on every rank. Shared by step() and trial_reduction().
  bool make_trial(std::span<const double> dw, double omega);
  // dw_ from the matrix-free system, each preconditioner application a solve
  // of the first-order system a_ (JacobianForm::matrix_free).
  void solve_matrix_free(systems::LinearSystems& systems, PseudoStepReport& rep);
  void start_matrix_free();
  // Whether this step may solve with the Jacobian already in a_ (jacobian_reuse).
  bool reuses_jacobian() const;
  bool keeps_assembled_state() const;  // a_ may serve another step: its origin goes into checkpoints
  // shift_ from sums_ at the CFL cfl (Eq. 4).
  void set_shift(double cfl);
  // a_ (resident: the systems' values) from the current state and shift_, set at the CFL cfl.
  void assemble_first_order(systems::LinearSystems& systems, double cfl);
  // JacobianForm::exact: a_ (resident: the systems' values) by the coloured differences at the current state.
  void assemble_exact(systems::LinearSystems& systems);
  // The first-order Jacobian at w (null: the current state) where the systems keep it (resident).
  void assemble_resident(systems::LinearSystems& systems, const double* w);
  // This rank's part over every rank (the identity on the whole mesh): the
  // four sums, Eq. 2's relaxation from this rank's largest relative change,
  // admissibility.
  State over_ranks(State sums) const;
  double relaxation_for(double worst) const;
  bool on_every_rank(bool admissible) const;
  void assembled_at(double cfl);

  EulerDiscretisation& disc_;
  PseudoTimeSettings settings_;
  const DomainShare* share_;  // null: the whole mesh
  index_t owned_;
  // Resident: the host's copies, behind the backend's while host_stale_.
  mutable std::vector<State> w_, r_;
  std::vector<State> trial_;
  std::vector<State> trial_r_;  // trial_reduction's residual, sized on its first call
  int order_ = 1;
  double cfl_ = 0.0;
  State norms_{};      // ||r_k|| of the current state
  double norm_ = 0.0;  // ||r|| of the current state, all equations
  double energy_reference_ = 0.0;
  long steps_ = 0;
  double best_norm_ = 0.0;  // lowest ||r|| in this order, and steps since it fell
  int since_best_ = 0;
  // Per step, allocated once. On a piece, a_ holds this rank's block rows of
  // the distributed system in the owned cells' columns, off_rank_ in the
  // ghosts' (JacobianPattern): the solve takes a_, and off_rank_ in place
  // (off_rank_block(), handed to the solvers once). Resident, both are
  // patterns only: the values live where the systems keep them (DeviceValues).
  BsrMatrix a_, off_rank_;
  std::vector<double> sums_, shift_, rhs_, dw_;
  std::unique_ptr<ColouredJacobian> coloured_;     // JacobianForm::exact: a_ is its pattern
  std::unique_ptr<MatrixFreeSystem> matrix_free_;  // JacobianForm::matrix_free, or after the switch
  bool preconditioning_ = false;
  systems::SystemId flow_id_;
  // jacobian_reuse: the state and CFL a_ was assembled at (the state kept so
  // that a restart assembles the same a_), the steps it has served since,
  // the order then, and whether the last step was healthy.
  std::vector<State> assembled_w_;
  double assembled_cfl_ = 0.0;
  int assembled_order_ = 0;
  int served_ = 0;
  bool healthy_ = false;
  // reside(): the state on the backend, the step's vectors there (rhs, dw,
  // the probe's update and residual, the reused Jacobian's state), whether
  // the host's copies are behind, a loaded Jacobian still to be assembled.
  std::unique_ptr<ResidentFlow> resident_;
  Vector rhs_on_, dw_on_, probe_dw_, probe_r_, assembled_on_;
  mutable bool host_stale_ = false;
  bool assemble_pending_ = false;
  // keep(): the state, its residual and the scalars of the step after it.
  struct Kept {
    int order = 1;
    double cfl = 0.0, norm = 0.0, energy_reference = 0.0, best_norm = 0.0;
    State norms{};
    long steps = -1;
    int since_best = 0;
    bool matrix_free = false;
  } kept_;
  Vector kept_w_, kept_r_;
};

// ||r_k||_2 per equation k over all entries of r.
State residual_norms(const std::vector<State>& r);

}  // namespace tb::compressible
