#pragma once
// What tb-incomp and tb-ib share about a rank's slab of a structured grid
// (docs/distributed.md), beyond the physics: the split over the run's ranks, the identity
// its checkpoint opens with, and the whole-grid planes each rank owns, which
// rank 0's .pvts names.
#include <array>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include "mesh/structured/slab.hpp"
#include "physics/domain_share.hpp"

namespace tb::harness {

// This rank's slab of a grid split over the run's ranks in planes of `axis`
// (1: y, 2: z; decompose_slabs' slab_axis of the shape), ghost_planes each
// side, its share of the domain, and rank 0's start-up line
//   38 x 26 x 26 cells over 2 ranks (slabs of z planes, 6 ghost planes): owned 13 + 13 planes
// Collective. tb::Error, naming the program, when the ranks outnumber the planes.
struct RankSlab {
  Slab slab;
  std::unique_ptr<DomainShare> share;
  std::string decomposition;  // empty but on rank 0
};
RankSlab split_into_slabs(const std::string& program, const StructuredIndex& shape, int axis, int ghost_planes);

// A decomposed state opens with the rank's slab (its first owned plane, its
// owned planes, the whole grid's), so a checkpoint of other planes is refused
// before the state is read (at the front: a snapshot's stream cannot seek).
void write_slab_identity(std::ostream& out, const PlaneRange& planes);
// tb::Error naming `rank` when the identity read is not `planes`'.
void check_slab_identity(std::istream& in, const PlaneRange& planes, int rank);

// Every rank's owned planes [k0, k1) in the whole grid's numbering, on rank 0
// (empty on the others). Collective: it also waits for every rank's piece.
std::vector<std::array<index_t, 2>> owned_planes_on_root(const DomainShare& share, const PlaneRange& planes);

}  // namespace tb::harness
