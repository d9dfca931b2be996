#include "generate.hpp"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <numbers>
#include <vector>

#include "generator_spec.hpp"
#include "solvers/core/error.hpp"
#include "split_mix.hpp"

namespace tb {

namespace {

using Dense = std::vector<double>;  // n x n, row-major

// Cross-diffusion K = Q diag(d) Q^T with Q orthogonal (Gram-Schmidt of a random
// matrix) and d in [0.5, 2]: symmetric positive definite and dense, so every
// off-diagonal block couples all equations.
Dense cross_diffusion(index_t n, SplitMix& rng) {
  Dense q(n * n);
  for (auto& v : q) v = rng.uniform(-1.0, 1.0);
  for (index_t c = 0; c < n; ++c) {
    for (index_t p = 0; p < c; ++p) {
      double d = 0.0;
      for (index_t r = 0; r < n; ++r) d += q[r * n + c] * q[r * n + p];
      for (index_t r = 0; r < n; ++r) q[r * n + c] -= d * q[r * n + p];
    }
    double norm = 0.0;
    for (index_t r = 0; r < n; ++r) norm += q[r * n + c] * q[r * n + c];
    norm = std::sqrt(norm);
    for (index_t r = 0; r < n; ++r) q[r * n + c] /= norm;
  }
  Dense d(n);
  for (auto& v : d) v = rng.uniform(0.5, 2.0);
  Dense k(n * n, 0.0);
  for (index_t r = 0; r < n; ++r)
    for (index_t c = 0; c < n; ++c)
      for (index_t m = 0; m < n; ++m) k[r * n + c] += q[r * n + m] * d[m] * q[c * n + m];
  return k;
}

// Reaction: a dense random matrix scaled by 'coupling'; symmetric positive
// semi-definite (C C^T / n) for the SPD variant.
Dense reaction(index_t n, double coupling, bool symmetric, SplitMix& rng) {
  Dense c(n * n);
  for (auto& v : c) v = rng.uniform(-1.0, 1.0);
  Dense r(n * n, 0.0);
  for (index_t i = 0; i < n; ++i)
    for (index_t j = 0; j < n; ++j) {
      if (symmetric) {
        for (index_t m = 0; m < n; ++m) r[i * n + j] += c[i * n + m] * c[j * n + m] / n;
      } else {
        r[i * n + j] = c[i * n + j];
      }
      r[i * n + j] *= coupling;
    }
  return r;
}

// Cell widths growing geometrically away from z = 0, normalised to unit length.
std::vector<double> stretched_widths(index_t n, double ratio) {
  std::vector<double> w(n);
  double total = 0.0;
  for (index_t k = 0; k < n; ++k) total += (w[k] = std::pow(ratio, k));
  for (auto& v : w) v /= total;
  return w;
}

struct Grid {
  index_t nx, ny, nz;
  std::vector<double> hx, hy, hz, cx, cy, cz;  // widths and centres per direction
};

std::vector<double> centres(const std::vector<double>& h) {
  std::vector<double> c(h.size());
  double x = 0.0;
  for (std::size_t i = 0; i < h.size(); ++i) {
    c[i] = x + 0.5 * h[i];
    x += h[i];
  }
  return c;
}

}  // namespace

BsrMatrix generate_stencil7(const Stencil7Params& p) {
  if (p.nx < 1 || p.ny < 1 || p.nz < 1) throw Error("stencil7: nx, ny, nz must be at least 1");
  if (p.block_size < 1 || p.block_size > max_block_size)
    throw Error("stencil7: n=" + std::to_string(p.block_size) + " outside 1.." + std::to_string(max_block_size));
  if (!(p.dt > 0.0) || !(p.stretch > 0.0)) throw Error("stencil7: dt and stretch must be positive");
  const std::int64_t cells = std::int64_t(p.nx) * p.ny * p.nz;
  if (cells * p.block_size > std::int64_t(1) << 30) throw Error("stencil7: grid too large for 32-bit indices");

  const index_t n = p.block_size, nb = n * n;
  SplitMix rng(p.seed);
  const Dense k = cross_diffusion(n, rng);
  const Dense r = reaction(n, p.coupling, p.symmetric, rng);
  std::vector<double> speed(n);  // each equation convects at its own speed
  for (auto& s : speed) s = p.symmetric ? 0.0 : rng.uniform(0.5, 1.0);

  Grid g{p.nx, p.ny, p.nz, stretched_widths(p.nx, 1.0), stretched_widths(p.ny, 1.0), stretched_widths(p.nz, p.stretch),
         {},   {},   {}};
  g.cx = centres(g.hx), g.cy = centres(g.hy), g.cz = centres(g.hz);

  BsrMatrix a;
  a.block_size = n;
  a.block_rows = a.block_cols = index_t(cells);
  a.row_ptr.assign(cells + 1, 0);
  a.col_idx.reserve(cells * 7);
  a.values.reserve(cells * 7 * nb);

  const index_t sx = 1, sy = p.nx, sz = p.nx * p.ny;
  for (index_t kk = 0; kk < p.nz; ++kk)
    for (index_t j = 0; j < p.ny; ++j)
      for (index_t i = 0; i < p.nx; ++i) {
        const index_t row = i + sy * j + sz * kk;
        const double vol = g.hx[i] * g.hy[j] * g.hz[kk];
        // A rotating flow in x-y plus a uniform drift in z: upwinding picks a
        // different side per cell, as in a real convection operator.
        const double vel[3] = {-(g.cy[j] - 0.5), g.cx[i] - 0.5, 0.3};
        Dense diag(nb, 0.0);
        for (index_t e = 0; e < nb; ++e) diag[e] = vol * r[e];
        for (index_t e = 0; e < n; ++e) diag[e * n + e] += vol / p.dt;

        struct Face {
          int dir, side;
          bool inside;
          index_t nbr;
        };
        const Face faces[6] = {{2, -1, kk > 0, row - sz},       {1, -1, j > 0, row - sy},
                               {0, -1, i > 0, row - sx},        {0, +1, i + 1 < p.nx, row + sx},
                               {1, +1, j + 1 < p.ny, row + sy}, {2, +1, kk + 1 < p.nz, row + sz}};
        Dense off[6];
        for (int f = 0; f < 6; ++f) {
          const Face& fc = faces[f];
          const std::vector<double>& h = fc.dir == 0 ? g.hx : fc.dir == 1 ? g.hy : g.hz;
          const index_t idx = fc.dir == 0 ? i : fc.dir == 1 ? j : kk;
          const double area = vol / h[idx];
          // Distance between centres; half a cell to a Dirichlet wall.
          const double dist = fc.inside ? 0.5 * (h[idx] + h[idx + fc.side]) : 0.5 * h[idx];
          const double diff = area / dist;
          const double flux = p.peclet * vel[fc.dir] * fc.side * area;  // outward
          off[f].assign(nb, 0.0);
          for (index_t e = 0; e < nb; ++e) {
            diag[e] += diff * k[e];
            if (fc.inside) off[f][e] = -diff * k[e];
          }
          for (index_t e = 0; e < n; ++e) {
            diag[e * n + e] += speed[e] * std::max(flux, 0.0);
            if (fc.inside) off[f][e * n + e] -= speed[e] * std::max(-flux, 0.0);
          }
        }
        auto emit = [&](index_t col, const Dense& blk) {
          a.col_idx.push_back(col);
          a.values.insert(a.values.end(), blk.begin(), blk.end());
        };
        for (int f = 0; f < 3; ++f)
          if (faces[f].inside) emit(faces[f].nbr, off[f]);
        emit(row, diag);
        for (int f = 3; f < 6; ++f)
          if (faces[f].inside) emit(faces[f].nbr, off[f]);
        a.row_ptr[row + 1] = index_t(a.col_idx.size());
      }
  return a;
}

Stencil7Params parse_stencil7(std::string_view text) {
  GeneratorSpec s(text);
  if (s.name() != "stencil7") throw Error("generator '" + std::string(text) + "': expected stencil7:key=value,...");
  Stencil7Params p;
  p.nx = index_t(s.integer("nx", p.nx));
  p.ny = index_t(s.integer("ny", p.ny));
  p.nz = index_t(s.integer("nz", p.nz));
  p.block_size = index_t(s.integer("n", p.block_size));
  p.seed = unsigned(s.integer("seed", p.seed));
  p.stretch = s.real("stretch", p.stretch);
  p.peclet = s.real("peclet", p.peclet);
  p.dt = s.real("dt", p.dt);
  p.coupling = s.real("coupling", p.coupling);
  p.symmetric = s.integer("symmetric", p.symmetric) != 0;
  s.check_all_used("nx, ny, nz, n, seed, stretch, peclet, dt, coupling, symmetric");
  return p;
}

std::string describe(const Stencil7Params& p) {
  return "stencil7:nx=" + std::to_string(p.nx) + ",ny=" + std::to_string(p.ny) + ",nz=" + std::to_string(p.nz) +
         ",n=" + std::to_string(p.block_size) + ",seed=" + std::to_string(p.seed) +
         ",stretch=" + std::to_string(p.stretch) + ",peclet=" + std::to_string(p.peclet) +
         ",dt=" + std::to_string(p.dt) + ",coupling=" + std::to_string(p.coupling) +
         ",symmetric=" + std::to_string(int(p.symmetric));
}

}  // namespace tb
