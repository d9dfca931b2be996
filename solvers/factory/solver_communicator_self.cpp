// Built without MPI: every solve is local.
#include "solver_communicator.hpp"

namespace tb {

std::shared_ptr<const banded::Communicator> solver_communicator() { return banded::self_communicator(); }

DistributedSession::DistributedSession(int&, char**&) {}
DistributedSession::~DistributedSession() = default;

}  // namespace tb
