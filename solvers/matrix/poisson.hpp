#pragma once
// The finite-volume pressure Poisson matrix of a structured grid, as tb-incomp
// assembles it: the compact negative Laplacian sum_f A_f (phi_P - phi_N) / d_PN
// with Neumann conditions on every side (symmetric positive semi-definite, the
// constants its null space), cells clustered towards the walls by tanh
// stretching; optionally periodic in i (wrap-around columns) or with cell 0
// fixed as tb-incomp fixes it (row 0 the identity, its neighbours' couplings
// to it stored as zeros: symmetric positive definite). For the multigrid tests,
// benchmarks and tb-solve --generate poisson:...
#include <vector>

#include "bsr.hpp"

namespace tb {

struct PoissonParams {
  index_t nx = 16, ny = 16, nz = 16;
  double length[3] = {1.0, 1.0, 1.0};
  double cluster[3] = {0.0, 0.0, 0.0};  // tanh clustering strength per direction, 0: uniform
  bool pin = false;
  bool periodic_i = false;  // needs nx >= 3
};

// The widths of n cells on [0, length], clustered towards both ends by tanh(beta).
std::vector<double> clustered_widths(index_t n, double length, double beta);

BsrMatrix generate_poisson(const PoissonParams& p);

}  // namespace tb
