#pragma once
// GBCG, seed 004 Algorithm 1: BiCGStab with the Jacobi K = diag(A) on one
// rank's DIA slab. The algorithm sees no hardware: kernels.hpp does the device
// steps, the comm::Communicator's VectorSpace::reduce the scalar communication and
// its comm::GhostExchange the vector communication, so one rank and many run the
// same code. Two ghost exchanges per iteration (before v = A y and t = A z).
//
// Scalar communication: Algorithm 1 has four solid boxes per iteration
// (||r||_max, rho, alpha, omega's two dots). By variant:
//   classic: the stopping norms are taken in the same pass and the same
//     reduction as the next rho (both read the new r): THREE reductions,
//       1. <r0hat, r>, <r, r>, ||r||_max     (fused into the x, r update)
//       2. <r0hat, v>                         (alpha)
//       3. <K^-1 t, K^-1 s>, <K^-1 t, K^-1 t> (omega)
//   one_reduction (the registry's default): ONE reduction after t = A z, the
//     next rho and <r0hat, v> coming by recurrence from inner products with
//     s, t, v and f = (A K^-1)^T r0hat (Yang & Brent's improved BiCGStab,
//     gbcg.cpp); ||r||_max and ||r|| of the previous iterate ride along, as
//     Algorithm 1 places its check. Needs the slab of A^T (for f, once per
//     solve) and does the SpMVs of one more iteration before it stops.
// Both give the same iterates in exact arithmetic.
#include <memory>
#include <vector>

#include "banded_product.hpp"
#include "banded_stop.hpp"
#include "solvers/comm/communicator.hpp"

namespace tb::banded {

enum class GbcgVariant { one_reduction, classic };

class Gbcg {
 public:
  // The classic variant. slab: this rank's rows of A (its offsets must be
  // those of the whole matrix).
  Gbcg(const DiaMatrix& slab, std::shared_ptr<const comm::Communicator> comm, const comm::RowPartition& part,
       BandedStop stop, Backend backend);
  // The one-reduction variant; transposed_slab: the same rows of A^T
  // (transposed_dia_from_bsr).
  Gbcg(const DiaMatrix& slab, const DiaMatrix& transposed_slab, std::shared_ptr<const comm::Communicator> comm,
       const comm::RowPartition& part, BandedStop stop, Backend backend);
  GbcgVariant variant() const { return at_ ? GbcgVariant::one_reduction : GbcgVariant::classic; }
  // Numeric only; the one-reduction variant takes both slabs.
  void update_values(const DiaMatrix& slab);
  void update_values(const DiaMatrix& slab, const DiaMatrix& transposed_slab);
  // Limits the solves that follow (applicable_limit's; {} lifts it).
  void limit(SolveLimit l) { stop_.limit = l; }
  // Local rows of b and x on the backend; x holds the initial guess. Every rank
  // returns the same SolveStats; final_residual is ||b - A x||_2 recomputed.
  SolveStats solve(const Vector& b, Vector& x);
  // Accumulated over the solves since the last reset.
  const SolveTimes& times() const { return times_; }
  void reset_times() { times_ = {}; }
  index_t rows() const { return rows_; }

 private:
  Gbcg(const DiaMatrix& slab, const DiaMatrix* transposed_slab, std::shared_ptr<const comm::Communicator> comm,
       const comm::RowPartition& part, BandedStop stop, Backend backend);
  void set_inverse_diagonal(const DiaMatrix& slab);
  Partials reduce(Partials p, int sums, bool with_max);
  double true_residual(const Vector& b, const Vector& x);
  // Iterate from r = r0hat = b - A x, p = v = 0 until st.reason is set; return the iterations.
  int iterate_classic(const BicgVectors& w, SolveStats& st);
  int iterate_one_reduction(const BicgVectors& w, SolveStats& st);

  std::shared_ptr<const comm::Communicator> comm_;
  BandedStop stop_;
  Backend backend_;
  index_t rows_;
  DiaProduct a_;
  std::unique_ptr<DiaProduct> at_;  // A^T: the one-reduction variant's, else null
  std::unique_ptr<comm::GhostExchange> exchange_;
  std::vector<double> dinv_host_;                // staging for K^{-1} on numeric updates
  Vector dinv_, r_, r0hat_, p_, v_, s_, t_, f_;  // f_: the one-reduction variant's
  comm::GhostedVector y_, z_;
  SolveTimes times_;
};

// inv[i] = 1 / A(i,i) for every row of a slab (inv is resized, so a buffer
// kept between updates is allocated once); tb::Error names the first global
// row with a zero or non-finite diagonal.
void inverse_diagonal(const DiaMatrix& slab, std::vector<double>& inv);

}  // namespace tb::banded
