#include "miniapps/common/rank_counts.hpp"

#include <algorithm>

namespace tb::harness {

std::string grouped(double count) {
  std::string digits = std::to_string(static_cast<long long>(count)), out;
  for (std::size_t k = 0; k < digits.size(); ++k) {
    if (k > 0 && (digits.size() - k) % 3 == 0) out += ',';
    out += digits[k];
  }
  return out;
}

std::string per_rank(const std::vector<double>& counts) {
  std::string out;
  if (counts.size() <= 8) {
    for (double c : counts) out += (out.empty() ? "" : " + ") + grouped(c);
    return out;
  }
  const auto [lo, hi] = std::minmax_element(counts.begin(), counts.end());
  return grouped(*lo) + ".." + grouped(*hi) + " per rank";
}

std::string gpu_sharing(int ranks_on_node, int devices) {
  if (devices <= 0 || ranks_on_node <= devices) return {};
  return std::to_string(ranks_on_node) + " ranks on this node share " + std::to_string(devices) + " GPU" +
         (devices > 1 ? "s" : "") +
         ": separate processes take turns on a GPU, each wait a time slice (one rank per GPU, or NVIDIA's MPS "
         "daemon, runs them side by side)";
}

}  // namespace tb::harness
