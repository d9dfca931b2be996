#include "mesh/graph/subdomain.hpp"

#include <algorithm>
#include <string>

#include "solvers/core/error.hpp"

namespace tb {

index_t Subdomain::local_of(index_t global_vertex) const {
  auto it = std::lower_bound(by_global.begin(), by_global.end(), global_vertex,
                             [&](index_t local, index_t v) { return global[local] < v; });
  return it != by_global.end() && global[*it] == global_vertex ? *it : -1;
}

namespace {

void validate(const Graph& g, std::span<const index_t> owner, int parts, int layers) {
  TB_REQUIRE(parts >= 1, "decompose: parts must be at least 1, not " + std::to_string(parts));
  TB_REQUIRE(layers >= 0, "decompose: layers must be at least 0, not " + std::to_string(layers));
  TB_REQUIRE(static_cast<index_t>(owner.size()) == g.size(), "decompose: owner has " + std::to_string(owner.size()) +
                                                                 " entries for a graph of " + std::to_string(g.size()) +
                                                                 " vertices");
  for (std::size_t v = 0; v < owner.size(); ++v)
    TB_REQUIRE(owner[v] >= 0 && owner[v] < parts, "decompose: owner[" + std::to_string(v) +
                                                      "] = " + std::to_string(owner[v]) + " is not in [0, " +
                                                      std::to_string(parts) + ")");
}

// Owned vertices and the ghost layers of one part by a BFS from its owned set.
// `distance` (one entry per vertex, -1 = unseen) is shared by all parts and
// reset here, so the whole decomposition allocates it once.
void grow_layers(const Graph& g, std::span<const index_t> owner, int layers, std::vector<index_t>& distance,
                 Subdomain& s) {
  for (index_t v : s.global) distance[v] = 0;
  index_t front_begin = 0;
  for (int layer = 1; layer <= layers; ++layer) {
    const index_t front_end = s.size();
    for (index_t l = front_begin; l < front_end; ++l)
      for (const index_t* u = g.begin(s.global[l]); u != g.end(s.global[l]); ++u)
        if (distance[*u] < 0) {
          distance[*u] = layer;
          s.global.push_back(*u);
        }
    std::sort(s.global.begin() + front_end, s.global.end());
    s.layer_end.push_back(s.size());
    front_begin = front_end;
  }
  for (index_t v : s.global) distance[v] = -1;
  for (index_t l = s.owned; l < s.size(); ++l) s.ghost_owner.push_back(static_cast<int>(owner[s.global[l]]));
  s.by_global.resize(s.global.size());
  for (index_t l = 0; l < s.size(); ++l) s.by_global[l] = l;
  std::sort(s.by_global.begin(), s.by_global.end(), [&](index_t a, index_t b) { return s.global[a] < s.global[b]; });
}

// Receives: the ghosts grouped by owner (ascending), each group in local order.
void plan_receives(Subdomain& s) {
  std::vector<index_t> ghosts(s.ghosts());
  for (index_t i = 0; i < s.ghosts(); ++i) ghosts[i] = i;
  std::stable_sort(ghosts.begin(), ghosts.end(),
                   [&](index_t a, index_t b) { return s.ghost_owner[a] < s.ghost_owner[b]; });
  HaloPlan& h = s.halo;
  for (index_t i : ghosts) {
    const int q = s.ghost_owner[i];
    if (h.neighbours.empty() || h.neighbours.back() != q) {
      h.neighbours.push_back(q);
      h.recv_offsets.push_back(h.recv_offsets.back());
    }
    h.recv_items.push_back(s.owned + i);
    ++h.recv_offsets.back();
  }
}

// Sends: what each neighbour r receives from q, as q's locals of the same
// vertices in r's order. Ghost-of relations are symmetric (a path of length
// <= layers from an r-owned to a q-owned vertex makes each a ghost of the
// other), so q's send neighbours are its receive neighbours; visiting r in
// ascending order appends q's sends in q's neighbour order.
void plan_sends(std::vector<Subdomain>& parts, const std::vector<index_t>& owned_position) {
  for (const Subdomain& r : parts) {
    for (int n = 0; n < r.halo.neighbour_count(); ++n) {
      HaloPlan& q = parts[r.halo.neighbours[n]].halo;
      const std::size_t slot = q.send_offsets.size() - 1;
      TB_REQUIRE(slot < q.neighbours.size() && q.neighbours[slot] == r.rank,
                 "decompose: rank " + std::to_string(r.rank) + " receives from rank " +
                     std::to_string(r.halo.neighbours[n]) + ", which does not list it as a neighbour");
      for (index_t k = r.halo.recv_offsets[n]; k < r.halo.recv_offsets[n + 1]; ++k)
        q.send_items.push_back(owned_position[r.global[r.halo.recv_items[k]]]);
      q.send_offsets.push_back(static_cast<index_t>(q.send_items.size()));
    }
  }
}

}  // namespace

std::vector<Subdomain> decompose(const Graph& g, std::span<const index_t> owner, int parts, int layers) {
  validate(g, owner, parts, layers);
  std::vector<Subdomain> out(parts);
  // The owner's local index of each vertex (owned locals are ascending global).
  std::vector<index_t> owned_position(g.size());
  for (index_t v = 0; v < g.size(); ++v) {
    Subdomain& s = out[owner[v]];
    owned_position[v] = s.owned++;
    s.global.push_back(v);
  }
  std::vector<index_t> distance(g.size(), -1);
  for (int p = 0; p < parts; ++p) {
    out[p].rank = p;
    grow_layers(g, owner, layers, distance, out[p]);
    plan_receives(out[p]);
  }
  plan_sends(out, owned_position);
  return out;
}

}  // namespace tb
