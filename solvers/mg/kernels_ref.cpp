// The sequential twins of the multigrid kernels (kernels.hpp): the loops of
// host_loops.hpp run in order on one thread.
#include "host_loops.hpp"

namespace tb::mg::kernels::ref {
TB_MG_HOST_DEFINITIONS(false)
}  // namespace tb::mg::kernels::ref
