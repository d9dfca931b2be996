#pragma once
// The registry's entry into MPI, without MPI headers: the world's ranks when
// the program runs on more than one rank, else this process alone
// (banded::self_communicator()). A program started by mpiexec that has not
// initialised MPI itself gets it initialised here (and finalised at exit).
#include <memory>

#include "solvers/banded/communicator.hpp"

namespace tb::dist {

std::shared_ptr<const banded::Communicator> world_or_self();

}  // namespace tb::dist
