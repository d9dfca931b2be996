#pragma once
// What tb-incomp and tb-ib share about a rank's slab of a structured grid
// (issue 28), beyond the physics: the identity its checkpoint opens with, and
// the whole-grid planes each rank owns, which rank 0's .pvts names.
#include <array>
#include <iosfwd>
#include <vector>

#include "mesh/structured/slab.hpp"
#include "physics/domain_share.hpp"

namespace tb::harness {

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
