#pragma once
// One rank's share of a graph split over ranks: the vertices it owns and the
// ghost layers around them, numbered locally, with the HaloPlan that refreshes
// the ghosts. Computed on one process for all ranks (no MPI), so a rank 0 can
// decompose and scatter, and tests need no mpiexec.
#include <span>
#include <vector>

#include "mesh/graph/graph.hpp"
#include "mesh/graph/halo_plan.hpp"
#include "solvers/core/types.hpp"

namespace tb {

struct Subdomain {
  int rank = 0;
  // Local index -> global vertex: owned (ascending global), then ghost layer 1,
  // 2, ... (each ascending global). Owned first, so owned-only loops and the
  // solver's block rows are a prefix of every local vector.
  std::vector<index_t> global;
  index_t owned = 0;               // the first `owned` locals are this rank's
  std::vector<index_t> layer_end;  // layer_end[l]: one past the last local of ghost layer l+1 (size = layers)
  std::vector<int> ghost_owner;    // owner rank of each ghost (size global.size() - owned)
  // Receives every ghost (all layers) from its owner; sends what the
  // neighbours' plans receive, in the same order, so an exchange is a plain copy.
  HaloPlan halo;
  // Locals sorted by global index, for local_of's binary search: memory in the
  // local size only (no array over all global vertices per rank).
  std::vector<index_t> by_global;

  index_t size() const { return static_cast<index_t>(global.size()); }
  index_t ghosts() const { return size() - owned; }
  // Local index of `global_vertex`, -1 when this rank does not hold it.
  index_t local_of(index_t global_vertex) const;
};

// Splits `g` by `owner` (the part of each vertex, in [0, parts)) and adds
// `layers` ghost layers: layer k holds the vertices at graph distance exactly k
// from the owned set. A part may own nothing (it then has no ghosts). Throws
// tb::Error naming the argument on owner size != g.size(), an owner out of
// [0, parts), parts < 1 or layers < 0.
std::vector<Subdomain> decompose(const Graph& g, std::span<const index_t> owner, int parts, int layers);

}  // namespace tb
