#pragma once
// The processes that share a solve, as every room below the MPI one sees them:
// the rank, the global reductions (a VectorSpace), the ghost exchange of a row
// slab, the gathers and personalised exchanges of set-up. This base class is the
// one-process group; solvers/dist derives the MPI one, so no other room of the
// solver layer sees MPI (docs/ARCHITECTURE.md, "Layering").
#include <functional>
#include <memory>
#include <span>
#include <vector>

#include "ghost_exchange.hpp"
#include "row_partition.hpp"
#include "solvers/core/vector_space.hpp"

namespace tb::comm {

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

  // Set-up traffic of a system the ranks assembled apart (owned_rows.hpp), on host arrays.
  // Every rank's `mine` concatenated in rank order, on every rank.
  virtual std::vector<index_t> allgather(std::span<const index_t> mine) const;
  // What each rank sends every other (send_counts[p] values to rank p, in rank
  // order); returns what each will receive from every other (MPI_Alltoall).
  virtual std::vector<int> exchange_counts(std::span<const int> send_counts) const;
  // A personalised exchange (MPI_Alltoallv): send holds the values for rank 0,
  // then rank 1, ...; recv receives those from rank 0, then rank 1, ...
  virtual void exchange(std::span<const index_t> send, std::span<const int> send_counts, std::span<index_t> recv,
                        std::span<const int> recv_counts) const;
  virtual void exchange(std::span<const double> send, std::span<const int> send_counts, std::span<double> recv,
                        std::span<const int> recv_counts) const;
};

// Runs work on every rank; when it throws tb::Error on any, every rank throws
// (the others' message says another rank refused), so that no rank goes on to
// a collective call the failed one never makes. One reduction.
void agreed(const Communicator& comm, const std::function<void()>& work);

// The one-process group (rank 0 of 1).
std::shared_ptr<const Communicator> self_communicator();

}  // namespace tb::comm
