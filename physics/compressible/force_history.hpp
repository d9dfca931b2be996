#pragma once
// Whether the forces of a pseudo-time run have settled. The energy residual
// does not see every slow mode: inviscid flow past a smooth body admits any
// circulation, so the discrete circulation is a nearly free mode whose
// residual is tiny for a sizeable lift, and the finer the mesh, the smaller
// the residual of the same lift. A run stopped by the residual alone reports
// the lift its circulation still carries (docs/compressible.md, "The lift of a
// symmetric cylinder").
//
// Each coefficient's remaining change is estimated as the tail of a geometric
// series from its changes over the last two spans of `span` steps (single
// steps are too irregular: an inexact step may leave the circulation almost
// untouched and the next one move it): with d1, d2 those changes and
// r = |d2 / d1|, |d2| r / (1 - r) for r < 1, unbounded otherwise.
#include <array>
#include <cstddef>
#include <iosfwd>

namespace tb::compressible {

class ForceHistory {
 public:
  static constexpr std::size_t coefficients = 2;  // Cl, Cd
  static constexpr std::size_t span = 4;          // steps per change

  void add(double cl, double cd);
  // |last span's change| + the estimated remaining change, the largest over the
  // coefficients; unbounded (infinity) before 2 span + 1 values.
  double unsettled() const;
  // unsettled() <= tol; also when every step's change over the last 2 span
  // steps is below tol / 1000 (round-off near a converged state has no ratio to go by).
  bool settled(double tol) const;
  std::size_t size() const { return count_; }

  // For checkpoints: a restarted run settles as the uninterrupted one does.
  void save(std::ostream& out) const;
  void load(std::istream& in);

 private:
  static constexpr std::size_t kept = 2 * span + 1;
  std::array<std::array<double, kept>, coefficients> last_{};  // oldest first
  std::size_t count_ = 0;
};

}  // namespace tb::compressible
