#pragma once
// The registry's entry into MPI, without MPI headers: the world's ranks when
// the program runs on more than one rank, else this process alone
// (comm::self_communicator()). A program started by mpiexec that has not
// initialised MPI itself gets it initialised here (and finalised at exit).
#include <memory>

#include "solvers/comm/communicator.hpp"

namespace tb::dist {

std::shared_ptr<const comm::Communicator> world_or_self();

// One GPU per rank (seed 004): the rank's index among the ranks of its node,
// modulo the visible devices, becomes its current CUDA device; ranks share
// devices when there are more of them than GPUs. Returns the device, or -1
// without MPI initialised or without a visible device (nothing is changed).
// world_or_self() calls it once when it returns the world.
int bind_device_to_local_rank();

}  // namespace tb::dist
