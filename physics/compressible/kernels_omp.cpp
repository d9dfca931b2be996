// The OpenMP versions of the compressible loops (kernels.hpp): host_loops.hpp's
// loops under a static schedule, the same bits as the sequential twins.
#include "physics/compressible/host_loops.hpp"

namespace tb::compressible::kernels {

TB_COMPRESSIBLE_HOST_TWINS(omp, true)

}  // namespace tb::compressible::kernels
