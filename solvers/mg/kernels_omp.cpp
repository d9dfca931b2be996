// The OpenMP kernels of the multigrid cycle and set-up (kernels.hpp): the
// loops of host_loops.hpp under a static schedule, the same bits as the twins.
#include "host_loops.hpp"

namespace tb::mg::kernels::omp {
TB_MG_HOST_DEFINITIONS(true)
}  // namespace tb::mg::kernels::omp
