#pragma once
// Random inputs for the multigrid kernels: a level's stencil (star or box,
// with or without a remainder), padded vectors and transfer weights, so that
// every kernel twin can be compared with kernels::ref.
#include <random>
#include <vector>

#include "solvers/mg/kernels.hpp"
#include "solvers/mg/structured_operator.hpp"

namespace tb::test {

struct MgLevelInputs {
  StructuredIndex grid;
  mg::StencilPoints points;
  bool box = false;
  std::vector<double> coef, dinv;
  std::vector<index_t> rest_ptr, rest_col, irregular_rows;
  std::vector<double> rest_val;
  std::vector<unsigned char> irregular;

  index_t cells() const { return grid.cells(); }
  index_t pad() const { return mg::padding(grid); }
  mg::StencilView view() const {
    mg::StencilView v;
    v.grid = grid;
    v.box = box;
    mg::set_offsets(v, points);
    v.coef = coef.data();
    v.dinv = dinv.data();
    if (!rest_ptr.empty()) {
      v.rest_ptr = rest_ptr.data();
      v.rest_col = rest_col.data();
      v.rest_val = rest_val.data();
      v.irregular = irregular.data();
    }
    return v;
  }
};

// A diagonally dominant stencil with random couplings, zero off the grid; with
// `remainder`, every 13th row also couples to two cells further away.
inline MgLevelInputs mg_level(StructuredIndex g, bool box, bool remainder, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> off(-1.0, 0.0), unit(0.0, 1.0);
  MgLevelInputs in;
  in.grid = g;
  in.box = box;
  const int active = mg::active_directions(g);
  in.points = box ? mg::box_points(active) : mg::star_points(active);
  const index_t n = g.cells();
  const int centre = in.points.count / 2;
  in.coef.assign(std::size_t(in.points.count) * std::size_t(n), 0.0);
  in.dinv.resize(std::size_t(n));
  for (index_t c = 0; c < n; ++c) {
    const index_t ijk[3] = {g.i_of(c), g.j_of(c), g.k_of(c)};
    const index_t ext[3] = {g.ni, g.nj, g.nk};
    for (int p = 0; p < in.points.count; ++p) {
      bool inside = true;
      for (int d = 0; d < 3; ++d) {
        const index_t x = ijk[d] + in.points.delta[p][d];
        inside = inside && x >= 0 && x < ext[d];
      }
      if (inside && p != centre) in.coef[std::size_t(p) * std::size_t(n) + std::size_t(c)] = off(rng);
    }
    const double diag = 2.0 * in.points.count + unit(rng);
    in.coef[std::size_t(centre) * std::size_t(n) + std::size_t(c)] = diag;
    in.dinv[std::size_t(c)] = 1.0 / diag;
  }
  if (remainder) {
    in.rest_ptr.assign(std::size_t(n) + 1, 0);
    in.irregular.assign(std::size_t(n), 0);
    for (index_t c = 0; c < n; ++c) {
      if (c % 13 == 5) {
        for (index_t far : {(c + 7 * g.ni + 3) % n, (c + n / 2) % n}) {
          in.rest_col.push_back(far);
          in.rest_val.push_back(off(rng));
        }
        in.irregular[std::size_t(c)] = 1;
        in.irregular_rows.push_back(c);
      }
      in.rest_ptr[std::size_t(c) + 1] = index_t(in.rest_col.size());
    }
  }
  return in;
}

// n random values in [-1, 1] with `pad` zeros on each side.
inline std::vector<double> mg_padded(index_t n, index_t pad, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<double> v(std::size_t(n + 2 * pad), 0.0);
  for (index_t i = 0; i < n; ++i) v[std::size_t(pad + i)] = u(rng);
  return v;
}

// The transfer from `fine` coarsened where asked, with random weights.
struct MgTransferInputs {
  mg::TransferView view;
  std::vector<double> weight[3];
};

inline MgTransferInputs mg_transfer(StructuredIndex fine, bool ci, bool cj, bool ck, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(0.1, 0.9);
  MgTransferInputs t;
  t.view.fine = fine;
  t.view.coarse = fine;
  const bool c[3] = {ci, cj, ck};
  const index_t ext[3] = {fine.ni, fine.nj, fine.nk};
  for (int d = 0; d < 3; ++d) {
    t.view.coarsened[d] = c[d];
    if (!c[d]) continue;
    t.weight[d].resize(std::size_t(ext[d]));
    for (index_t i = 0; i < ext[d]; ++i) t.weight[d][std::size_t(i)] = i % 2 == 0 ? 1.0 : i + 1 < ext[d] ? u(rng) : 1.0;
    t.view.weight[d] = t.weight[d].data();
  }
  if (ci) t.view.coarse.ni = (fine.ni + 1) / 2;
  if (cj) t.view.coarse.nj = (fine.nj + 1) / 2;
  if (ck) t.view.coarse.nk = (fine.nk + 1) / 2;
  return t;
}

}  // namespace tb::test
