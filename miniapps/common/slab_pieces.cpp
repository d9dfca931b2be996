#include "slab_pieces.hpp"

#include <istream>
#include <ostream>
#include <string>

#include "solvers/core/error.hpp"

namespace tb::harness {

namespace {

std::array<index_t, 3> identity(const PlaneRange& p) {
  return {p.first + p.owned_begin, p.owned_end - p.owned_begin, p.whole_planes};
}

}  // namespace

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
