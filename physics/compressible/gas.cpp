#include "physics/compressible/gas.hpp"

#include "physics/compressible/flux_functions.hpp"

namespace tb::compressible {

Block physical_flux_jacobian(const Gas& gas, const State& s, double nx, double ny) {
  return flux_bodies::physical_flux_jacobian(gas, s, nx, ny);
}

}  // namespace tb::compressible
