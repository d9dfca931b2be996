// The sequential twins of kernels.hpp (kernels::ref): the per-cell bodies in plain loops.
#include "physics/immersed/host_loops.hpp"

namespace tb::immersed::kernels {

TB_IB_HOST_TWIN(ref, false)

}  // namespace tb::immersed::kernels
