#pragma once
// How a decomposed run tells people at start-up what each rank holds.
#include <string>
#include <vector>

namespace tb::harness {

// "3,019": counts people read at start-up.
std::string grouped(double count);

// "3,019 + 3,019" for a few ranks, "371..380 per rank" for many.
std::string per_rank(const std::vector<double>& counts);

// When a run's solvers use a GPU and this node's ranks outnumber its devices:
// the note that they share them, else empty. The driver gives separate
// processes' contexts turns on a GPU: tb-ib's GBCG on 2 ranks sharing one H100
// ran 10x slower than on one rank (docs/distributed.md).
std::string gpu_sharing(int ranks_on_node, int devices);

}  // namespace tb::harness
