#include "physics/compressible/force_history.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <istream>
#include <limits>
#include <ostream>

#include "solvers/core/error.hpp"

namespace tb::compressible {

void ForceHistory::add(double cl, double cd) {
  const std::array<double, coefficients> values = {cl, cd};
  for (std::size_t k = 0; k < coefficients; ++k) {
    std::rotate(last_[k].begin(), last_[k].begin() + 1, last_[k].end());
    last_[k].back() = values[k];
  }
  ++count_;
}

double ForceHistory::unsettled() const {
  constexpr double unbounded = std::numeric_limits<double>::infinity();
  if (count_ < kept) return unbounded;
  double worst = 0.0;
  for (const auto& v : last_) {
    const double d1 = v[span] - v[0], d2 = v[2 * span] - v[span];
    if (!std::isfinite(d2)) return unbounded;
    if (d2 == 0.0) continue;
    const double r = d1 != 0.0 ? std::abs(d2 / d1) : unbounded;
    if (!(r < 1.0)) return unbounded;
    worst = std::max(worst, std::abs(d2) * (1.0 + r / (1.0 - r)));
  }
  return worst;
}

bool ForceHistory::settled(double tol) const {
  if (count_ < kept) return false;
  bool quiet = true;
  for (const auto& v : last_)
    for (std::size_t i = 1; i < kept; ++i) quiet = quiet && std::abs(v[i] - v[i - 1]) <= 1e-3 * tol;
  return quiet || unsettled() <= tol;
}

void ForceHistory::save(std::ostream& out) const {
  const auto n = static_cast<std::uint64_t>(count_);
  out.write(reinterpret_cast<const char*>(&n), sizeof n);
  out.write(reinterpret_cast<const char*>(last_.data()), sizeof last_);
}

void ForceHistory::load(std::istream& in) {
  std::uint64_t n = 0;
  in.read(reinterpret_cast<char*>(&n), sizeof n);
  in.read(reinterpret_cast<char*>(last_.data()), sizeof last_);
  if (!in) throw Error("checkpoint: the force history is truncated");
  count_ = std::size_t(n);
}

}  // namespace tb::compressible
