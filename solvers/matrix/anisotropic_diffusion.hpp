#pragma once
// The 2D anisotropic diffusion problems of seed 003 (ANI5/6/7): -div(K grad u)
// = f on the unit square, K = R(angle) diag(1, epsilon) R(angle)^T, linear
// finite elements on a uniform nx x ny grid of nodes whose cells are cut along
// their (i,j)-(i+1,j+1) diagonal, so interior rows have 7 entries. Dirichlet
// nodes keep an identity row and are eliminated from their neighbours' rows,
// which leaves the matrix symmetric positive definite. The paper's row counts are
// nx x ny = 159 x 79 (12,561), 319 x 159 (50,721), 639 x 319 (203,841).
#include "csr.hpp"

namespace tb {

struct AnisotropicDiffusionParams {
  index_t nx = 159, ny = 79;
  double epsilon = 1e-2;  // ratio of the weak to the strong diffusivity
  double angle = 30.0;    // degrees between the strong direction and the x axis
};

CsrMatrix generate_anisotropic_diffusion(const AnisotropicDiffusionParams& p);

}  // namespace tb
