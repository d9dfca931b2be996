#include "mesh/structured/slab.hpp"

#include <algorithm>
#include <string>

#include "solvers/core/error.hpp"

namespace tb {

int slab_axis(const StructuredIndex& grid) { return grid.nk > 1 ? 2 : 1; }

index_t Slab::local_of(index_t global) const {
  if (global >= owned_begin() && global < owned_end()) return global - owned_begin();
  if (global >= global_begin() && global < owned_begin()) return owned() + (global - global_begin());
  if (global >= owned_end() && global < global_end())
    return owned() + planes_below * plane_size + (global - owned_end());
  return -1;
}

index_t Slab::global_of(index_t local) const {
  if (local < owned()) return owned_begin() + local;
  const index_t below = planes_below * plane_size;
  if (local < owned() + below) return global_begin() + (local - owned());
  return owned_end() + (local - owned() - below);
}

namespace {

void validate(const StructuredIndex& grid, int parts, int ghost_planes) {
  TB_REQUIRE(parts >= 1, "decompose_slabs: parts must be at least 1, not " + std::to_string(parts));
  TB_REQUIRE(ghost_planes >= 0,
             "decompose_slabs: ghost_planes must be at least 0, not " + std::to_string(ghost_planes));
  TB_REQUIRE(grid.ni >= 1 && grid.nj >= 1 && grid.nk >= 1, "decompose_slabs: grid " + std::to_string(grid.ni) + " x " +
                                                               std::to_string(grid.nj) + " x " +
                                                               std::to_string(grid.nk) + " has a dimension below 1");
}

// Receives: the ghost planes below (their owners are below this rank) then
// above, so neighbours come out ascending and each one's cells are one run.
void plan_receives(const std::vector<index_t>& starts, Slab& s) {
  HaloPlan& h = s.halo;
  const index_t first = s.first_held(), last = first + s.held();
  for (index_t p = first; p < last; ++p) {
    if (p == s.first_plane) p += s.planes;  // skip the owned planes
    if (p >= last) break;
    const int q = static_cast<int>(std::upper_bound(starts.begin(), starts.end(), p) - starts.begin()) - 1;
    if (h.neighbours.empty() || h.neighbours.back() != q) {
      h.neighbours.push_back(q);
      h.recv_offsets.push_back(h.recv_offsets.back());
    }
    const index_t local = s.local_of(p * s.plane_size);
    for (index_t i = 0; i < s.plane_size; ++i) h.recv_items.push_back(local + i);
    h.recv_offsets.back() += s.plane_size;
  }
}

// Sends: q's locals of what each neighbour r receives from it, in r's order.
// Slabs within ghost_planes of each other receive from each other, so visiting
// r ascending appends q's sends in q's neighbour order.
void plan_sends(std::vector<Slab>& slabs) {
  for (const Slab& r : slabs)
    for (int n = 0; n < r.halo.neighbour_count(); ++n) {
      Slab& q = slabs[r.halo.neighbours[n]];
      for (index_t k = r.halo.recv_offsets[n]; k < r.halo.recv_offsets[n + 1]; ++k)
        q.halo.send_items.push_back(q.local_of(r.global_of(r.halo.recv_items[k])));
      q.halo.send_offsets.push_back(static_cast<index_t>(q.halo.send_items.size()));
    }
}

}  // namespace

std::vector<Slab> decompose_slabs(const StructuredIndex& grid, int parts, int ghost_planes) {
  validate(grid, parts, ghost_planes);
  const bool is_3d = slab_axis(grid) == 2;
  const index_t total = is_3d ? grid.nk : grid.nj;
  const index_t plane_size = is_3d ? grid.ni * grid.nj : grid.ni;
  std::vector<index_t> starts(parts + 1, 0);
  for (int p = 0; p < parts; ++p) starts[p + 1] = starts[p] + total / parts + (p < total % parts ? 1 : 0);
  std::vector<Slab> slabs(parts);
  for (int p = 0; p < parts; ++p) {
    Slab& s = slabs[p];
    s.rank = p;
    s.plane_size = plane_size;
    s.first_plane = starts[p];
    s.planes = starts[p + 1] - starts[p];
    if (s.planes > 0) {
      s.planes_below = std::min<index_t>(ghost_planes, s.first_plane);
      s.planes_above = std::min<index_t>(ghost_planes, total - starts[p + 1]);
    }
    plan_receives(starts, s);
  }
  plan_sends(slabs);
  return slabs;
}

HaloPlan natural_order_halo(const Slab& slab) {
  HaloPlan h = slab.halo;
  for (auto* items : {&h.send_items, &h.recv_items})
    for (index_t& l : *items) l = slab.global_of(l) - slab.global_begin();
  return h;
}

}  // namespace tb
