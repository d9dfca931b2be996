#pragma once
// The processes a banded solver built by the registry shares its solves with:
// MPI_COMM_WORLD when the library was built with MPI and the program runs on
// more than one rank (started by mpiexec; MPI is initialised on first use if
// the program did not), else this process alone. Two definitions, one linked
// (CMakeLists.txt picks), so no code here tests for MPI.
#include <memory>

#include "solvers/comm/communicator.hpp"

namespace tb {

std::shared_ptr<const comm::Communicator> solver_communicator();

// Checks the environment variables the distributed solvers read
// (TB_HALO_TRANSPORT, solvers/dist/halo_exchange.hpp); tb::Error naming the
// variable and what it allows. Nothing to check without MPI.
void check_distributed_environment();

// For programs that want distributed solves (benchmarks, drivers run under
// mpiexec): initialises MPI when the library has it and the program has not,
// and finalises what it initialised. Without MPI it does nothing.
class DistributedSession {
 public:
  DistributedSession(int& argc, char**& argv);
  ~DistributedSession();
  DistributedSession(const DistributedSession&) = delete;
  DistributedSession& operator=(const DistributedSession&) = delete;

 private:
  bool owns_ = false;
};

}  // namespace tb
