// Built without MPI: one process, nothing to share.
#include <cstdlib>

#include "domain_sharing.hpp"
#include "solvers/core/error.hpp"

namespace tb::harness {

int run_ranks() { return 1; }
int run_rank() { return 0; }

std::unique_ptr<DomainShare> share_over_ranks(Subdomain, std::vector<index_t>, index_t) {
  throw Error("internal: a decomposed domain in a build without MPI");
}

std::unique_ptr<DomainShare> share_over_slab(const Slab&, index_t) {
  throw Error("internal: a decomposed domain in a build without MPI");
}

int max_over_ranks(int v) { return v; }

void abort_ranks(int code) { std::exit(code); }

std::string scatter_from_root(const std::vector<std::string>& per_rank) {
  if (per_rank.size() != 1) throw Error("internal: " + std::to_string(per_rank.size()) + " parts for one process");
  return per_rank[0];
}

}  // namespace tb::harness
