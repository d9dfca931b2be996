#include "physics/compressible/gas.hpp"

namespace tb::compressible {

Block physical_flux_jacobian(const Gas& gas, const State& s, double nx, double ny) {
  const double u = s[1] / s[0], v = s[2] / s[0], p = gas.pressure(s);
  const double g1 = gas.gamma - 1.0, un = u * nx + v * ny, half_q2 = 0.5 * (u * u + v * v);
  const double h = (s[3] + p) / s[0];
  return {0.0,
          nx,
          ny,
          0.0,
          g1 * half_q2 * nx - u * un,
          un + u * nx - g1 * u * nx,
          u * ny - g1 * v * nx,
          g1 * nx,
          g1 * half_q2 * ny - v * un,
          v * nx - g1 * u * ny,
          un + v * ny - g1 * v * ny,
          g1 * ny,
          un * (g1 * half_q2 - h),
          h * nx - g1 * u * un,
          h * ny - g1 * v * un,
          gas.gamma * un};
}

}  // namespace tb::compressible
