// Built without MPI: every solve is local.
#include "partitioned_solver.hpp"
#include "registry.hpp"
#include "solver_communicator.hpp"

namespace tb {

std::shared_ptr<const comm::Communicator> solver_communicator() { return comm::self_communicator(); }

void check_distributed_environment() {}

DistributedSession::DistributedSession(int&, char**&) {}
DistributedSession::~DistributedSession() = default;

std::unique_ptr<LinearSolver> make_partitioned_solver(std::string_view spec, std::optional<Backend>) {
  return make_solver(spec);
}

bool take_split_rows(LinearSolver&, dist::OffRankRows) { return false; }

}  // namespace tb
