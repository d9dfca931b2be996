#pragma once
// The global reductions of the processes that share a vector: dot products and
// norms over all of them. Krylov methods call nothing else for dots, so one
// method runs on one process and on many; solvers/dist derives the MPI one.
#include "array.hpp"

namespace tb {

// Global reductions of the vector space: the identity on one process, MPI
// allreduce in solvers/dist. Krylov methods call nothing else for dots.
class VectorSpace {
 public:
  virtual ~VectorSpace() = default;
  virtual double dot(const Vector& x, const Vector& y) const;
  virtual double norm2(const Vector& x) const;
  // out[i] = (v[i], w): one global reduction for all k, where MPI needs one.
  virtual void multi_dot(const Vector* const* v, int k, const Vector& w, double* out) const;
  // Combines rank-local partial results in place, in one global reduction:
  // sum_values[0..k) are summed and max_values[0..m) maximised over the ranks.
  // Methods that compute their own partial sums (seed 004's GBCG, one fused
  // pass per synchronisation point) call this once per point. Identity here.
  virtual void reduce(double* sum_values, int k, double* max_values, int m) const;
  // Whether a reduction combines several processes' parts (on the host, through MPI).
  virtual bool reduces_across_processes() const { return false; }
};

}  // namespace tb
