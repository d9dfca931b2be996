#include "slab_pieces.hpp"

#include <istream>
#include <ostream>
#include <string>

#include "domain_sharing.hpp"
#include "rank_counts.hpp"
#include "solvers/core/error.hpp"

namespace tb::harness {

namespace {

std::array<index_t, 3> identity(const PlaneRange& p) {
  return {p.first + p.owned_begin, p.owned_end - p.owned_begin, p.whole_planes};
}

}  // namespace

RankSlab split_into_slabs(const std::string& program, const StructuredIndex& shape, int axis, int ghost_planes) {
  const int ranks = run_ranks(), me = run_rank();
  const std::string name = axis == 1 ? "y" : "z";
  const index_t planes = axis == 1 ? shape.nj : shape.nk;
  if (planes < ranks)
    throw Error(program + " on " + std::to_string(ranks) + " ranks splits the grid into slabs of " + name +
                " planes: its " + std::to_string(planes) + " planes allow at most " + std::to_string(planes) +
                " ranks");
  RankSlab r;
  r.slab = decompose_slabs(shape, ranks, ghost_planes)[std::size_t(me)];
  r.share = share_over_slab(r.slab, shape.cells());
  const std::vector<double> owned = r.share->gather_on_root(std::vector<double>{double(r.slab.planes)});
  if (me == 0) {
    std::string cells = std::to_string(shape.ni) + " x " + std::to_string(shape.nj);
    if (axis == 2) cells += " x " + std::to_string(shape.nk);
    r.decomposition = cells + " cells over " + std::to_string(ranks) + " ranks (slabs of " + name + " planes, " +
                      std::to_string(ghost_planes) + " ghost planes): owned " + per_rank(owned) + " planes";
  }
  return r;
}

void write_slab_identity(std::ostream& out, const PlaneRange& planes) {
  const std::array<index_t, 3> id = identity(planes);
  out.write(reinterpret_cast<const char*>(id.data()), sizeof id);
}

void check_slab_identity(std::istream& in, const PlaneRange& planes, int rank) {
  std::array<index_t, 3> id{};
  in.read(reinterpret_cast<char*>(id.data()), sizeof id);
  if (!in || id != identity(planes))
    throw Error("checkpoint: rank " + std::to_string(rank) +
                "'s planes are not those of the run that wrote it (another grid)");
}

std::vector<std::array<index_t, 2>> owned_planes_on_root(const DomainShare& share, const PlaneRange& planes) {
  const double first = double(planes.first + planes.owned_begin);
  const std::vector<double> all =
      share.gather_on_root(std::vector<double>{first, first + double(planes.owned_end - planes.owned_begin)});
  std::vector<std::array<index_t, 2>> out;
  for (std::size_t r = 0; 2 * r + 1 < all.size(); ++r) out.push_back({index_t(all[2 * r]), index_t(all[2 * r + 1])});
  return out;
}

}  // namespace tb::harness
