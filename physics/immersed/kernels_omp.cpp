// The OpenMP kernels of kernels.hpp (kernels::omp): the per-cell bodies in static OpenMP loops.
#include "physics/immersed/host_loops.hpp"

namespace tb::immersed::kernels {

TB_IB_HOST_TWIN(omp, true)

}  // namespace tb::immersed::kernels
