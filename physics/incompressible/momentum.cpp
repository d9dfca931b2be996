#include "physics/incompressible/momentum.hpp"

#include <algorithm>
#include <cmath>

#include "solvers/core/ordered_sum.hpp"

namespace tb::incompressible {

namespace {

using Cell = std::array<index_t, 3>;

// One cell's row: the residual and the blocks of its 7 slots.
struct RowAssembler {
  const FvGrid& g;
  const Boundaries& b;
  const MomentumInput& in;
  int n;

  void face(const Cell& c, index_t cell, int d, int s, double* res, double* diag, double* off) const {
    const double area = g.area(d, c);
    const AxisGeometry& ax = g.axis(d);
    const double* up = in.u.data() + std::size_t(n) * cell;
    if (!has_neighbour(g, c, d, s)) {
      // Boundary: Dirichlet velocity at half a cell; no dependence on the unknowns in the flux.
      const double* ub = b.value(side_of(d, s), c);
      const double flux = s * area * ub[d];
      const double diff = in.nu * area / (0.5 * ax.widths[c[d]]);
      for (int e = 0; e < n; ++e) {
        res[e] += -flux * ub[e] + diff * (ub[e] - up[e]);
        diag[e * n + e] += 0.5 * diff;
      }
      return;
    }
    const index_t nb = g.neighbour(cell, c, d, s);
    const double* un = in.u.data() + std::size_t(n) * nb;
    const index_t lo = g.face_below(c, d, s);
    const double w_self = s > 0 ? ax.weight[lo] : 1.0 - ax.weight[lo];
    const double w_nb = 1.0 - w_self;
    double uf[3] = {0.0, 0.0, 0.0};
    for (int e = 0; e < n; ++e) uf[e] = w_self * up[e] + w_nb * un[e];
    const double flux = s * area * uf[d];
    const double diff = in.nu * area / ax.spacing[lo];
    for (int e = 0; e < n; ++e) res[e] += -flux * uf[e] + diff * (un[e] - up[e]);
    // d(F u_f)/du_X = w_X (F I + s A u_f e_d^T); half of it for Crank-Nicolson.
    for (int r = 0; r < n; ++r)
      for (int q = 0; q < n; ++q) {
        const double jac = (r == q ? flux : 0.0) + (q == d ? s * area * uf[r] : 0.0);
        diag[r * n + q] += 0.5 * w_self * jac;
        off[r * n + q] += 0.5 * w_nb * jac;
      }
    for (int e = 0; e < n; ++e) {
      diag[e * n + e] += 0.5 * diff;
      off[e * n + e] -= 0.5 * diff;
    }
  }
};

}  // namespace

double assemble_momentum(const FvGrid& g, const Boundaries& b, const StencilPattern& pattern, const MomentumInput& in,
                         BsrMatrix& a, std::span<double> rhs, const DomainShare* share, BsrMatrix* off_rank) {
  const int n = g.dim();
  check_off_rank(pattern, off_rank, "assemble_momentum");
  const index_t own_begin = g.owned_cell_begin(), own_end = g.owned_cell_end();
  const RowAssembler row{g, b, in, n};
  // The norm adds in ordered_sums' fixed order: the same bits for any team size.
  const long grain = threading::stream_grain / 16;  // a row is about 16 streamed doubles per component
  // The matrix's rows: every cell, or a piece's owned cells.
  auto norm = ordered_sums<2>(own_end - own_begin, grain, [&](std::ptrdiff_t i, double* acc) {
    const index_t cell = own_begin + index_t(i);
    const Cell c = g.ijk(cell);
    const auto& pos = pattern.position[cell];
    for (int slot = 0; slot < 7; ++slot)
      if (pos[slot] != no_block) std::fill_n(block_at(a, off_rank, pos[slot]), a.block_entries(), 0.0);
    double* diag = a.block(pos[self_slot]);
    double* res = rhs.data() + std::size_t(n) * cell;
    const double vol = g.volume(c);
    for (int e = 0; e < n; ++e) {
      diag[e * n + e] = vol / in.dt;
      res[e] = vol * (in.body_force[e] - in.grad_p[std::size_t(n) * cell + e]);
    }
    for (int d = 0; d < n; ++d)
      for (int s : {-1, 1}) {
        const index_t p = pos[slot_of(d, s)];
        row.face(c, cell, d, s, res, diag, p != no_block ? block_at(a, off_rank, p) : nullptr);
      }
    for (int e = 0; e < n; ++e) acc[0] += res[e] * res[e] / vol;
    acc[1] += vol;
  });
  if (share) share->sum(norm);
  return std::sqrt(norm[0] / norm[1]);
}

}  // namespace tb::incompressible
