#pragma once
// The coarsest level's direct solve: the dense inverse G of its operator, so
// that a solve is one matrix-vector product (a parallel one on a GPU, where a
// triangular solve would be sequential). A singular operator whose rows sum to
// zero (the pure Neumann problem: the constants are its null space) gets the
// inverse of the operator with one unknown fixed, between two projections
// that remove the mean, G = Pi G_fixed Pi with Pi = I - 1 1^T / n: the solve
// then returns the zero-mean solution of a consistent system, and G is
// symmetric where the operator is.
#include <vector>

#include "kernels.hpp"

namespace tb::mg {

// The largest coarsest level solved directly (the inverse holds n^2 doubles).
inline constexpr index_t max_direct_cells = 1024;

class CoarseInverse {
 public:
  // Allocates for an n-cell level (n <= max_direct_cells).
  void reserve(index_t n);
  // The level's operator as a dense matrix (its remainder included), inverted
  // by Gauss-Jordan elimination with partial pivoting. Throws tb::Error when it
  // is singular other than by the constants.
  void factor(const StencilView& a, const StencilPoints& points);
  index_t size() const { return n_; }
  bool singular() const { return singular_; }
  // Row-major n x n.
  const std::vector<double>& inverse() const { return inverse_; }

 private:
  index_t n_ = 0;
  bool singular_ = false;
  std::vector<double> inverse_, column_;
  std::vector<index_t> perm_;
};

}  // namespace tb::mg
