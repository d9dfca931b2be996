#pragma once
// Seconds this process has spent inside the distributed solvers' blocking MPI
// calls: the vector space's MPI_Allreduce and the ghost exchanges' waits. That
// is the messages' latency plus the time spent waiting for slower ranks, the
// part of a distributed solve that more cores cannot shorten (PETSc's
// -log_view separates it the same way). One count per process, read as a
// difference around a solve (DistributedSolver::solve); MPI is called from one
// thread of a rank, so the count needs no lock.
#include "solvers/core/timer.hpp"

namespace tb::dist {

inline double& mpi_wait_count() {
  static double seconds = 0.0;
  return seconds;
}

inline double mpi_wait_seconds() { return mpi_wait_count(); }

// Adds the lifetime of the scope to the count: wrap one blocking MPI call.
class MpiWait {
 public:
  MpiWait() = default;
  MpiWait(const MpiWait&) = delete;
  MpiWait& operator=(const MpiWait&) = delete;
  ~MpiWait() { mpi_wait_count() += timer_.seconds(); }

 private:
  WallTimer timer_;
};

}  // namespace tb::dist
