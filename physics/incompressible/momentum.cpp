#include "physics/incompressible/momentum.hpp"

#include <algorithm>
#include <cmath>

#include "physics/incompressible/kernels.hpp"

namespace tb::incompressible {

double assemble_momentum(const FvGrid& g, const Boundaries& b, const StencilPattern& pattern, const MomentumInput& in,
                         BsrMatrix& a, std::span<double> rhs, const DomainShare* share, BsrMatrix* off_rank) {
  check_off_rank(pattern, off_rank, "assemble_momentum");
  const cell::MomentumView m{
      in.u.data(), in.grad_p.data(), in.nu, in.dt, {in.body_force[0], in.body_force[1], in.body_force[2]}};
  const BlockView blocks{a.values.data(), off_rank ? off_rank->values.data() : nullptr, a.block_entries()};
  // The norm adds in ordered_sums' fixed order: the same bits for any team size.
  return momentum_residual(
      kernels::momentum_rows(Backend::host, g.view(), b.view(), m, positions(pattern), blocks, rhs.data()), share);
}

double momentum_residual(const MomentumSums& sums, const DomainShare* share) {
  std::array<double, 2> norm = {sums.residual, sums.volume};
  if (share) share->sum(norm);
  return std::sqrt(norm[0] / norm[1]);
}

}  // namespace tb::incompressible
