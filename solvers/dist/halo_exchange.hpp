#pragma once
// A HaloPlan (mesh/graph/halo_plan.hpp) as MPI messages, started by begin()
// and completed by end(), so the caller overlaps its local work in between.
// Two transports over a private communicator of the exchange:
//  - persistent (the default): one persistent send and receive request per
//    neighbour (MPI_Send_init / MPI_Recv_init), started together
//    (MPI_Startall): nothing is allocated or scheduled per exchange;
//  - neighbourhood: one non-blocking neighbourhood all-to-all over a
//    distributed-graph communicator of the neighbours
//    (MPI_Ineighbor_alltoallv), which Open MPI 4 schedules and allocates anew
//    at every call (its libnbc: about five allocations an exchange).
// Both deliver the same bits; buffers, counts and requests are made once, with the plan.
#include <mpi.h>

#include <span>
#include <vector>

#include "mesh/graph/halo_plan.hpp"
#include "row_distribution.hpp"

namespace tb::dist {

enum class HaloTransport { persistent, neighbourhood };

// The transport of exchanges made without naming one: persistent, or the
// TB_HALO_TRANSPORT environment variable's (persistent | neighbourhood; read
// once; another value is an error naming it), for A/B studies of whole runs.
HaloTransport default_halo_transport();
const char* to_string(HaloTransport t);

class HaloExchange {
 public:
  // Collective over comm. width: doubles per item (a BSR block row's entries: the block size).
  HaloExchange(MPI_Comm comm, HaloPlan plan, index_t width, HaloTransport transport = default_halo_transport());
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
  HaloTransport transport() const { return transport_; }

 private:
  HaloPlan plan_;
  index_t width_;
  HaloTransport transport_;
  MPI_Comm comm_ = MPI_COMM_NULL;  // the exchange's own: a duplicate, or the neighbourhood graph
  std::vector<int> send_counts_, send_displs_, recv_counts_, recv_displs_;
  std::vector<double> send_buf_, recv_buf_;
  std::vector<MPI_Request> requests_;  // persistent: the receives, then the sends; neighbourhood: one
  bool started_ = false;
};

// The plan of a distributed matrix's product: this rank receives each ghost
// column (local index owned + its position in ghost_columns) from its owner,
// and sends the owned rows the other ranks' ghost columns name. Collective
// (one MPI_Alltoall and one MPI_Alltoallv of row indices, once per pattern).
HaloPlan matrix_halo_plan(MPI_Comm comm, const RowDistribution& rows, std::span<const index_t> ghost_columns);

}  // namespace tb::dist
