// The OpenMP kernels of kernels.hpp (kernels::omp): the per-cell bodies in static OpenMP loops.
#include "physics/incompressible/host_loops.hpp"

namespace tb::incompressible::kernels {

TB_INCOMP_HOST_TWIN(omp, true)

}  // namespace tb::incompressible::kernels
