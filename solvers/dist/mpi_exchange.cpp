#include "mpi_exchange.hpp"

#include <algorithm>

#include "solvers/core/memory.hpp"

namespace tb::dist {

namespace {
constexpr int ghost_tag = 4004;
}

MpiGhostExchange::MpiGhostExchange(MPI_Comm comm, const comm::RowPartition& p, index_t band, Backend backend)
    : comm_(comm), backend_(backend) {
  int me = 0;
  MPI_Comm_rank(comm, &me);
  const index_t first = p.first(me), end = first + p.rows(me);
  std::size_t stage = 0;
  // A rank with no rows computes nothing and needs no ghosts; it is never a peer.
  for (int q = 0; me < p.parts() && p.rows(me) > 0 && q < p.parts(); ++q) {
    if (q == me || p.rows(q) == 0) continue;
    const index_t qfirst = p.first(q), qend = qfirst + p.rows(q);
    // What q needs of mine: my rows inside q's ghost zones, and the reverse.
    const index_t send_lo = std::max(first, qfirst - band), send_hi = std::min(end, qend + band);
    const index_t recv_lo = std::max(qfirst, first - band), recv_hi = std::min(qend, end + band);
    if (send_hi <= send_lo && recv_hi <= recv_lo) continue;
    Segment s;
    s.peer = q;
    s.phase = std::min(me, q) % 2;
    s.send_begin = send_lo - first;
    s.send_count = std::max<index_t>(0, send_hi - send_lo);
    s.recv_begin = recv_lo - (first - band);
    s.recv_count = std::max<index_t>(0, recv_hi - recv_lo);
    s.stage = stage;
    stage += std::size_t(std::max(s.send_count, s.recv_count));
    segments_.push_back(s);
  }
  if (backend_ != Backend::host) {
    send_stage_.resize(stage);
    recv_stage_.resize(stage);
  }
  requests_.assign(2 * segments_.size(), MPI_REQUEST_NULL);
}

void MpiGhostExchange::post(int phase, comm::GhostedVector& x) {
  const bool staged = backend_ != Backend::host;
  for (std::size_t i = 0; i < segments_.size(); ++i) {
    const Segment& s = segments_[i];
    if (s.phase != phase) continue;
    double* recv = staged ? recv_stage_.data() + s.stage : x.ext() + s.recv_begin;
    MPI_Irecv(recv, s.recv_count, MPI_DOUBLE, s.peer, ghost_tag, comm_, &requests_[2 * i]);
  }
  for (std::size_t i = 0; i < segments_.size(); ++i) {
    const Segment& s = segments_[i];
    if (s.phase != phase) continue;
    const double* send = x.owned() + s.send_begin;
    if (staged) {
      memory::copy(send_stage_.data() + s.stage, Backend::host, send, backend_,
                   std::size_t(s.send_count) * sizeof(double));
      send = send_stage_.data() + s.stage;
    }
    MPI_Isend(send, s.send_count, MPI_DOUBLE, s.peer, ghost_tag, comm_, &requests_[2 * i + 1]);
  }
}

void MpiGhostExchange::complete(int phase, comm::GhostedVector& x) {
  for (std::size_t i = 0; i < segments_.size(); ++i) {
    const Segment& s = segments_[i];
    if (s.phase != phase) continue;
    MPI_Waitall(2, &requests_[2 * i], MPI_STATUSES_IGNORE);
    if (backend_ != Backend::host)
      memory::copy(x.ext() + s.recv_begin, backend_, recv_stage_.data() + s.stage, Backend::host,
                   std::size_t(s.recv_count) * sizeof(double));
  }
}

}  // namespace tb::dist
