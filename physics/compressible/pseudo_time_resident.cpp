// PseudoTimeSolver on a backend (pseudo_time.hpp, "reside"): the move of the
// state and the systems' pattern there, the host's copies brought back for
// output, the forces reduced where the state lives, the last good state kept
// beside it. The step itself is pseudo_time.cpp's, on either side.
#include "physics/compressible/coloured_jacobian.hpp"
#include "physics/compressible/pseudo_time.hpp"
#include "physics/compressible/resident_flow.hpp"
#include "solvers/core/error.hpp"

namespace tb::compressible {

void PseudoTimeSolver::sync_host() const {
  if (!host_stale_) return;
  w_ = resident_->download();
  // The residual recomputed here also leaves the discretisation's reconstruction of this state.
  disc_.residual(w_, order_, r_);
  host_stale_ = false;
}

bool PseudoTimeSolver::can_reside() const { return !disc_.manufactured(); }

void PseudoTimeSolver::reside(Backend backend, systems::LinearSystems& systems) {
  if (!can_reside()) throw Error("internal: a pseudo-time solver with manufactured boundaries resides on the host");
  sync_host();
  resident_ = std::make_unique<ResidentFlow>(backend, disc_, owned_);
  resident_->upload(w_);
  // The systems' vectors hold the owned cells; a residual, every local cell.
  const std::size_t local = w_.size() * num_vars, own = std::size_t(owned_) * num_vars;
  for (Vector* v : {&rhs_on_, &dw_on_, &probe_dw_}) *v = Vector(backend, own);
  probe_r_ = Vector(backend, local);
  a_.values.resize(a_.col_idx.size() * num_vars * num_vars);  // read as a pattern: sized, not filled
  systems.set_pattern(flow_id_, a_);
  a_.values = std::vector<double>();  // the values live where the systems keep them, a piece's off-rank blocks too
  if (settings_.jacobian_reuse > 1) {
    assembled_on_ = Vector(backend, local);
    if (keeps_assembled_state()) {
      assembled_on_.copy_from_host(doubles_of(assembled_w_));
      assemble_pending_ = true;
    }
  }
  evaluate_residual();
}

// The exact form's columns from the residuals of perturbed states, where the state lives.
void PseudoTimeSolver::assemble_exact(systems::LinearSystems& systems) {
  if (!resident_) return coloured_->assemble(disc_, w_, r_, order_, shift_, a_);
  coloured_->assemble_on(*resident_, order_, systems.device_values(flow_id_).values);
  systems.values_written(flow_id_);
}

void PseudoTimeSolver::assemble_loaded(systems::LinearSystems& systems) {
  resident_->spectral_radius_sums(assembled_on_.data());
  resident_->set_shift(assembled_cfl_);
  assemble_resident(systems, assembled_on_.data());
  assemble_pending_ = false;
}

// The first-order Jacobian at w (the current state where null) where the
// systems keep it, a piece's blocks in ghost columns beside it (DeviceValues).
void PseudoTimeSolver::assemble_resident(systems::LinearSystems& systems, const double* w) {
  const systems::DeviceValues dv = systems.device_values(flow_id_);
  resident_->assemble_jacobian(dv.values, dv.off_rank_values, w);
  systems.values_written(flow_id_);
}

State PseudoTimeSolver::wall_force_sums() const {
  if (resident_) return resident_->wall_forces(order_);
  return disc_.wall_forces(w_, order_, owned_);
}

void PseudoTimeSolver::keep() {
  if (!resident_) throw Error("internal: PseudoTimeSolver::keep keeps a resident state");
  const std::size_t local = resident_->state_array().size();
  if (kept_w_.size() != local)
    kept_w_ = Vector(resident_->backend(), local), kept_r_ = Vector(resident_->backend(), local);
  kept_w_.copy_from(resident_->state_array());
  kept_r_.copy_from(resident_->residual_array());
  kept_ = {order_, cfl_, norm_, energy_reference_, best_norm_, norms_, steps_, since_best_, matrix_free_ != nullptr};
}

void PseudoTimeSolver::restore_kept() {
  if (kept_.steps < 0) throw Error("internal: PseudoTimeSolver::restore_kept without keep");
  resident_->state_array().copy_from(kept_w_);
  resident_->residual_array().copy_from(kept_r_);
  order_ = kept_.order, cfl_ = kept_.cfl, norm_ = kept_.norm, energy_reference_ = kept_.energy_reference;
  best_norm_ = kept_.best_norm, norms_ = kept_.norms, steps_ = kept_.steps, since_best_ = kept_.since_best;
  if (!kept_.matrix_free && settings_.jacobian != JacobianForm::matrix_free) matrix_free_.reset();
  healthy_ = false;  // the Jacobian in the systems is a later state's
  host_stale_ = true;
}

}  // namespace tb::compressible
