#pragma once
// Realistic structured block systems for tests, benchmarks and tb-solve --generate.
//
// stencil7: one implicit (backward Euler) step of a coupled n-equation
// convection-diffusion-reaction system on a stretched nx x ny x nz grid,
// discretised by finite volumes on the 7-point stencil:
//   u_t + (a . grad) u - div(D grad u) + R u = f,   u in R^n,
// with first-order upwind convection (so the matrix is non-symmetric), a
// diffusion tensor that differs per equation, and a dense reaction matrix R that
// couples every equation in a block. 'symmetric=true' drops convection and
// symmetrises R, giving an SPD system for CG.
#include <string>
#include <string_view>

#include "bsr.hpp"

namespace tb {

struct Stencil7Params {
  index_t nx = 16, ny = 16, nz = 16;
  index_t block_size = 4;
  unsigned seed = 1;
  double stretch = 1.05;  // geometric growth of the cell width away from each z=0 wall
  double peclet = 10.0;   // strength of convection relative to diffusion
  double dt = 0.1;        // implicit time step; smaller is more diagonally dominant
  double coupling = 0.5;  // size of the off-diagonal reaction terms relative to the diagonal
  bool symmetric = false;
};

BsrMatrix generate_stencil7(const Stencil7Params& p);

// Parses "stencil7:nx=32,ny=32,nz=32,n=5,seed=3" (any subset of keys); tb::Error
// names an unknown key or bad value and lists the allowed keys.
Stencil7Params parse_stencil7(std::string_view text);
std::string describe(const Stencil7Params& p);

}  // namespace tb
