// Built with MPI: the world's ranks when MPI is initialised, else this process.
#include "solver_communicator.hpp"
#include "solvers/dist/world.hpp"

namespace tb {

std::shared_ptr<const banded::Communicator> solver_communicator() { return dist::world_or_self(); }

}  // namespace tb
