// decompose_slabs (mesh/structured/slab.hpp): slabs of planes against a count
// written here and against decompose on the grid's 7-point graph, and ghost
// planes filled by a simulated exchange.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "halo_checks.hpp"
#include "mesh/graph/subdomain.hpp"
#include "mesh/structured/slab.hpp"
#include "solvers/core/error.hpp"

namespace tb {
namespace {

// The 7-point (5-point in 2D) graph of a grid in the natural order.
Graph stencil_graph(const StructuredIndex& s) {
  std::vector<std::pair<index_t, index_t>> edges;
  for (index_t k = 0; k < s.nk; ++k)
    for (index_t j = 0; j < s.nj; ++j)
      for (index_t i = 0; i < s.ni; ++i) {
        if (i + 1 < s.ni) edges.push_back({s.natural(i, j, k), s.natural(i + 1, j, k)});
        if (j + 1 < s.nj) edges.push_back({s.natural(i, j, k), s.natural(i, j + 1, k)});
        if (k + 1 < s.nk) edges.push_back({s.natural(i, j, k), s.natural(i, j, k + 1)});
      }
  return graph_from_edges(s.cells(), edges);
}

void expect_slabs(const StructuredIndex& grid, int parts, int ghost) {
  SCOPED_TRACE(std::to_string(grid.ni) + " x " + std::to_string(grid.nj) + " x " + std::to_string(grid.nk) + ", " +
               std::to_string(parts) + " parts, " + std::to_string(ghost) + " ghost planes");
  const std::vector<Slab> slabs = decompose_slabs(grid, parts, ghost);
  ASSERT_EQ(static_cast<int>(slabs.size()), parts);
  // Planes and their owners counted here: plane p of n goes to the rank r with
  // r * (n / parts) + min(r, n % parts) <= p, as a balanced split deals them.
  const index_t n = grid.nk > 1 ? grid.nk : grid.nj;
  auto plane_of = [&](index_t cell) { return grid.nk > 1 ? grid.k_of(cell) : grid.j_of(cell); };
  std::vector<index_t> owner(grid.cells());
  std::vector<index_t> planes_of(parts, 0);
  for (index_t cell = 0; cell < grid.cells(); ++cell) {
    index_t r = 0;
    while (r + 1 < parts && (r + 1) * (n / parts) + std::min<index_t>(r + 1, n % parts) <= plane_of(cell)) ++r;
    owner[cell] = r;
  }
  for (index_t p = 0; p < n; ++p) ++planes_of[owner[grid.ni * (grid.nk > 1 ? grid.nj * p : p)]];
  const std::vector<Subdomain> sub = decompose(stencil_graph(grid), owner, parts, ghost);
  for (int r = 0; r < parts; ++r) {
    const Slab& s = slabs[r];
    SCOPED_TRACE("rank " + std::to_string(r));
    EXPECT_EQ(s.rank, r);
    EXPECT_EQ(s.planes, planes_of[r]);
    EXPECT_LE(s.planes_below, ghost);
    EXPECT_LE(s.planes_above, ghost);
    // Held cells: those within `ghost` planes of an owned plane, as the BFS of decompose finds them.
    index_t held = 0, wrong = 0;
    for (index_t cell = 0; cell < grid.cells(); ++cell) {
      const index_t local = s.local_of(cell);
      held += local >= 0;
      wrong += (local >= 0) != (sub[r].local_of(cell) >= 0);
      if (local >= 0) wrong += s.global_of(local) != cell || (local < s.owned()) != (owner[cell] == r);
    }
    EXPECT_EQ(held, sub[r].size());
    EXPECT_EQ(held, s.size());
    EXPECT_EQ(s.owned(), sub[r].owned);
    EXPECT_EQ(wrong, 0);
    EXPECT_EQ(s.halo.neighbours, sub[r].halo.neighbours);
  }
  EXPECT_EQ(testing::wrong_ghosts_after_exchange(
                slabs, [](const Slab& s) { return s.owned(); }, [](const Slab& s) { return s.size(); },
                [](const Slab& s, index_t l) { return s.global_of(l); }),
            0);
}

TEST(Slabs, ThreeDimensionalGridSplitsK) {
  const StructuredIndex grid{4, 3, 10};
  const std::vector<Slab> slabs = decompose_slabs(grid, 3, 2);
  EXPECT_EQ(slab_axis(grid), 2);
  EXPECT_EQ(slabs[0].plane_size, 12);
  EXPECT_EQ(slabs[1].first_plane, 4);
  EXPECT_EQ(slabs[1].planes, 3);
  EXPECT_EQ(slabs[1].planes_below, 2);
  EXPECT_EQ(slabs[1].planes_above, 2);
  EXPECT_EQ(slabs[0].planes_below, 0);
  EXPECT_EQ(slabs[2].planes_above, 0);
  EXPECT_EQ(slabs[1].global_begin(), 2 * 12);
  EXPECT_EQ(slabs[1].global_end(), 9 * 12);
  // Rank 1 owns planes 4..6: local 0 is global 48; the ghost planes 2, 3 follow, then 7, 8.
  EXPECT_EQ(slabs[1].local_of(48), 0);
  EXPECT_EQ(slabs[1].local_of(24), 36);
  EXPECT_EQ(slabs[1].local_of(84), 60);
  EXPECT_EQ(slabs[1].local_of(108), -1);
  EXPECT_EQ(slabs[1].halo.neighbours, (std::vector<int>{0, 2}));
  EXPECT_EQ(slabs[1].halo.recv_count(0), 24);
  EXPECT_EQ(slabs[1].halo.recv_items[0], 36);
  // Rank 0 sends its planes 2 and 3 (its locals 24..47) to rank 1.
  EXPECT_EQ(slabs[0].halo.send_items.front(), 24);
  EXPECT_EQ(slabs[0].halo.send_items.back(), 47);
  for (int ghost : {0, 1, 2, 3}) expect_slabs(grid, 3, ghost);
  expect_slabs(grid, 4, 2);
}

TEST(Slabs, TwoDimensionalGridSplitsJ) {
  const StructuredIndex grid{5, 7, 1};
  EXPECT_EQ(slab_axis(grid), 1);
  EXPECT_EQ(decompose_slabs(grid, 2, 1)[0].plane_size, 5);
  for (int ghost : {1, 2}) expect_slabs(grid, 4, ghost);
}

TEST(Slabs, ThinAndEmptySlabs) {
  // Five planes over eight ranks: three ranks get none and hold nothing;
  // slabs of one plane take two ghost planes from two neighbours each side.
  const StructuredIndex grid{3, 2, 5};
  const std::vector<Slab> slabs = decompose_slabs(grid, 8, 2);
  for (int r = 5; r < 8; ++r) {
    EXPECT_EQ(slabs[r].planes, 0);
    EXPECT_EQ(slabs[r].size(), 0);
    EXPECT_EQ(slabs[r].halo.neighbour_count(), 0);
  }
  EXPECT_EQ(slabs[2].halo.neighbours, (std::vector<int>{0, 1, 3, 4}));
  expect_slabs(grid, 8, 2);
  expect_slabs(grid, 8, 4);
  expect_slabs(grid, 1, 2);
}

// The plan in the natural local order (ghost planes below, owned, above): the
// same cells travel, now numbered global - global_begin().
TEST(Slabs, NaturalOrderHaloMovesTheSameCells) {
  const StructuredIndex grid{3, 9, 1};
  const std::vector<Slab> slabs = decompose_slabs(grid, 3, 2);
  index_t wrong = 0, moved = 0;
  for (const Slab& r : slabs) {
    const HaloPlan hr = natural_order_halo(r);
    const index_t own_begin = r.planes_below * r.plane_size, own_end = own_begin + r.owned();
    for (int n = 0; n < hr.neighbour_count(); ++n) {
      const Slab& q = slabs[hr.neighbours[n]];
      const HaloPlan hq = natural_order_halo(q);
      const int back = int(std::find(hq.neighbours.begin(), hq.neighbours.end(), r.rank) - hq.neighbours.begin());
      ASSERT_EQ(hq.send_count(back), hr.recv_count(n));
      const index_t q_begin = q.planes_below * q.plane_size;
      for (index_t k = 0; k < hr.recv_count(n); ++k) {
        const index_t recv = hr.recv_items[hr.recv_offsets[n] + k], send = hq.send_items[hq.send_offsets[back] + k];
        wrong += recv >= own_begin && recv < own_end;                 // a ghost receives
        wrong += send < q_begin || send >= q_begin + q.owned();       // an owned cell sends
        wrong += r.global_begin() + recv != q.global_begin() + send;  // the same cell
        ++moved;
      }
    }
  }
  EXPECT_EQ(wrong, 0);
  EXPECT_EQ(moved, 2 * 2 * 2 * 3);  // two interfaces, two ghost planes each way, 3 cells a plane
}

TEST(Slabs, RefuseBadArguments) {
  EXPECT_THROW(decompose_slabs({4, 4, 4}, 0, 1), Error);
  EXPECT_THROW(decompose_slabs({4, 4, 4}, 2, -1), Error);
  EXPECT_THROW(decompose_slabs({4, 0, 4}, 2, 1), Error);
}

}  // namespace
}  // namespace tb
