// A DomainShare over MPI: the run's communicator (solver_communicator(), the
// world under mpiexec), one HaloExchange per width of exchanged values (made
// at its first use, collectively, then reused), reductions in one
// MPI_Allreduce each.
#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <limits>
#include <map>
#include <string>
#include <utility>

#include "domain_sharing.hpp"
#include "solvers/core/array.hpp"
#include "solvers/core/error.hpp"
#include "solvers/dist/backend_halo_exchange.hpp"
#include "solvers/dist/halo_exchange.hpp"
#include "solvers/dist/kernels.hpp"
#include "solvers/dist/mpi_communicator.hpp"
#include "solvers/factory/solver_communicator.hpp"

namespace tb::harness {

namespace {

void check(int code, const char* call) { dist::check_mpi(code, "domain share", call); }

// The local entries a share holds: how many, which are owned, and the plan that refreshes the ghosts.
struct LocalEntries {
  index_t size = 0;
  index_t first_owned = 0;
  index_t owned = 0;
  HaloPlan halo;
};

// A rank with no local entries still takes part in an exchange (its data pointer may be null).
double* or_placeholder(double* values) {
  static double none = 0.0;
  return values ? values : &none;
}

// A share's ghost refresh of values on a backend: the solver layer's exchange
// from buffers there (staged or CUDA-aware), then each received item put in
// its ghost's place there.
class BackendGhosts {
 public:
  BackendGhosts(MPI_Comm comm, const HaloPlan& plan, index_t width, Backend b)
      : halo_(comm, plan, width, b, dist::default_halo_path(b)),
        recv_items_(b, std::span<const index_t>(plan.recv_items)),
        width_(width) {}
  void exchange(double* values) {
    halo_.begin(values);
    const double* received = halo_.end();
    dist::kernels::scatter_items(halo_.backend(), received, recv_items_.data(), index_t(recv_items_.size()), width_,
                                 values);
  }
  dist::HaloPath path() const { return halo_.path(); }

 private:
  dist::BackendHaloExchange halo_;
  Array<index_t> recv_items_;
  index_t width_;
};

class MpiDomainShare final : public DomainShare {
 public:
  MpiDomainShare(std::shared_ptr<const dist::MpiCommunicator> comm, LocalEntries cells, std::vector<index_t> rows,
                 index_t global_size)
      : comm_(std::move(comm)), cells_(std::move(cells)), rows_(std::move(rows)), global_size_(global_size) {
    if (rows_.size() != std::size_t(cells_.size))
      throw Error("internal: " + std::to_string(rows_.size()) + " global rows for " + std::to_string(cells_.size) +
                  " local entries");
  }

  int rank() const override { return comm_->rank(); }
  int ranks() const override { return comm_->size(); }
  index_t owned() const override { return cells_.owned; }
  index_t first_owned() const override { return cells_.first_owned; }
  index_t local_size() const override { return cells_.size; }
  index_t global_size() const override { return global_size_; }
  std::span<const index_t> global_rows() const override { return rows_; }

  void exchange(std::span<double> values, index_t width) const override {
    if (values.size() != std::size_t(cells_.size) * std::size_t(width))
      throw Error("internal: exchange of " + std::to_string(values.size()) + " values, " + std::to_string(cells_.size) +
                  " local entries of width " + std::to_string(width));
    auto& h = exchanges_[width];
    if (!h) h = std::make_unique<dist::HaloExchange>(comm_->comm(), cells_.halo, width);
    h->exchange(or_placeholder(values.empty() ? nullptr : values.data()));
  }

  // Made at its first use per width and backend, collectively (every rank exchanges at once).
  void exchange_on(Backend b, double* values, index_t width) const override {
    auto& g = backend_exchanges_[{width, b}];
    if (!g) g = std::make_unique<BackendGhosts>(comm_->comm(), cells_.halo, width, b);
    g->exchange(or_placeholder(values));
  }
  const char* halo_path_on(Backend b) const override { return dist::to_string(dist::default_halo_path(b)); }

  void sum(std::span<double> v) const override {
    check(MPI_Allreduce(MPI_IN_PLACE, v.data(), int(v.size()), MPI_DOUBLE, MPI_SUM, comm_->comm()), "MPI_Allreduce");
  }
  void max(std::span<double> v) const override {
    check(MPI_Allreduce(MPI_IN_PLACE, v.data(), int(v.size()), MPI_DOUBLE, MPI_MAX, comm_->comm()), "MPI_Allreduce");
  }
  using DomainShare::max;
  using DomainShare::sum;

  std::vector<double> gather_on_root(std::span<const double> mine) const override {
    const int n = ranks();
    int count = int(mine.size());
    std::vector<int> counts(rank() == 0 ? std::size_t(n) : 0), displs(counts.size());
    check(MPI_Gather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, comm_->comm()), "MPI_Gather");
    std::size_t total = 0;
    for (std::size_t r = 0; r < counts.size(); ++r) displs[r] = int(total), total += std::size_t(counts[r]);
    std::vector<double> all(total);
    check(MPI_Gatherv(mine.data(), count, MPI_DOUBLE, all.data(), counts.data(), displs.data(), MPI_DOUBLE, 0,
                      comm_->comm()),
          "MPI_Gatherv");
    return all;
  }

 private:
  std::shared_ptr<const dist::MpiCommunicator> comm_;
  LocalEntries cells_;
  std::vector<index_t> rows_;
  index_t global_size_;
  mutable std::map<index_t, std::unique_ptr<dist::HaloExchange>> exchanges_;
  mutable std::map<std::pair<index_t, Backend>, std::unique_ptr<BackendGhosts>> backend_exchanges_;
};

}  // namespace

int run_ranks() { return solver_communicator()->size(); }
int run_rank() { return solver_communicator()->rank(); }

namespace {

std::shared_ptr<const dist::MpiCommunicator> run_communicator() {
  auto comm = std::dynamic_pointer_cast<const dist::MpiCommunicator>(solver_communicator());
  if (!comm) throw Error("internal: a decomposed domain on one process");
  return comm;
}

}  // namespace

int max_over_ranks(int v) {
  if (run_ranks() == 1) return v;
  MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_INT, MPI_MAX, run_communicator()->comm());
  return v;
}

std::unique_ptr<DomainShare> share_over_ranks(Subdomain cells, std::vector<index_t> global_rows, index_t global_size) {
  LocalEntries local{cells.size(), 0, cells.owned, std::move(cells.halo)};
  return std::make_unique<MpiDomainShare>(run_communicator(), std::move(local), std::move(global_rows), global_size);
}

std::unique_ptr<DomainShare> share_over_slab(const Slab& slab, index_t cells) {
  LocalEntries local{slab.size(), slab.planes_below * slab.plane_size, slab.owned(), natural_order_halo(slab)};
  std::vector<index_t> rows(std::size_t(slab.size()));
  for (index_t l = 0; l < slab.size(); ++l) rows[std::size_t(l)] = slab.global_begin() + l;
  return std::make_unique<MpiDomainShare>(run_communicator(), std::move(local), std::move(rows), cells);
}

std::string scatter_from_root(const std::vector<std::string>& per_rank) {
  if (run_ranks() == 1) return per_rank.at(0);
  const auto comm = run_communicator();
  const int ranks = comm->size();
  std::vector<int> counts, displs;
  std::string all;
  if (comm->rank() == 0) {
    if (per_rank.size() != std::size_t(ranks))
      throw Error("internal: " + std::to_string(per_rank.size()) + " parts for " + std::to_string(ranks) + " ranks");
    // MPI_Scatterv takes each part's size and offset (the parts before it) as
    // ints: both are checked before any byte is copied.
    constexpr std::size_t most = std::size_t(std::numeric_limits<int>::max());
    std::size_t offset = 0;
    for (const std::string& part : per_rank) {
      if (part.size() > most) {
        std::fprintf(stderr, "error: a rank's part of %zu bytes, MPI sends at most 2 GiB at once: run on more ranks\n",
                     part.size());
        abort_ranks(2);
      }
      if (offset > most) {
        std::fprintf(stderr, "error: the pieces for the %d ranks exceed the 2 GiB one MPI_Scatterv addresses\n", ranks);
        abort_ranks(2);
      }
      counts.push_back(int(part.size()));
      displs.push_back(int(offset));
      offset += part.size();
    }
    all.reserve(offset);
    for (const std::string& part : per_rank) all += part;
  }
  int mine = 0;
  check(MPI_Scatter(counts.data(), 1, MPI_INT, &mine, 1, MPI_INT, 0, comm->comm()), "MPI_Scatter");
  std::string out(std::size_t(mine), '\0');
  check(MPI_Scatterv(all.data(), counts.data(), displs.data(), MPI_BYTE, out.data(), mine, MPI_BYTE, 0, comm->comm()),
        "MPI_Scatterv");
  return out;
}

void abort_ranks(int code) {
  std::fflush(stdout);
  std::fflush(stderr);
  MPI_Abort(MPI_COMM_WORLD, code);
  std::exit(code);  // MPI_Abort does not return; the compiler does not know it
}

}  // namespace tb::harness
