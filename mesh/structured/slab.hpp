#pragma once
// Slabs of a structured grid for distributed runs of tb-incomp and tb-ib: the
// slowest index (k in 3D, j on a 2D grid with nk = 1) split into contiguous
// runs of planes, so each rank's cells are one contiguous range of the natural
// order i + ni (j + nj k), with ghost planes below and above. Computed on one
// process for all ranks (no MPI here).
#include <vector>

#include "mesh/graph/halo_plan.hpp"
#include "mesh/graph/structured_index.hpp"
#include "solvers/core/types.hpp"

namespace tb {

// The axis slabs split (1: j, 2: k): k when nk > 1, else j.
int slab_axis(const StructuredIndex& grid);

// One rank's slab. Local order: owned cells, then the ghost planes below,
// then those above, each in the natural order, as HaloPlan and Subdomain have
// it (owned first), so owned-only loops are a prefix of every local vector.
struct Slab {
  int rank = 0;
  index_t plane_size = 0;    // cells per plane: ni (2D) or ni * nj (3D)
  index_t first_plane = 0;   // owned planes: [first_plane, first_plane + planes)
  index_t planes = 0;        // may be 0: such a rank holds nothing
  index_t planes_below = 0;  // ghost planes [first_plane - planes_below, first_plane)
  index_t planes_above = 0;  // ghost planes [first_plane + planes, ... + planes_above)
  // Receives every ghost plane from its owner, one contiguous run per
  // neighbour; sends what the neighbours' plans receive, in the same order.
  HaloPlan halo;

  // The planes held, [first_held(), first_held() + held()); the owned ones
  // among them are [planes_below, planes_below + planes) counted from the
  // first held: what FvGrid::piece and CartesianGrid::piece take.
  index_t first_held() const { return first_plane - planes_below; }
  index_t held() const { return planes_below + planes + planes_above; }
  index_t owned() const { return planes * plane_size; }
  index_t size() const { return held() * plane_size; }
  // The global cells held: [global_begin(), global_end()), contiguous.
  index_t global_begin() const { return first_held() * plane_size; }
  index_t global_end() const { return (first_plane + planes + planes_above) * plane_size; }
  index_t owned_begin() const { return first_plane * plane_size; }
  index_t owned_end() const { return (first_plane + planes) * plane_size; }
  // -1 when this rank does not hold the cell. O(1), no map.
  index_t local_of(index_t global) const;
  index_t global_of(index_t local) const;
};

// The planes of the slab axis a piece of a grid holds (tb-incomp's FvGrid,
// tb-ib's CartesianGrid); the whole grid holds them all.
struct PlaneRange {
  int axis = 1;             // the slab axis: 1 in 2D, 2 in 3D (slab_axis)
  index_t first = 0;        // whole-grid index of local plane 0
  index_t owned_begin = 0;  // local planes [owned_begin, owned_end) are this rank's
  index_t owned_end = 0;
  index_t whole_planes = 0;  // planes of the whole grid
};

// Balanced slabs: the first (planes % parts) ranks get one plane more; a rank
// gets none when parts exceed the planes. `ghost_planes` below and above each
// non-empty slab, fewer at the domain ends. Throws tb::Error naming the
// argument on parts < 1, ghost_planes < 0 or a grid dimension < 1.
std::vector<Slab> decompose_slabs(const StructuredIndex& grid, int parts, int ghost_planes);

// slab.halo in the natural local order, the order a piece of the grid steps in:
// local = global - global_begin() (ghost planes below, owned, above).
HaloPlan natural_order_halo(const Slab& slab);

}  // namespace tb
