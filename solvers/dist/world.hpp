#pragma once
// The registry's entry into MPI, without MPI headers: the world's ranks when
// the program has initialised MPI and runs with more than one rank, else this
// process alone (banded::self_communicator()).
#include <memory>

#include "solvers/banded/communicator.hpp"

namespace tb::dist {

std::shared_ptr<const banded::Communicator> world_or_self();

}  // namespace tb::dist
