#pragma once
// A halo exchange simulated on one process: what the MPI exchange of
// solvers/dist does, as plain copies between the ranks' local vectors.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "mesh/graph/halo_plan.hpp"

namespace tb::testing {

// A value no ghost holds before the exchange and no vertex has.
inline constexpr double kUnset = -1.0;
inline double value_of(index_t global) { return 7.0 + 3.0 * global; }

// `Part` has a HaloPlan `halo`; `owned(p)`, `size(p)` and `global_of(p, local)`
// describe its local numbering. Fills each part's owned entries with their
// global values, copies send_items -> recv_items for every pair, and returns
// the number of ghosts that do not hold their global value afterwards (also
// counting mismatched send and receive counts and items outside the owned or
// ghost ranges).
template <class Part, class Owned, class Size, class GlobalOf>
index_t wrong_ghosts_after_exchange(const std::vector<Part>& parts, Owned owned, Size size, GlobalOf global_of) {
  std::vector<std::vector<double>> local(parts.size());
  for (std::size_t p = 0; p < parts.size(); ++p) {
    local[p].assign(size(parts[p]), kUnset);
    for (index_t l = 0; l < owned(parts[p]); ++l) local[p][l] = value_of(global_of(parts[p], l));
  }
  index_t wrong = 0;
  for (std::size_t r = 0; r < parts.size(); ++r) {
    const HaloPlan& hr = parts[r].halo;
    wrong += !std::is_sorted(hr.neighbours.begin(), hr.neighbours.end()) ||
             std::adjacent_find(hr.neighbours.begin(), hr.neighbours.end()) != hr.neighbours.end();
    for (int n = 0; n < hr.neighbour_count(); ++n) {
      const HaloPlan& hq = parts[hr.neighbours[n]].halo;
      auto it = std::find(hq.neighbours.begin(), hq.neighbours.end(), static_cast<int>(r));
      if (it == hq.neighbours.end() || hq.send_count(int(it - hq.neighbours.begin())) != hr.recv_count(n)) {
        wrong += hr.recv_count(n);
        continue;
      }
      const index_t* send = hq.send_items.data() + hq.send_offsets[it - hq.neighbours.begin()];
      const index_t* recv = hr.recv_items.data() + hr.recv_offsets[n];
      const auto& q = parts[hr.neighbours[n]];
      for (index_t k = 0; k < hr.recv_count(n); ++k) {
        const bool send_ok = send[k] >= 0 && send[k] < owned(q);
        const bool recv_ok = recv[k] >= owned(parts[r]) && recv[k] < size(parts[r]);
        if (!send_ok || !recv_ok) {
          ++wrong;
          continue;
        }
        local[r][recv[k]] = local[hr.neighbours[n]][send[k]];
      }
    }
  }
  for (std::size_t p = 0; p < parts.size(); ++p)
    for (index_t l = owned(parts[p]); l < size(parts[p]); ++l) wrong += local[p][l] != value_of(global_of(parts[p], l));
  return wrong;
}

}  // namespace tb::testing
