#include "halo_exchange.hpp"

#include <algorithm>
#include <cstdlib>
#include <string>
#include <utility>

#include "mpi_communicator.hpp"
#include "mpi_wait_clock.hpp"
#include "solvers/core/error.hpp"

namespace tb::dist {

namespace {
void check(int code, const char* call) { check_mpi(code, "halo exchange", call); }

HaloTransport transport_named(const std::string& name, const char* where) {
  if (name == "persistent") return HaloTransport::persistent;
  if (name == "neighbourhood") return HaloTransport::neighbourhood;
  throw Error(std::string(where) + ": given '" + name + "', allowed persistent or neighbourhood");
}
}  // namespace

HaloTransport default_halo_transport() {
  static const HaloTransport t = [] {
    const char* v = std::getenv("TB_HALO_TRANSPORT");
    return v ? transport_named(v, "TB_HALO_TRANSPORT") : HaloTransport::persistent;
  }();
  return t;
}

const char* to_string(HaloTransport t) { return t == HaloTransport::persistent ? "persistent" : "neighbourhood"; }

HaloExchange::HaloExchange(MPI_Comm comm, HaloPlan plan, index_t width, HaloTransport transport)
    : plan_(std::move(plan)), width_(width), transport_(transport) {
  if (width < 1) throw Error("halo exchange: width " + std::to_string(width) + ", allowed >= 1");
  const int n = plan_.neighbour_count();
  if (plan_.send_offsets.size() != std::size_t(n) + 1 || plan_.recv_offsets.size() != std::size_t(n) + 1)
    throw Error("halo exchange: the plan's offsets do not match its " + std::to_string(n) + " neighbours");
  send_counts_.resize(std::size_t(n));
  send_displs_.resize(std::size_t(n));
  recv_counts_.resize(std::size_t(n));
  recv_displs_.resize(std::size_t(n));
  for (int q = 0; q < n; ++q) {
    send_counts_[std::size_t(q)] = int(plan_.send_count(q) * width);
    send_displs_[std::size_t(q)] = int(plan_.send_offsets[std::size_t(q)] * width);
    recv_counts_[std::size_t(q)] = int(plan_.recv_count(q) * width);
    recv_displs_[std::size_t(q)] = int(plan_.recv_offsets[std::size_t(q)] * width);
  }
  send_buf_.resize(plan_.send_items.size() * std::size_t(width));
  recv_buf_.resize(plan_.recv_items.size() * std::size_t(width));
  if (transport_ == HaloTransport::neighbourhood) {
    // The same neighbours both ways: a pair that talks one way only sends zero items the other.
    check(MPI_Dist_graph_create_adjacent(comm, n, plan_.neighbours.data(), MPI_UNWEIGHTED, n, plan_.neighbours.data(),
                                         MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &comm_),
          "MPI_Dist_graph_create_adjacent");
    requests_.assign(1, MPI_REQUEST_NULL);
    return;
  }
  // A private communicator: two exchanges in flight between the same ranks
  // (the product's and a Schwarz residual's) never match each other's messages.
  check(MPI_Comm_dup(comm, &comm_), "MPI_Comm_dup");
  // One persistent request per neighbour that has items, receives first.
  const auto requests_for = [&](const std::vector<int>& counts, const std::vector<int>& displs, double* buf,
                                bool receive) {
    constexpr int tag = 0;
    for (int q = 0; q < n; ++q) {
      const std::size_t uq = std::size_t(q);
      if (counts[uq] == 0) continue;
      requests_.push_back(MPI_REQUEST_NULL);
      const int peer = plan_.neighbours[uq];
      if (receive)
        check(MPI_Recv_init(buf + displs[uq], counts[uq], MPI_DOUBLE, peer, tag, comm_, &requests_.back()),
              "MPI_Recv_init");
      else
        check(MPI_Send_init(buf + displs[uq], counts[uq], MPI_DOUBLE, peer, tag, comm_, &requests_.back()),
              "MPI_Send_init");
    }
  };
  requests_for(recv_counts_, recv_displs_, recv_buf_.data(), true);
  requests_for(send_counts_, send_displs_, send_buf_.data(), false);
}

HaloExchange::~HaloExchange() {
  if (comm_ == MPI_COMM_NULL || mpi_finalized()) return;
  if (started_) MPI_Waitall(int(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE);
  if (transport_ == HaloTransport::persistent)
    for (MPI_Request& r : requests_) MPI_Request_free(&r);
  MPI_Comm_free(&comm_);
}

void HaloExchange::begin(const double* src) {
  const std::size_t w = std::size_t(width_);
  for (std::size_t s = 0; s < plan_.send_items.size(); ++s)
    std::copy_n(src + std::size_t(plan_.send_items[s]) * w, w, send_buf_.data() + s * w);
  if (transport_ == HaloTransport::persistent) {
    if (!requests_.empty()) check(MPI_Startall(int(requests_.size()), requests_.data()), "MPI_Startall");
  } else {
    check(MPI_Ineighbor_alltoallv(send_buf_.data(), send_counts_.data(), send_displs_.data(), MPI_DOUBLE,
                                  recv_buf_.data(), recv_counts_.data(), recv_displs_.data(), MPI_DOUBLE, comm_,
                                  &requests_[0]),
          "MPI_Ineighbor_alltoallv");
  }
  started_ = true;
}

void HaloExchange::end(double* dst, index_t dst_first) {
  {
    const MpiWait wait;
    check(MPI_Waitall(int(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
  }
  started_ = false;
  const std::size_t w = std::size_t(width_);
  for (std::size_t s = 0; s < plan_.recv_items.size(); ++s)
    std::copy_n(recv_buf_.data() + s * w, w, dst + std::size_t(plan_.recv_items[s] - dst_first) * w);
}

HaloPlan matrix_halo_plan(MPI_Comm comm, const RowDistribution& rows, std::span<const index_t> ghost_columns) {
  int size = 1, rank = 0;
  MPI_Comm_size(comm, &size);
  MPI_Comm_rank(comm, &rank);
  if (rows.parts() != size)
    throw Error("distributed matrix: the row distribution has " + std::to_string(rows.parts()) + " parts for " +
                std::to_string(size) + " ranks");
  const index_t first = rows.first(rank), owned = rows.owned(rank);
  // What this rank needs from each rank: its ghost columns grouped by owner
  // (contiguous, since both are ascending).
  std::vector<int> need(std::size_t(size), 0);
  for (index_t g : ghost_columns) ++need[std::size_t(rows.owner(g))];
  const std::vector<int> give = alltoall_counts(comm, need);
  const std::vector<int> need_displs = displacements(need), give_displs = displacements(give);
  std::vector<index_t> asked(std::size_t(give_displs.back() + give.back()));
  alltoallv(comm, ghost_columns, need, asked, give);

  HaloPlan plan;
  for (int q = 0; q < size; ++q) {
    const std::size_t uq = std::size_t(q);
    if (q == rank || (need[uq] == 0 && give[uq] == 0)) continue;
    plan.neighbours.push_back(q);
    for (int k = give_displs[uq]; k < give_displs[uq] + give[uq]; ++k) {
      const index_t row = asked[std::size_t(k)];
      if (row < first || row >= first + owned)
        throw Error("distributed matrix: rank " + std::to_string(q) + " asked rank " + std::to_string(rank) +
                    " for row " + std::to_string(row) + ", which it does not own");
      plan.send_items.push_back(row - first);
    }
    for (int k = need_displs[uq]; k < need_displs[uq] + need[uq]; ++k) plan.recv_items.push_back(owned + k);
    plan.send_offsets.push_back(index_t(plan.send_items.size()));
    plan.recv_offsets.push_back(index_t(plan.recv_items.size()));
  }
  return plan;
}

}  // namespace tb::dist
