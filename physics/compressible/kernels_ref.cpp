// The sequential twins of the compressible loops (kernels.hpp): the reference
// the tests compare the OpenMP and CUDA versions against.
#include "physics/compressible/host_loops.hpp"

namespace tb::compressible::kernels {

TB_COMPRESSIBLE_HOST_TWINS(ref, false)

}  // namespace tb::compressible::kernels
