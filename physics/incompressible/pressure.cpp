#include "physics/incompressible/pressure.hpp"

#include "physics/incompressible/kernels.hpp"

namespace tb::incompressible {

void assemble_poisson(const FvGrid& g, const StencilPattern& pattern, BsrMatrix& a, BsrMatrix* off_rank) {
  check_off_rank(pattern, off_rank, "assemble_poisson");
  const BlockView blocks{a.values.data(), off_rank ? off_rank->values.data() : nullptr, 1};
  kernels::poisson_rows(Backend::host, g.view(), positions(pattern), blocks);
}

void poisson_rhs(const FvGrid& g, const FaceVelocities& faces, double dt, std::span<double> rhs) {
  kernels::poisson_rhs(Backend::host, g.view(), faces.view(), dt, rhs.data());
}

void add_poisson_product(const FvGrid& g, const StencilPattern& pattern, const BsrMatrix& a, const BsrMatrix* off_rank,
                         std::span<const double> p, std::span<double> out) {
  const ConstBlockView blocks{a.values.data(), off_rank ? off_rank->values.data() : nullptr, 1};
  kernels::add_poisson_product(Backend::host, g.view(), positions(pattern), blocks, p.data(), out.data());
}

}  // namespace tb::incompressible
