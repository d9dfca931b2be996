#pragma once
// The ranks a miniapp runs on, and its share of a decomposed domain over them
// (docs/distributed.md): MPI's in builds with MPI (domain_sharing_mpi.cpp: the ghosts
// through persistent requests (HaloExchange), the reductions through MPI_Allreduce),
// none without (domain_sharing_self.cpp). No MPI header here.
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "mesh/graph/subdomain.hpp"
#include "mesh/structured/slab.hpp"
#include "physics/domain_share.hpp"

namespace tb::harness {

// The processes of this run (1 without mpiexec, or without MPI).
int run_ranks();
int run_rank();

// The largest v over the run's ranks (MPI_Allreduce); v on one process. Collective.
int max_over_ranks(int v);

// Ends every rank of the run with `code` (MPI_Abort), for an error some ranks
// may not share; exit(code) on one process.
[[noreturn]] void abort_ranks(int code);

// Rank r's bytes of `per_rank`, which rank 0 alone fills (one string a rank;
// the other ranks pass an empty vector): MPI_Scatterv. Collective. On one
// process, per_rank[0]. A part over 2 GiB, or parts before the last one
// that together pass 2 GiB, end the run (abort_ranks(2)) with a message: MPI
// counts in int.
std::string scatter_from_root(const std::vector<std::string>& per_rank);

// This rank's share: `cells` from decompose() or decompose_mesh(), each local
// entry's row in the distributed numbering (global_rows, part by part), and the
// entries over all ranks. Collective. Throws tb::Error on one process (a whole
// domain needs no share: WholeDomain).
std::unique_ptr<DomainShare> share_over_ranks(Subdomain cells, std::vector<index_t> global_rows, index_t global_size);

// This rank's slab of a structured grid of `cells` cells (decompose_slabs),
// its local entries in the natural order (natural_order_halo): the ghost planes
// below, its own planes, those above. Its rows are the grid's natural numbering,
// which is part by part for slabs. Collective; throws tb::Error on one process.
std::unique_ptr<DomainShare> share_over_slab(const Slab& slab, index_t cells);

// How `share`'s ghosts travel between the ranks' devices, for a start-up line:
// "by CUDA-aware MPI" or "through host memory (staged)".
inline std::string device_ghost_path(const DomainShare& share) {
  return std::string_view(share.halo_path_on(Backend::cuda)) == "cuda_aware" ? "by CUDA-aware MPI"
                                                                             : "through host memory (staged)";
}

}  // namespace tb::harness
