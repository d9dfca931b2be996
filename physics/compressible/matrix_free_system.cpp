#include "physics/compressible/matrix_free_system.hpp"

#include <cmath>

#include "physics/compressible/kernels.hpp"
#include "physics/compressible/loop_bodies.hpp"
#include "physics/compressible/resident_flow.hpp"
#include "solvers/core/error.hpp"
#include "solvers/core/kernels.hpp"
#include "solvers/core/timer.hpp"

namespace tb::compressible {

// Dot products over the owned entries of every rank: one reduction each, as the
// solver layer's MPI vector space does for the distributed BSR systems.
class MatrixFreeSystem::ShareSpace final : public VectorSpace {
 public:
  explicit ShareSpace(const DomainShare* share) : share_(share) {}
  double dot(const Vector& x, const Vector& y) const override {
    const double local = VectorSpace::dot(x, y);
    return share_ ? share_->sum(local) : local;
  }
  void multi_dot(const Vector* const* v, int k, const Vector& w, double* out) const override {
    VectorSpace::multi_dot(v, k, w, out);
    if (share_) share_->sum(std::span<double>(out, std::size_t(k)));
  }
  void reduce(double* sum_values, int k, double* max_values, int m) const override {
    if (!share_) return;
    share_->sum(std::span<double>(sum_values, std::size_t(k)));
    share_->max(std::span<double>(max_values, std::size_t(m)));
  }
  bool reduces_across_processes() const override { return share_ != nullptr; }

 private:
  const DomainShare* share_;
};

// y = shift x + (R(w + h x) - R(w)) / h on the owned cells.
class MatrixFreeSystem::Operator final : public LinearOperator {
 public:
  Operator(EulerDiscretisation& disc, const DomainShare* share, index_t owned, const ShareSpace& space)
      : disc_(disc), share_(share), owned_(owned), space_(space) {}

  void bind(const std::vector<State>& w, const std::vector<State>& r, int order, std::span<const double> shift) {
    w_ = &w, r_ = &r, order_ = order, shift_ = shift;
    const State sums = kernels::squared_sums(Backend::host, owned_, w.front().data());
    const double sq = sums[0] + sums[1] + sums[2] + sums[3];
    w_norm_ = std::sqrt(share_ ? share_->sum(sq) : sq);
  }

  index_t rows() const override { return owned_ * num_vars; }
  Backend backend() const override { return Backend::host; }

  void apply(const Vector& x, Vector& y) const override {
    // The step h of Walker and Pernice (PETSc's MATMFFD_WP): the relative
    // rounding of w + h x stays near sqrt(eps).
    const double h = bodies::difference_step(space_.dot(x, x), w_norm_);
    if (h == 0.0) {  // x = 0: the Krylov frame's r0 = b - A x0 from a zero guess
      y.set_zero();
      return;
    }
    const std::size_t own = std::size_t(owned_);
    trial_ = *w_;  // ghosts included; theirs are replaced by the exchange below
    const index_t n = index_t(own * num_vars);
    kernels::perturbed_state(Backend::host, n, w_->front().data(), &h, x.data(), trial_.front().data());
    if (share_) share_->exchange(doubles_of(trial_), num_vars);
    disc_.residual(trial_, order_, trial_r_);
    kernels::difference_product(Backend::host, owned_, shift_.data(), x.data(), trial_r_.front().data(),
                                r_->front().data(), &h, y.data());
  }

 private:
  EulerDiscretisation& disc_;
  const DomainShare* share_;
  index_t owned_;
  const ShareSpace& space_;
  const std::vector<State>* w_ = nullptr;
  const std::vector<State>* r_ = nullptr;
  int order_ = 2;
  std::span<const double> shift_;
  double w_norm_ = 0.0;
  mutable std::vector<State> trial_, trial_r_;  // sized on the first product, kept
};

// The same product on the state resident in a ResidentFlow (the mesh or a
// piece, the owned cells' rows), its vectors on the flow's backend.
class MatrixFreeSystem::ResidentOperator final : public LinearOperator {
 public:
  ResidentOperator(ResidentFlow& flow, const DomainShare* share, const VectorSpace& space)
      : flow_(flow),
        share_(share),
        space_(space),
        trial_(flow.backend(), 4 * std::size_t(flow.num_cells())),
        trial_r_(flow.backend(), 4 * std::size_t(flow.num_cells())),
        x_squared_(flow.backend(), 1),
        step_(flow.backend(), 1),
        w_sums_(flow.backend(), num_vars) {}

  // zero: the solve's initial guess, zero, whose product is taken without a
  // residual. ||w|| for the step: on one process its sums stay where w is.
  void bind(int order, const Vector* zero) {
    order_ = order;
    zero_ = zero;
    if (!space_.reduces_across_processes()) {
      compressible::kernels::squared_sums_to(flow_.backend(), flow_.owned(), flow_.state(), w_sums_.data());
      return;
    }
    const State sums = flow_.state_squared_sums();
    const double sq = sums[0] + sums[1] + sums[2] + sums[3];
    w_norm_ = std::sqrt(share_ ? share_->sum(sq) : sq);
  }

  index_t rows() const override { return flow_.owned() * num_vars; }
  Backend backend() const override { return flow_.backend(); }

  // Where the space is one process's, h is formed where x and w are (nothing
  // read back); across ranks its reduction is the host's, and h goes to the backend.
  void apply(const Vector& x, Vector& y) const override {
    if (&x == zero_) {  // the Krylov frame's r0 = b - A x0 from the zero guess
      zero_ = nullptr;
      y.set_zero();
      return;
    }
    const Backend b = flow_.backend();
    if (space_.reduces_across_processes()) {
      const double h = bodies::difference_step(space_.dot(x, x), w_norm_);
      step_.copy_from_host(std::span<const double>(&h, 1));
    } else {
      tb::kernels::dot_to(x, x, x_squared_.data());
      compressible::kernels::difference_step(b, x_squared_.data(), w_sums_.data(), step_.data());
    }
    if (share_) trial_.copy_from(flow_.state_array());  // ghosts included; theirs are replaced by the exchange below
    compressible::kernels::perturbed_state(b, rows(), flow_.state(), step_.data(), x.data(), trial_.data());
    if (share_) share_->exchange_on(b, trial_.data(), num_vars);
    flow_.residual_into(trial_.data(), order_, trial_r_.data());
    // y = 0 where x = 0 (h = 0).
    compressible::kernels::difference_product(b, flow_.owned(), flow_.shift(), x.data(), trial_r_.data(),
                                              flow_.residual_values(), step_.data(), y.data());
  }

 private:
  ResidentFlow& flow_;
  const DomainShare* share_;
  const VectorSpace& space_;
  int order_ = 2;
  double w_norm_ = 0.0;  // across ranks
  mutable Vector trial_, trial_r_;
  mutable Vector x_squared_, step_;  // one number each, on the backend
  Vector w_sums_;                    // on one process: w's four squared sums, on the backend
  mutable const Vector* zero_ = nullptr;
};

// z = the first-order system's solution for the right-hand side r: one solve
// of the run's linear solver, to its own tolerance (so it varies: FGMRES).
class MatrixFreeSystem::FirstOrderPreconditioner final : public Preconditioner {
 public:
  void bind(const FirstOrderSystem& system, std::vector<SolveStats>& inner, double& seconds) {
    system_ = &system, inner_ = &inner, seconds_ = &seconds;
  }
  void setup(const BsrMatrix&, Backend) override {}
  void update(const BsrMatrix&) override {}
  void apply(const Vector& r, Vector& z) const override {
    z.set_zero();
    const WallTimer t;
    if (system_->a)
      inner_->push_back(system_->systems.solve(system_->system, *system_->a, r.host_span(), z.host_span()));
    else
      inner_->push_back(system_->systems.solve(system_->system, r, z));
    *seconds_ += t.seconds();
  }
  bool supports(Backend b) const override { return b == Backend::host || !system_ || !system_->a; }
  bool is_variable() const override { return true; }

 private:
  const FirstOrderSystem* system_ = nullptr;
  std::vector<SolveStats>* inner_ = nullptr;
  double* seconds_ = nullptr;
};

MatrixFreeSystem::MatrixFreeSystem(EulerDiscretisation& disc, const DomainShare* share, index_t owned,
                                   MatrixFreeSettings settings)
    : settings_(settings),
      space_(std::make_unique<ShareSpace>(share)),
      b_(Backend::host, std::size_t(owned) * num_vars),
      x_(Backend::host, std::size_t(owned) * num_vars),
      share_(share) {
  if (!(settings.rtol > 0.0 && settings.rtol < 1.0)) throw Error("jacobian.matrix_free_rtol must lie in (0, 1)");
  if (settings.maxit < 1) throw Error("jacobian.matrix_free_maxit must be at least 1");
  op_ = std::make_unique<Operator>(disc, share, owned, *space_);
  pc_ = std::make_unique<FirstOrderPreconditioner>();
  fgmres_ = outer_method(settings.scalars);
}

std::unique_ptr<KrylovMethod> MatrixFreeSystem::outer_method(GmresScalars scalars) const {
  StopCriteria stop;
  stop.rtol = settings_.rtol;
  stop.maxit = settings_.maxit;
  stop.stagnation_window = 0;
  // With the scalars on a device (gmres.hpp) each iteration is checked: an
  // outer iteration is a whole inner solve, and one queued past the stop
  // would cost one and count it.
  auto fgmres =
      make_gmres(stop, settings_.maxit, /*flexible=*/true, Orthogonalization::cgs, scalars, /*queue_ahead=*/false);
  fgmres->set_vector_space(space_.get());
  // A pseudo-step reads the outer solve's ends, not its history (which a device copies back).
  fgmres->record_history(false);
  return fgmres;
}

MatrixFreeSystem::~MatrixFreeSystem() = default;

SolveStats MatrixFreeSystem::solve(const std::vector<State>& w, const std::vector<State>& r, int order,
                                   std::span<const double> shift, std::span<const double> rhs, std::span<double> dw,
                                   const FirstOrderSystem& first_order, std::vector<SolveStats>& inner,
                                   double& inner_seconds) {
  op_->bind(w, r, order, shift);
  pc_->bind(first_order, inner, inner_seconds);
  b_.copy_from_host(rhs);
  x_.set_zero();
  SolveStats st = fgmres_->solve(*op_, *pc_, b_, x_);
  st.solver = "matrix_free(fgmres)";
  x_.copy_to_host(dw);
  return st;
}

SolveStats MatrixFreeSystem::solve(ResidentFlow& flow, int order, const Vector& rhs, Vector& dw,
                                   const FirstOrderSystem& first_order, std::vector<SolveStats>& inner,
                                   double& inner_seconds) {
  if (!resident_op_) {
    resident_op_ = std::make_unique<ResidentOperator>(flow, share_, *space_);
    // Resident, the step is a device's or its host twin: the automatic place
    // of the scalars is the state's backend on one process (as it is for
    // device vectors), so the twin reads what the device reads.
    const bool automatic = settings_.scalars == GmresScalars::automatic;
    resident_fgmres_ = outer_method(automatic && !share_ ? GmresScalars::backend : settings_.scalars);
  }
  resident_op_->bind(order, &dw);
  pc_->bind(first_order, inner, inner_seconds);
  SolveStats st = resident_fgmres_->solve(*resident_op_, *pc_, rhs, dw);
  st.solver = "matrix_free(fgmres)";
  return st;
}

void MatrixFreeSystem::apply(const std::vector<State>& w, const std::vector<State>& r, int order,
                             std::span<const double> shift, std::span<const double> x, std::span<double> y) {
  op_->bind(w, r, order, shift);
  b_.copy_from_host(x);
  op_->apply(b_, x_);
  x_.copy_to_host(y);
}

}  // namespace tb::compressible
