// The sequential twins of the banded kernels (kernels.hpp): the shared host
// loops of host_kernels.hpp run in order.
#include "host_kernels.hpp"

namespace tb::banded::kernels {

TB_BANDED_HOST_TWINS(ref, false)

}  // namespace tb::banded::kernels
