#pragma once
// The inputs of the FGBILU kernel tests, host and GPU: a random 7-point block
// matrix in wavefront order, and the sequential twins' results plane by plane
// (kernels::ref factor_plane, forward_plane, backward_plane, residual), which
// every other kernel must reproduce.
#include <vector>

#include "../../common/random.hpp"
#include "solvers/fgbilu/kernels.hpp"
#include "solvers/matrix/generate.hpp"
#include "solvers/matrix/stencil7_matrix.hpp"

namespace tb::test {

struct FgbiluInputs {
  fgbilu::Stencil7Matrix m;
  std::vector<double> rhs, x;  // x: a random iterate for the residual
  // The sequential twins' results.
  std::vector<double> d, forward, backward, residual;

  fgbilu::Stencil7View view() const {
    const fgbilu::WavefrontSchedule& s = m.schedule;
    return {m.block_size, m.cells(), m.values.data(), s.natural.data(), s.position.data(), s.neighbour.data()};
  }
  std::size_t diagonal_entries() const { return std::size_t(m.cells()) * m.block_entries(); }
};

inline FgbiluInputs fgbilu_inputs(index_t nx, index_t ny, index_t nz, index_t n, unsigned seed) {
  Stencil7Params p;
  p.nx = nx, p.ny = ny, p.nz = nz, p.block_size = n, p.seed = seed;
  const BsrMatrix a = generate_stencil7(p);
  FgbiluInputs in;
  in.m = fgbilu::stencil7_from_bsr(a, fgbilu::infer_grid_shape(a));
  in.rhs = random_vector(std::size_t(a.rows()), seed + 1);
  in.x = random_vector(std::size_t(a.rows()), seed + 2);
  const fgbilu::Stencil7View v = in.view();
  const fgbilu::WavefrontSchedule& s = in.m.schedule;
  in.d.assign(in.diagonal_entries(), 0.0);
  in.forward.assign(in.rhs.size(), 0.0);
  for (index_t q = 0; q < s.num_planes(); ++q)
    fgbilu::kernels::ref::factor_plane(v, in.d.data(), s.plane_ptr[q], s.plane_ptr[q + 1]);
  for (index_t q = 0; q < s.num_planes(); ++q)
    fgbilu::kernels::ref::forward_plane(v, in.d.data(), s.plane_ptr[q], s.plane_ptr[q + 1], in.rhs.data(),
                                        in.forward.data());
  in.backward = in.forward;
  for (index_t q = s.num_planes() - 1; q >= 0; --q)
    fgbilu::kernels::ref::backward_plane(v, in.d.data(), s.plane_ptr[q], s.plane_ptr[q + 1], in.backward.data());
  in.residual.assign(in.rhs.size(), 0.0);
  fgbilu::kernels::ref::residual(v, in.rhs.data(), in.x.data(), in.residual.data());
  return in;
}

}  // namespace tb::test
