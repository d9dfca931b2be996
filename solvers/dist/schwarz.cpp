#include "schwarz.hpp"

#include <algorithm>
#include <string>
#include <type_traits>
#include <utility>

#include "mpi_communicator.hpp"
#include "mpi_wait_clock.hpp"
#include "solvers/core/error.hpp"

namespace tb::dist {

// Overlap 1: the owners send the rows of this rank's ghosts. The pattern (row
// lengths, global columns) travels once at set-up, the values at every update,
// by point-to-point messages with the operator's neighbours.
struct SchwarzPreconditioner::GhostRows {
  std::vector<int> neighbours;
  std::vector<std::vector<index_t>> send_rows;  // owned local rows sent to each neighbour
  std::vector<index_t> recv_lengths;            // blocks of each received row, in recv order
  std::vector<index_t> recv_cols;               // their global block columns
  std::vector<std::size_t> recv_block_offset;   // first received block per neighbour (+ end)
  std::vector<std::vector<double>> send_values;
  std::vector<double> recv_values;
  // The value messages, fixed by the pattern: set up once, so an update allocates nothing.
  std::vector<const double*> value_send;
  std::vector<double*> value_recv;
  std::vector<int> value_send_n, value_recv_n;
  std::vector<MPI_Request> requests;
};

namespace {

void check(int code, const char* call) { check_mpi(code, "Schwarz preconditioner", call); }

// Sends send[q] to and receives recv[q] from each neighbour, ints or doubles;
// req: two requests per neighbour.
template <class T>
void swap_with_neighbours(MPI_Comm comm, const std::vector<int>& neighbours, const std::vector<const T*>& send,
                          const std::vector<int>& send_n, const std::vector<T*>& recv, const std::vector<int>& recv_n,
                          std::vector<MPI_Request>& req) {
  const MPI_Datatype type = std::is_same_v<T, double> ? MPI_DOUBLE : MPI_INT;
  constexpr int tag = 28;
  for (std::size_t q = 0; q < neighbours.size(); ++q) {
    check(MPI_Irecv(recv[q], recv_n[q], type, neighbours[q], tag, comm, &req[2 * q]), "MPI_Irecv");
    check(MPI_Isend(send[q], send_n[q], type, neighbours[q], tag, comm, &req[2 * q + 1]), "MPI_Isend");
  }
  const MpiWait wait;
  check(MPI_Waitall(int(req.size()), req.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
}

}  // namespace

SchwarzPreconditioner::SchwarzPreconditioner(MPI_Comm comm, const RowDistribution& rows, int overlap,
                                             std::unique_ptr<Preconditioner> local, const DistBsrOperator& op)
    : comm_(comm), rows_(rows), overlap_(overlap), local_(std::move(local)), op_(op) {
  if (overlap < 0 || overlap > 1)
    throw Error("Schwarz preconditioner: overlap " + std::to_string(overlap) + ", allowed 0 or 1");
  if (!local_) throw Error("Schwarz preconditioner: no local solver");
  if (comm_ != MPI_COMM_NULL) MPI_Comm_rank(comm_, &rank_);
}

SchwarzPreconditioner::~SchwarzPreconditioner() = default;

void SchwarzPreconditioner::setup(const BsrMatrix& a, Backend backend) {
  // Block Jacobi sets its local solver up on the backend of the operator's
  // vectors; with overlap the subdomain's assembly and exchange are the host's.
  if (overlap_ == 1 && backend != Backend::host)
    throw Unsupported("Schwarz preconditioner: overlap 1 runs on the host; on " + std::string(to_string(backend)) +
                      " block Jacobi (overlap 0)");
  if (!local_->supports(backend))
    throw Unsupported("Schwarz preconditioner: the local solver has no " + std::string(to_string(backend)) +
                      " backend");
  const index_t first = rows_.first(rank_), owned = rows_.owned(rank_);
  if (a.block_rows != owned)
    throw Error("Schwarz preconditioner: " + std::to_string(a.block_rows) + " block rows for a rank that owns " +
                std::to_string(owned));
  const HaloExchange* halo = overlap_ == 1 ? op_.halo() : nullptr;
  const std::span<const index_t> ghosts = op_.ghost_columns();
  const index_t extent = owned + (halo ? index_t(ghosts.size()) : 0);
  auto local_of = [&](index_t j) -> index_t {
    if (j >= first && j < first + owned) return j - first;
    if (!halo) return -1;
    const auto g = std::lower_bound(ghosts.begin(), ghosts.end(), j);
    return g != ghosts.end() && *g == j ? owned + index_t(g - ghosts.begin()) : -1;
  };

  ghost_rows_.reset();
  if (halo) {
    // The pattern of the ghost rows, from their owners.
    const HaloPlan& plan = halo->plan();
    auto gr = std::make_unique<GhostRows>();
    gr->neighbours = plan.neighbours;
    const std::size_t n = plan.neighbours.size();
    gr->requests.assign(2 * n, MPI_REQUEST_NULL);
    std::vector<std::vector<index_t>> send_pattern(n);
    gr->send_rows.resize(n);
    std::vector<int> send_n(n), recv_n(n);
    for (std::size_t q = 0; q < n; ++q) {
      for (index_t s = plan.send_offsets[q]; s < plan.send_offsets[q + 1]; ++s) {
        const index_t i = plan.send_items[std::size_t(s)];
        gr->send_rows[q].push_back(i);
        send_pattern[q].push_back(a.row_ptr[i + 1] - a.row_ptr[i]);
      }
      send_n[q] = int(send_pattern[q].size());
      recv_n[q] = int(plan.recv_count(int(q)));
    }
    // Round 1: row lengths, in the order of the plan's items.
    gr->recv_lengths.resize(plan.recv_items.size());
    std::vector<const index_t*> sp(n);
    std::vector<index_t*> rp(n);
    for (std::size_t q = 0; q < n; ++q) {
      sp[q] = send_pattern[q].data();
      rp[q] = gr->recv_lengths.data() + plan.recv_offsets[q];
    }
    swap_with_neighbours(comm_, gr->neighbours, sp, send_n, rp, recv_n, gr->requests);
    // Round 2: the rows' global columns.
    std::vector<std::vector<index_t>> send_cols(n);
    gr->recv_block_offset.assign(n + 1, 0);
    for (std::size_t q = 0; q < n; ++q) {
      for (index_t i : gr->send_rows[q])
        send_cols[q].insert(send_cols[q].end(), a.col_idx.begin() + a.row_ptr[i], a.col_idx.begin() + a.row_ptr[i + 1]);
      std::size_t blocks_from_q = 0;
      for (index_t s = plan.recv_offsets[q]; s < plan.recv_offsets[q + 1]; ++s)
        blocks_from_q += std::size_t(gr->recv_lengths[std::size_t(s)]);
      gr->recv_block_offset[q + 1] = gr->recv_block_offset[q] + blocks_from_q;
      send_n[q] = int(send_cols[q].size());
      recv_n[q] = int(blocks_from_q);
      sp[q] = send_cols[q].data();
    }
    gr->recv_cols.resize(gr->recv_block_offset[n]);
    for (std::size_t q = 0; q < n; ++q) rp[q] = gr->recv_cols.data() + gr->recv_block_offset[q];
    swap_with_neighbours(comm_, gr->neighbours, sp, send_n, rp, recv_n, gr->requests);
    const std::size_t be = std::size_t(a.block_entries());
    gr->send_values.resize(n);
    gr->recv_values.resize(gr->recv_cols.size() * be);
    for (std::size_t q = 0; q < n; ++q) {
      gr->send_values[q].resize(send_cols[q].size() * be);
      gr->value_send.push_back(gr->send_values[q].data());
      gr->value_send_n.push_back(int(gr->send_values[q].size()));
      gr->value_recv.push_back(gr->recv_values.data() + gr->recv_block_offset[q] * be);
      gr->value_recv_n.push_back(int((gr->recv_block_offset[q + 1] - gr->recv_block_offset[q]) * be));
    }
    ghost_rows_ = std::move(gr);
  }

  // Block Jacobi's subdomain is the operator's own local block (owned rows and
  // columns, renumbered from 0, refreshed before this update): no second copy.
  subdomain_ = BsrMatrix{};
  owned_source_.clear();
  if (!halo) {
    local_->setup(op_.local(), backend);
    return;
  }
  // The subdomain's pattern: owned rows, then the ghost rows in local order,
  // columns outside the subdomain dropped, sorted per row.
  subdomain_.block_size = a.block_size;
  subdomain_.block_rows = subdomain_.block_cols = extent;
  owned_source_.clear();
  std::vector<std::pair<index_t, index_t>> row;  // (local column, source)
  auto close_row = [&] {
    std::sort(row.begin(), row.end());
    for (const auto& [c, src] : row) {
      subdomain_.col_idx.push_back(c);
      owned_source_.push_back(src);
    }
    subdomain_.row_ptr.push_back(subdomain_.nnz_blocks());
    row.clear();
  };
  for (index_t i = 0; i < owned; ++i) {
    for (index_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k)
      if (const index_t c = local_of(a.col_idx[k]); c >= 0) row.emplace_back(c, k);
    close_row();
  }
  if (ghost_rows_) {
    // Received rows arrive in the plan's recv order; a ghost's local index is its recv item.
    const HaloPlan& plan = halo->plan();
    std::size_t b = 0;
    std::vector<std::size_t> start_of_item(plan.recv_items.size());
    for (std::size_t s = 0; s < plan.recv_items.size(); ++s) {
      start_of_item[s] = b;
      b += std::size_t(ghost_rows_->recv_lengths[s]);
    }
    std::vector<std::size_t> item_of_ghost(std::size_t(extent - owned));
    for (std::size_t s = 0; s < plan.recv_items.size(); ++s) item_of_ghost[std::size_t(plan.recv_items[s] - owned)] = s;
    for (index_t g = 0; g < extent - owned; ++g) {
      const std::size_t s = item_of_ghost[std::size_t(g)];
      for (index_t k = 0; k < ghost_rows_->recv_lengths[s]; ++k) {
        const std::size_t blk = start_of_item[s] + std::size_t(k);
        if (const index_t c = local_of(ghost_rows_->recv_cols[blk]); c >= 0) row.emplace_back(c, -1 - index_t(blk));
      }
      close_row();
    }
  }
  subdomain_.values.assign(std::size_t(subdomain_.nnz_blocks()) * std::size_t(a.block_entries()), 0.0);
  assemble(a);
  local_->setup(subdomain_, Backend::host);
  r_ext_ = Vector(Backend::host, std::size_t(subdomain_.rows()));
  z_ext_ = Vector(Backend::host, std::size_t(subdomain_.rows()));
}

void SchwarzPreconditioner::update(const BsrMatrix& a) {
  if (a.block_rows != rows_.owned(rank_)) throw Error("Schwarz preconditioner: update with another number of rows");
  if (!ghost_rows_) {
    local_->update(op_.local());  // the operator refreshed its values first, or reads them in place
    return;
  }
  assemble(a);
  local_->update(subdomain_);
}

void SchwarzPreconditioner::update_in_place(const BsrView& local) {
  if (!updates_in_place())
    throw Error("internal: Schwarz preconditioner updated in place without block Jacobi's kernels");
  if (local.block_rows != rows_.owned(rank_)) throw Error("Schwarz preconditioner: update with another number of rows");
  local_->update_in_place(local);
}

// Numbers only: the ghost rows' values from their owners, then every block from its source.
void SchwarzPreconditioner::assemble(const BsrMatrix& a) {
  const std::size_t be = std::size_t(a.block_entries());
  if (ghost_rows_) {
    GhostRows& gr = *ghost_rows_;
    for (std::size_t q = 0; q < gr.neighbours.size(); ++q) {
      double* out = gr.send_values[q].data();
      for (index_t i : gr.send_rows[q]) {
        const std::size_t len = std::size_t(a.row_ptr[i + 1] - a.row_ptr[i]) * be;
        std::copy_n(a.block(a.row_ptr[i]), len, out);
        out += len;
      }
    }
    swap_with_neighbours(comm_, gr.neighbours, gr.value_send, gr.value_send_n, gr.value_recv, gr.value_recv_n,
                         gr.requests);
  }
  for (std::size_t k = 0; k < owned_source_.size(); ++k) {
    const index_t src = owned_source_[k];
    const double* from = src >= 0 ? a.block(src) : ghost_rows_->recv_values.data() + std::size_t(-1 - src) * be;
    std::copy_n(from, be, subdomain_.block(index_t(k)));
  }
}

void SchwarzPreconditioner::apply(const Vector& r, Vector& z) const {
  if (!ghost_rows_) {
    local_->apply(r, z);
    return;
  }
  // Every rank of the operator's neighbourhood exchanges, also one whose own
  // subdomain gained no ghost: the exchange is collective.
  HaloExchange& halo = *op_.halo();
  halo.begin(r.data());
  std::copy_n(r.data(), r.size(), r_ext_.data());
  halo.end(r_ext_.data(), 0);
  local_->apply(r_ext_, z_ext_);
  std::copy_n(z_ext_.data(), z.size(), z.data());  // restricted: the ghosts' part is dropped
}

}  // namespace tb::dist
