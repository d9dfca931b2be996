#pragma once
// How a decomposed run tells people at start-up what each rank holds.
#include <string>
#include <vector>

namespace tb::harness {

// "3,019": counts people read at start-up.
std::string grouped(double count);

// "3,019 + 3,019" for a few ranks, "371..380 per rank" for many.
std::string per_rank(const std::vector<double>& counts);

}  // namespace tb::harness
