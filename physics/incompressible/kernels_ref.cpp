// The sequential twins of kernels.hpp (kernels::ref): the per-cell bodies in plain loops.
#include "physics/incompressible/host_loops.hpp"

namespace tb::incompressible::kernels {

TB_INCOMP_HOST_TWIN(ref, false)

}  // namespace tb::incompressible::kernels
