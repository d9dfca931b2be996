#pragma once
// §III-C's vector communication: the ghost zones of this rank's extended
// vectors come from the ranks whose rows they are. With slabs at least band
// rows high those are the two neighbours; thinner or empty slabs make the
// ghost zone span several ranks, and each contributes its part.
//
// Two phases as in Fig. 4: the pairs (0 1), (2 3), ... exchange first, the
// pairs (1 2), (3 4), ... second (a pair's phase is its lower rank's parity),
// so no rank sends to both neighbours at once. Host vectors are sent and
// received in place; CUDA vectors go through host staging buffers sized at
// construction.
#include <mpi.h>

#include <vector>

#include "solvers/comm/ghost_exchange.hpp"
#include "solvers/comm/row_partition.hpp"

namespace tb::dist {

class MpiGhostExchange final : public comm::GhostExchange {
 public:
  MpiGhostExchange(MPI_Comm comm, const comm::RowPartition& p, index_t band, Backend backend);
  int phases() const override { return 2; }
  void post(int phase, comm::GhostedVector& x) override;
  void complete(int phase, comm::GhostedVector& x) override;

  // One message each way with one peer.
  struct Segment {
    int peer;
    int phase;
    index_t send_begin, send_count;  // in the owned part
    index_t recv_begin, recv_count;  // in the extended vector
    std::size_t stage;               // offset of this segment's staging space (CUDA only)
  };
  const std::vector<Segment>& segments() const { return segments_; }

 private:
  MPI_Comm comm_;
  Backend backend_;
  std::vector<Segment> segments_;
  std::vector<double> send_stage_, recv_stage_;
  std::vector<MPI_Request> requests_;  // two per segment
};

}  // namespace tb::dist
