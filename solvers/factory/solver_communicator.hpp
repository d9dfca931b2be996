#pragma once
// The processes a banded solver built by the registry shares its solves with:
// MPI_COMM_WORLD when the library was built with MPI and the program has
// initialised it with more than one rank, else this process alone. Two
// definitions, one linked (CMakeLists.txt picks), so no code here tests for MPI.
#include <memory>

#include "solvers/banded/communicator.hpp"

namespace tb {

std::shared_ptr<const banded::Communicator> solver_communicator();

}  // namespace tb
