#pragma once
// What a banded solve needs from the processes that share it: the rank, the
// global reductions (a VectorSpace), the ghost exchange and the gather of the
// solution. This base class is the one-process group; solvers/dist derives the
// MPI one, so the solvers here never see MPI.
#include <memory>

#include "ghost_exchange.hpp"
#include "row_partition.hpp"
#include "solvers/krylov/krylov_method.hpp"

namespace tb::banded {

class Communicator {
 public:
  virtual ~Communicator() = default;
  virtual int rank() const { return 0; }
  virtual int size() const { return 1; }
  // dot / norm2 / multi_dot / reduce over all ranks.
  virtual const VectorSpace& space() const;
  // The exchange for extended vectors of this rank's slab of p with ghost zones of band entries.
  virtual std::unique_ptr<GhostExchange> make_exchange(const RowPartition& p, index_t band, Backend backend) const;
  // Host arrays: every rank's slab of local into global (length p.n()), on every rank.
  virtual void allgather(const RowPartition& p, const double* local, double* global) const;
};

// The one-process group (rank 0 of 1).
std::shared_ptr<const Communicator> self_communicator();

}  // namespace tb::banded
