// The OpenMP banded kernels (kernels.hpp): the shared host loops of
// host_kernels.hpp under a static OpenMP schedule, reductions in a fixed order.
#include "host_kernels.hpp"

namespace tb::banded::kernels {

TB_BANDED_HOST_TWINS(omp, true)

}  // namespace tb::banded::kernels
