// Built with MPI: the world's ranks when MPI is initialised, else this process.
#include <mpi.h>

#include "solver_communicator.hpp"
#include "solvers/dist/halo_exchange.hpp"
#include "solvers/dist/world.hpp"

namespace tb {

std::shared_ptr<const comm::Communicator> solver_communicator() { return dist::world_or_self(); }

void check_distributed_environment() { dist::default_halo_transport(); }

DistributedSession::DistributedSession(int& argc, char**& argv) {
  int initialised = 0;
  MPI_Initialized(&initialised);
  if (initialised) return;
  MPI_Init(&argc, &argv);
  owns_ = true;
}

DistributedSession::~DistributedSession() {
  int finalised = 0;
  MPI_Finalized(&finalised);
  if (owns_ && !finalised) MPI_Finalize();
}

}  // namespace tb
