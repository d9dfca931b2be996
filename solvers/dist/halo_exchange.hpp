#pragma once
// A HaloPlan (mesh/graph/halo_plan.hpp) as MPI messages: one non-blocking
// neighbourhood all-to-all over a distributed-graph communicator of the plan's
// neighbours (MPI_Ineighbor_alltoallv), so the caller overlaps its local work
// between begin() and end(). Buffers and counts are made once, with the plan.
#include <mpi.h>

#include <span>
#include <vector>

#include "mesh/graph/halo_plan.hpp"
#include "row_distribution.hpp"

namespace tb::dist {

class HaloExchange {
 public:
  // Collective over comm. width: doubles per item (a BSR block row's entries: the block size).
  HaloExchange(MPI_Comm comm, HaloPlan plan, index_t width);
  ~HaloExchange();
  HaloExchange(const HaloExchange&) = delete;
  HaloExchange& operator=(const HaloExchange&) = delete;

  // Packs src[item * width ...] of each send item and starts the messages.
  void begin(const double* src);
  // Waits, then writes each received item to dst[(item - dst_first) * width ...]:
  // dst_first = 0 for a vector that holds owned entries and ghosts, the owned
  // count for a separate ghost array.
  void end(double* dst, index_t dst_first);
  // begin + end into the same local vector.
  void exchange(double* local) {
    begin(local);
    end(local, 0);
  }

  const HaloPlan& plan() const { return plan_; }
  index_t width() const { return width_; }

 private:
  HaloPlan plan_;
  index_t width_;
  MPI_Comm graph_ = MPI_COMM_NULL;
  std::vector<int> send_counts_, send_displs_, recv_counts_, recv_displs_;
  std::vector<double> send_buf_, recv_buf_;
  MPI_Request request_ = MPI_REQUEST_NULL;
};

// The plan of a distributed matrix's product: this rank receives each ghost
// column (local index owned + its position in ghost_columns) from its owner,
// and sends the owned rows the other ranks' ghost columns name. Collective
// (one MPI_Alltoall and one MPI_Alltoallv of row indices, once per pattern).
HaloPlan matrix_halo_plan(MPI_Comm comm, const RowDistribution& rows, std::span<const index_t> ghost_columns);

}  // namespace tb::dist
