#include "physics/incompressible/pressure.hpp"

namespace tb::incompressible {

void assemble_poisson(const FvGrid& g, const StencilPattern& pattern, BsrMatrix& a, BsrMatrix* off_rank) {
  check_off_rank(pattern, off_rank, "assemble_poisson");
  const int n = g.dim();
  const index_t pin = g.pressure_pin();
  for (index_t cell = g.owned_cell_begin(); cell < g.owned_cell_end(); ++cell) {  // the matrix's rows
    const auto c = g.ijk(cell);
    const auto& pos = pattern.position[cell];
    double diag = 0.0;
    for (int d = 0; d < n; ++d)
      for (int s : {-1, 1}) {
        if (!has_neighbour(g, c, d, s)) continue;
        const double coef = g.area(d, c) / g.axis(d).spacing[g.face_below(c, d, s)];
        diag += coef;
        const index_t nb = g.neighbour(cell, c, d, s);
        *block_at(a, off_rank, pos[slot_of(d, s)]) = (cell == pin || nb == pin) ? 0.0 : -coef;
      }
    *a.block(pos[self_slot]) = cell == pin ? 1.0 : diag;
  }
}

void poisson_rhs(const FvGrid& g, const FaceVelocities& faces, double dt, std::span<double> rhs) {
  const int n = g.dim();
  const index_t pin = g.pressure_pin();
#pragma omp parallel for schedule(static) if (g.num_cells() >= openmp_min_length)
  for (index_t cell = 0; cell < g.num_cells(); ++cell) {
    const auto c = g.ijk(cell);
    double flux = 0.0;
    for (int d = 0; d < n; ++d)
      flux += g.area(d, c) * (faces.normal[d][faces.face(d, c, 1)] - faces.normal[d][faces.face(d, c, -1)]);
    rhs[cell] = cell == pin ? 0.0 : -flux / dt;
  }
}

void add_poisson_product(const FvGrid& g, const StencilPattern& pattern, const BsrMatrix& a, const BsrMatrix* off_rank,
                         std::span<const double> p, std::span<double> out) {
  const int n = g.dim();
  const index_t begin = g.owned_cell_begin();
  for (index_t cell = begin; cell < g.owned_cell_end(); ++cell) {
    const auto c = g.ijk(cell);
    const auto& pos = pattern.position[cell];
    double sum = *a.block(pos[self_slot]) * p[cell];
    for (int d = 0; d < n; ++d)
      for (int s : {-1, 1})
        if (has_neighbour(g, c, d, s))
          sum += *block_at(a, off_rank, pos[slot_of(d, s)]) * p[g.neighbour(cell, c, d, s)];
    out[cell - begin] += sum;
  }
}

}  // namespace tb::incompressible
