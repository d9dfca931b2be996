#pragma once
// What one rank sends to and receives from its neighbours in a ghost (halo)
// exchange, as plain indices into its local vectors: owned entries first, then
// the ghosts. The same plan serves a cell graph split over ranks (a mesh's ghost
// layers) and a matrix's block rows (its off-rank columns); solvers/dist turns
// it into MPI messages. No MPI here: plans are built and tested on one process.
#include <vector>

#include "solvers/core/types.hpp"

namespace tb {

struct HaloPlan {
  std::vector<int> neighbours;           // ranks, ascending, each once
  std::vector<index_t> send_offsets{0};  // neighbours.size() + 1 offsets into send_items
  std::vector<index_t> send_items;       // local indices of owned entries, per neighbour
  std::vector<index_t> recv_offsets{0};  // neighbours.size() + 1 offsets into recv_items
  std::vector<index_t> recv_items;       // local indices of ghost entries, per neighbour

  int neighbour_count() const { return static_cast<int>(neighbours.size()); }
  index_t send_count(int n) const { return send_offsets[n + 1] - send_offsets[n]; }
  index_t recv_count(int n) const { return recv_offsets[n + 1] - recv_offsets[n]; }
};

}  // namespace tb
