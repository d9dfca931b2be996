#pragma once
// Restarted GMRES(m) with right preconditioning (Saad & Schultz 1986) and its
// flexible variant FGMRES(m) (Saad 1993), which stores the preconditioned
// directions z_j = M_j^{-1} v_j so that M may change from one application to
// the next (asynchronous sweeps, inner iterations). Classical (default, fused
// kernels), classical with the Pythagorean norm, twice-classical or modified
// Gram-Schmidt, Givens rotations; the residual estimate |g_{j+1}| is that of
// b - A x itself.
//
// Its small dense algebra (Hessenberg matrix, rotations, estimate, stop test:
// gmres_scalars.hpp) runs on the host (gmres.cpp) or, with the scalars on the
// backend, where the Krylov vectors are (gmres_on_backend.cpp): there an
// iteration's reductions and the stop test leave nothing to read, the host
// queues iterations and reads a two-number record (with ||r0|| at the first)
// at checks spaced by the convergence seen so far (the first where the last
// solve stopped), and the iterations queued
// past the one that stopped are discarded:
// every iterate, estimate and stop is the host method's, bit for bit on the
// host. Scalars::automatic puts them on the backend for vectors on a device
// whose space is one process's (an MPI space reduces on the host) and whose
// solves have no clock limit (the autopilot's probes).
#include <memory>
#include <vector>

#include "gmres_scalars.hpp"
#include "krylov_method.hpp"

namespace tb {

class Gmres final : public KrylovMethod {
 public:
  Gmres(StopCriteria stop, int restart, bool flexible, Orthogonalization orthog, GmresScalars scalars,
        bool queue_ahead = true);
  bool accepts_variable_preconditioner() const override { return flexible_; }
  std::vector<std::size_t> work_indices() const override;
  SolveStats solve(const LinearOperator& a, const Preconditioner& m, const Vector& b, Vector& x) override;
  // Whether a solve with these vectors keeps its scalars on their backend.
  bool scalars_on_backend(const Vector& b) const;

 private:
  // gmres.cpp: the scalars on the host.
  SolveStats solve_on_host(const LinearOperator& a, const Preconditioner& m, const Vector& b, Vector& x);
  double& H(int i, int j) { return h_[i * m_ + j]; }
  Vector& basis(int i, const Vector& like) { return work(3 + i, like); }
  Vector& direction(int i, const Vector& like) { return work(4 + m_ + i, like); }
  double orthogonalize(int j, Vector& av, const Vector& like);
  void project(int j, Vector& av);
  void subtract_projection(int j, Vector& av);
  double project_pythagorean(int j, Vector& av);
  void update_solution(int j, const Preconditioner& m, const Vector& b, Vector& x);

  // gmres_on_backend.cpp: the scalars where the vectors are.
  SolveStats solve_on_backend(const LinearOperator& a, const Preconditioner& m, const Vector& b, Vector& x);
  void orthogonalize_on_backend(int j, int it, const StopFactors& factors, Vector& av, const Vector& like);
  void update_on_backend(int j, const Preconditioner& m, const Vector& b, Vector& x);
  // The record at the checks: [estimate, stop word] (gmres_scalars.hpp).
  void read_record(double* record) const;

  // Below this fraction of |av|^2 the Pythagorean norm's relative error,
  // about eps |av|^2 / (2 rest), could exceed 1e-10.
  static constexpr double kPythagorasLimit = 1e-6;

  int m_;
  bool flexible_;
  Orthogonalization orthog_;
  GmresScalars scalars_;
  // With the scalars on the backend, queue iterations between checks; false:
  // check every iteration, where an iteration queued past the stop would cost
  // too much (a preconditioner that is a whole inner solve).
  bool queue_ahead_;
  int last_iterations_ = 0;  // of the last solve with the scalars on the backend
  std::vector<double> h_, cs_, sn_, g_, y_, coef_;
  // The vectors of a fused step, the basis (orthogonalisation) or the
  // directions (update), and the basis's data for the scalar steps that reduce it.
  std::vector<const Vector*> basis_ptr_;
  std::vector<const double*> basis_data_;
  Vector on_backend_;                   // the scalars' array, on the vectors' backend
  gmres_scalars::View scalars_view_{};  // its parts
};

}  // namespace tb
