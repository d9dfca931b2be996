#include "physics/immersed/scalar_system.hpp"

#include <utility>

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
  p.ghost_node.assign(ib.ghosts.size(), {-1, -1, -1, -1, -1, -1, -1, -1});
  std::array<std::pair<index_t, int>, 9> row;  // (column, slot): slots 0-5 neighbours or 0-7 nodes, 99 the diagonal
  for (index_t cell = begin; cell < end; ++cell) {
    int count = 0;
    row[count++] = {cell, 99};
    const auto c = grid.ijk(cell);
    if (ib.types[cell] == CellType::fluid) {
      for (int d = 0; d < 3; ++d)
        for (int s : {-1, 1})
          if (has_neighbour(grid, c, d, s)) row[count++] = {cell + s * grid.stride(d), side_of(d, s)};
    } else if (ib.types[cell] == CellType::ghost) {
      const GhostCell& g = ib.ghosts[ib.ghost_of[cell]];
      for (int k = 0; k < 8; ++k)
        if (g.dirichlet.nodes[k] >= 0) row[count++] = {g.dirichlet.nodes[k], k};
    }
    // At most 9 entries: insertion sort by column.
    for (int e = 1; e < count; ++e)
      for (int f = e; f > 0 && row[f].first < row[f - 1].first; --f) std::swap(row[f], row[f - 1]);
    for (int e = 0; e < count; ++e) {
      const index_t pos = a.nnz_blocks();
      if (row[e].second == 99)
        p.diagonal[cell] = pos;
      else if (ib.types[cell] == CellType::fluid)
        p.neighbour[cell][row[e].second] = pos;
      else
        p.ghost_node[ib.ghost_of[cell]][row[e].second] = pos;
      a.col_idx.push_back(grid.global_index(row[e].first));
    }
    a.row_ptr[cell - begin + 1] = a.nnz_blocks();
  }
  a.values.assign(a.col_idx.size(), 0.0);
  return p;
}

void assemble_system(const CartesianGrid& grid, const GhostCells& ib, const SystemPattern& p, const BoxConditions& box,
                     BodyCondition body, double alpha, double beta, BsrMatrix& a) {
  std::fill(a.values.begin(), a.values.end(), 0.0);
  for (index_t cell = grid.owned_cell_begin(); cell < grid.owned_cell_end(); ++cell) {
    if (ib.types[cell] != CellType::fluid) {
      a.values[p.diagonal[cell]] = 1.0;
      continue;
    }
    const auto c = grid.ijk(cell);
    double diag = alpha;
    for (int d = 0; d < 3; ++d)
      for (int s : {-1, 1}) {
        const bool inside = has_neighbour(grid, c, d, s);
        if (!inside && box[side_of(d, s)] == FaceKind::neumann) continue;
        const double coef = beta * eq7_coefficient(grid, c, d, s);
        diag += coef;
        if (inside) a.values[p.neighbour[cell][side_of(d, s)]] = -coef;
      }
    a.values[p.diagonal[cell]] = diag;
  }
  for (std::size_t k = 0; k < ib.ghosts.size(); ++k) {
    const ImageInterpolation& w = body == BodyCondition::dirichlet ? ib.ghosts[k].dirichlet : ib.ghosts[k].neumann;
    const double sign = body == BodyCondition::dirichlet ? 1.0 : -1.0;
    // A node may repeat the diagonal's column only when replaced (-1), so += is safe.
    for (int n = 0; n < 8; ++n)
      if (p.ghost_node[k][n] >= 0) a.values[p.ghost_node[k][n]] += sign * w.weights[n];
  }
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
