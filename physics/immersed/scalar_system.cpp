#include "physics/immersed/scalar_system.hpp"

#include <algorithm>
#include <utility>

#include "physics/immersed/kernels.hpp"

namespace tb::immersed {

bool has_neighbour(const CartesianGrid& grid, const std::array<index_t, 3>& c, int d, int s) {
  return c[d] + s >= 0 && c[d] + s < grid.cells(d);
}

double eq7_coefficient(const CartesianGrid& grid, const std::array<index_t, 3>& c, int d, int s) {
  const double w = grid.axis(d).widths[c[d]];
  if (!has_neighbour(grid, c, d, s)) return 1.0 / (w * 0.5 * w);
  return 1.0 / (w * grid.spacing(d, s > 0 ? c[d] : c[d] - 1));
}

namespace {

Vec3 face_centre(const CartesianGrid& grid, const std::array<index_t, 3>& c, int d, int s) {
  Vec3 x = grid.centre(c);
  x[d] = grid.axis(d).nodes[c[d] + (s > 0 ? 1 : 0)];
  return x;
}

}  // namespace

SystemPattern make_system_pattern(const CartesianGrid& grid, const GhostCells& ib) {
  SystemPattern p;
  BsrMatrix& a = p.matrix;
  const index_t n = grid.num_cells(), begin = grid.owned_cell_begin(), end = grid.owned_cell_end();
  a.block_size = 1;
  a.block_rows = end - begin;
  a.block_cols = grid.whole_cells();
  a.row_ptr.assign(std::size_t(a.block_rows) + 1, 0);
  a.col_idx.reserve(std::size_t(a.block_rows) * 7);
  p.diagonal.assign(std::size_t(n), -1);
  p.neighbour.assign(std::size_t(n), {-1, -1, -1, -1, -1, -1});
  p.ghost_dirichlet.assign(ib.ghosts.size(), {});
  p.ghost_neumann.assign(ib.ghosts.size(), {});
  std::vector<std::pair<index_t, int>>
      row;  // (column, slot): slots 0-5 the neighbours, 99 the diagonal, -1 a stencil's
  for (index_t cell = begin; cell < end; ++cell) {
    row.clear();
    row.push_back({cell, 99});
    const auto c = grid.ijk(cell);
    if (ib.types[cell] == CellType::fluid) {
      for (int d = 0; d < 3; ++d)
        for (int s : {-1, 1})
          if (has_neighbour(grid, c, d, s)) row.push_back({cell + s * grid.stride(d), side_of(d, s)});
    } else if (ib.types[cell] == CellType::ghost) {
      const GhostCell& g = ib.ghosts[std::size_t(ib.ghost_of[cell])];
      for (const WallStencil* w : {&g.dirichlet, &g.neumann})
        for (index_t k : w->cells) row.push_back({k, -1});
    }
    std::sort(row.begin(), row.end());
    row.erase(std::unique(row.begin(), row.end(), [](auto& x, auto& y) { return x.first == y.first; }), row.end());
    const index_t first = a.nnz_blocks();
    for (const auto& [column, slot] : row) {
      const index_t pos = a.nnz_blocks();
      if (slot == 99)
        p.diagonal[cell] = pos;
      else if (slot >= 0)
        p.neighbour[cell][slot] = pos;
      a.col_idx.push_back(grid.global_index(column));
    }
    a.row_ptr[cell - begin + 1] = a.nnz_blocks();
    if (ib.types[cell] != CellType::ghost) continue;
    // Each stencil entry's position: its column's place in the sorted row.
    const auto position = [&](index_t column) {
      const auto at = std::lower_bound(a.col_idx.begin() + first, a.col_idx.end(), grid.global_index(column));
      return index_t(at - a.col_idx.begin());
    };
    const std::size_t k = std::size_t(ib.ghost_of[cell]);
    for (index_t col : ib.ghosts[k].dirichlet.cells) p.ghost_dirichlet[k].push_back(position(col));
    for (index_t col : ib.ghosts[k].neumann.cells) p.ghost_neumann[k].push_back(position(col));
  }
  a.values.assign(a.col_idx.size(), 0.0);
  return p;
}

FlatStencils ghost_row_stencils(const GhostCells& ib, const SystemPattern& p, BodyCondition body) {
  FlatStencils s;
  const bool dirichlet = body == BodyCondition::dirichlet;
  for (std::size_t k = 0; k < ib.ghosts.size(); ++k) {
    const WallStencil& w = dirichlet ? ib.ghosts[k].dirichlet : ib.ghosts[k].neumann;
    s.add(dirichlet ? p.ghost_dirichlet[k] : p.ghost_neumann[k], w.weights, w.boundary_weight);
  }
  return s;
}

// The kernels read the neighbour positions as 6 index_t per cell.
static_assert(sizeof(std::array<index_t, 6>) == 6 * sizeof(index_t));

cell::RowsView rows_view(const SystemPattern& p, const BoxConditions& box, double alpha, double beta, double* values) {
  cell::RowsView v;
  for (int side = 0; side < 6; ++side) v.box[side] = box[std::size_t(side)];
  v.alpha = alpha;
  v.beta = beta;
  v.row_ptr = p.matrix.row_ptr.data();
  v.diagonal = p.diagonal.data();
  v.neighbour = p.neighbour.empty() ? nullptr : p.neighbour.front().data();
  v.values = values;
  return v;
}

void assemble_system(const CartesianGrid& grid, const GhostCells& ib, const SystemPattern& p, const BoxConditions& box,
                     BodyCondition body, double alpha, double beta, BsrMatrix& a) {
  kernels::system_rows(Backend::host, grid.view(ib.types.data()), rows_view(p, box, alpha, beta, a.values.data()));
  kernels::ghost_rows(Backend::host, ghost_row_stencils(ib, p, body).view(), a.values.data());
}

void add_box_values(const CartesianGrid& grid, const GhostCells& ib, const BoxConditions& box, double beta,
                    const FaceValue& value, std::span<double> rhs) {
  for (int d = 0; d < 3; ++d)
    for (int s : {-1, 1}) {
      if (box[side_of(d, s)] != FaceKind::dirichlet || grid.is_interface(side_of(d, s))) continue;
      const int a = (d + 1) % 3, b = (d + 2) % 3;
      std::array<index_t, 3> c{};
      c[d] = s < 0 ? 0 : grid.cells(d) - 1;
      for (c[b] = 0; c[b] < grid.cells(b); ++c[b])
        for (c[a] = 0; c[a] < grid.cells(a); ++c[a]) {
          const index_t cell = grid.index(c);
          if (ib.types[cell] != CellType::fluid || !grid.owns(c)) continue;
          rhs[cell] += beta * eq7_coefficient(grid, c, d, s) * value(side_of(d, s), face_centre(grid, c, d, s));
        }
    }
}

void set_ghost_rhs(const GhostCells& ib, BodyCondition body, const std::function<double(const GhostCell&)>& value,
                   std::span<double> rhs) {
  for (const GhostCell& g : ib.ghosts)
    rhs[g.cell] = body == BodyCondition::dirichlet ? dirichlet_ghost_rhs(g, value(g)) : neumann_ghost_rhs(g, value(g));
}

void apply_laplacian(const CartesianGrid& grid, const GhostCells& ib, const BoxConditions& box, const FaceValue& value,
                     std::span<const double> phi, std::span<double> out) {
#pragma omp parallel for schedule(static)
  for (index_t cell = grid.owned_cell_begin(); cell < grid.owned_cell_end(); ++cell) {
    if (ib.types[cell] != CellType::fluid) {
      out[cell] = 0.0;
      continue;
    }
    const auto c = grid.ijk(cell);
    double sum = 0.0;
    for (int d = 0; d < 3; ++d)
      for (int s : {-1, 1}) {
        const double coef = eq7_coefficient(grid, c, d, s);
        if (has_neighbour(grid, c, d, s))
          sum += coef * (phi[cell + s * grid.stride(d)] - phi[cell]);
        else if (box[side_of(d, s)] == FaceKind::dirichlet)
          sum += coef * (value(side_of(d, s), face_centre(grid, c, d, s)) - phi[cell]);
      }
    out[cell] = sum;
  }
}

}  // namespace tb::immersed
