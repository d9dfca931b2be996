#include "physics/compressible/resident_flow.hpp"

#include <algorithm>
#include <span>
#include <string>

#include "solvers/core/cuda_call.hpp"
#include "solvers/core/error.hpp"
#include "solvers/core/kernels.hpp"
#include "solvers/core/memory.hpp"

namespace tb::compressible {

namespace {

std::vector<index_t> flat_positions(const JacobianPattern& p) {
  std::vector<index_t> out;
  out.reserve(4 * p.faces.size());
  for (const FaceBlocks& b : p.faces) out.insert(out.end(), {b.ll, b.lr, b.rl, b.rr});
  return out;
}

}  // namespace

ResidentFlow::ResidentFlow(Backend b, const EulerDiscretisation& disc, index_t owned)
    : backend_(b),
      disc_(disc),
      owned_(owned < 0 ? disc.num_cells() : owned),
      mesh_(b, disc.kernel_mesh()),
      face_blocks_(b, std::span<const index_t>(flat_positions(disc.pattern()))),
      diagonal_(b, std::span<const index_t>(disc.pattern().diagonal)),
      w_(b, 4 * std::size_t(disc.num_cells())),
      trial_(b, 4 * std::size_t(disc.num_cells())),
      r_(b, 4 * std::size_t(disc.num_cells())),
      face_(b, 32 * std::size_t(disc.mesh().num_faces())),
      sums_(b, std::size_t(disc.num_cells())),
      shift_(b, std::size_t(disc.num_cells())),
      primitive_(b, 4 * std::size_t(disc.num_cells())),
      grad_(b, 8 * std::size_t(disc.num_cells())),
      phi_(b, std::span<const double>(std::vector<double>(4 * std::size_t(disc.num_cells()), 1.0))),
      ghost_(b, 4 * std::size_t(disc.mesh().num_faces())),
      values_(disc.pattern().matrix.col_idx.size() * num_vars * num_vars),
      off_rank_values_(disc.pattern().off_rank.col_idx.size() * num_vars * num_vars) {
  if (disc.manufactured()) throw Error("ResidentFlow: manufactured boundaries are not resident");
  if (owned_ > disc.num_cells())
    throw Error("internal: ResidentFlow of " + std::to_string(owned_) + " owned cells, the piece has " +
                std::to_string(disc.num_cells()));
}

void ResidentFlow::upload(const std::vector<State>& w) {
  if (w.size() != std::size_t(disc_.num_cells())) throw Error("ResidentFlow::upload: one state per cell expected");
  w_.copy_from_host(std::span<const double>(w.front().data(), 4 * w.size()));
}

std::vector<State> ResidentFlow::download() const {
  std::vector<State> w(std::size_t(disc_.num_cells()));
  w_.copy_to_host(std::span<double>(w.front().data(), 4 * w.size()));
  return w;
}

std::vector<State> ResidentFlow::download_residual() const {
  std::vector<State> r(std::size_t(disc_.num_cells()));
  r_.copy_to_host(std::span<double>(r.front().data(), 4 * r.size()));
  return r;
}

State ResidentFlow::residual_of(const double* w, int order, double* r) {
  residual_into(w, order, r);
  return kernels::squared_sums(backend_, owned_, r);
}

void ResidentFlow::residual_into(const double* w, int order, double* r) {
  if (order != 1 && order != 2) throw Error("ResidentFlow::residual: order " + std::to_string(order));
  const MeshView m = mesh_.view();
  const SchemeView& s = disc_.scheme_view();
  const bool viscous = s.viscous.enabled();
  FlowView q;
  q.w = w;
  if (order == 2 || viscous) gradients_of(q);
  if (order == 2 && disc_.settings().limiter)
    kernels::limiter_phi(backend_, m, primitive_.data(), grad_.data(), phi_.data());
  FlowView inviscid = q;
  if (order == 2)
    inviscid.phi = phi_.data();
  else
    inviscid.primitive = nullptr, inviscid.grad = nullptr;
  kernels::inviscid_face_fluxes(backend_, m, s, inviscid, order, face_.data());
  kernels::gather_face_sums(backend_, m, FaceSign::out_of_left, num_vars, face_.data(), r);
  if (viscous) {
    kernels::viscous_face_fluxes(backend_, m, s, q, face_.data());
    kernels::add_face_sums(backend_, m, FaceSign::out_of_left, num_vars, face_.data(), r);
  }
}

void ResidentFlow::gradients_of(FlowView& q) {
  const MeshView m = mesh_.view();
  const SchemeView& s = disc_.scheme_view();
  kernels::cell_primitives(backend_, disc_.num_cells(), s.gas, q.w, primitive_.data());
  if (m.ghost_offset) kernels::ghost_primitives(backend_, m, s, q, ghost_.data());
  kernels::least_squares_gradients(backend_, m, primitive_.data(), ghost_.data(), grad_.data());
  q.primitive = primitive_.data(), q.grad = grad_.data();
}

State ResidentFlow::state_squared_sums() const { return kernels::squared_sums(backend_, owned_, w_.data()); }

void ResidentFlow::spectral_radius_sums(const double* w) {
  const MeshView m = mesh_.view();
  kernels::spectral_radius_faces(backend_, m, disc_.scheme_view(), w ? w : w_.data(), face_.data());
  kernels::gather_face_sums(backend_, m, FaceSign::both, 1, face_.data(), sums_.data());
}

void ResidentFlow::set_shift(double cfl) {
  kernels::pseudo_time_shift(backend_, disc_.num_cells(), sums_.data(), cfl, shift_.data());
}

void ResidentFlow::assemble_jacobian(double* values, double* off_rank, const double* w) {
  if (off_rank_values_ > 0 && !off_rank)
    throw Error("internal: a piece's Jacobian assembled without a place for its blocks in ghost columns");
  const MeshView m = mesh_.view();
  FlowView q;
  q.w = w ? w : w_.data();
  // gather_jacobian_rows adds each face's blocks to its rows.
  const auto zero = [&](double* to, std::size_t n) {
    if (n == 0) return;
    if (backend_ == Backend::cuda)
      TB_CUDA_CALL(tb::kernels::cuda::fill(to, 0.0, n));
    else
      tb::kernels::omp::fill(to, 0.0, n);
  };
  zero(values, values_);
  zero(off_rank, off_rank_values_);
  const JacobianView a{face_blocks_.data(), values, off_rank};
  kernels::jacobian_face_blocks(backend_, m, disc_.scheme_view(), q, face_.data());
  kernels::gather_jacobian_rows(backend_, m, face_.data(), a);
  if (disc_.scheme_view().viscous.enabled()) {
    kernels::viscous_jacobian_face_blocks(backend_, m, disc_.scheme_view(), q.w, face_.data());
    kernels::gather_jacobian_rows(backend_, m, face_.data(), a);
  }
  kernels::add_diagonal_shift(backend_, disc_.num_cells(), diagonal_.data(), shift_.data(), values);
}

double ResidentFlow::max_relative_change(const double* dw) const {
  return kernels::max_relative_change(backend_, owned_, disc_.settings().gas, w_.data(), dw);
}

bool ResidentFlow::make_trial(const double* dw, double omega) {
  const std::size_t own = 4 * std::size_t(owned_), ghosts = w_.size() - own;
  if (ghosts > 0) memory::copy(trial_.data() + own, backend_, w_.data() + own, backend_, ghosts * sizeof(double));
  return kernels::relaxed_update(backend_, owned_, disc_.settings().gas, w_.data(), dw, omega, trial_.data());
}

bool ResidentFlow::update(const double* dw, double omega) {
  if (!make_trial(dw, omega)) return false;
  accept_trial();
  return true;
}

State ResidentFlow::wall_forces(int order) {
  const MeshView m = mesh_.view();
  const SchemeView& s = disc_.scheme_view();
  FlowView q;
  q.w = w_.data();
  if (order == 2) {
    // The current state's reconstruction (the host's is the last residual's, of this state).
    gradients_of(q);
    if (disc_.settings().limiter) kernels::limiter_phi(backend_, m, primitive_.data(), grad_.data(), phi_.data());
    q.phi = phi_.data();
  }
  kernels::wall_forces(backend_, m, s, q, order, owned_, face_.data());
  return kernels::ordered_sums(backend_, m.num_faces, face_.data());
}

}  // namespace tb::compressible
