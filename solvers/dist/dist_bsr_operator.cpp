#include "dist_bsr_operator.hpp"

#include <string>
#include <utility>

#include "kernels.hpp"
#include "solvers/core/error.hpp"
#include "solvers/matrix/kernels.hpp"

namespace tb::dist {

namespace {
// A BSR matrix's arrays on a backend: the pattern copied once, the values at
// each refresh, or read where their writer keeps them there (in_place).
struct BlocksOnBackend {
  index_t block_size = 1, block_rows = 0, block_cols = 0;
  Array<index_t> row_ptr, col_idx;
  Vector values;
  const double* in_place = nullptr;

  BlocksOnBackend(const BsrMatrix& a, Backend b)
      : block_size(a.block_size),
        block_rows(a.block_rows),
        block_cols(a.block_cols),
        row_ptr(b, std::span<const index_t>(a.row_ptr)),
        col_idx(b, std::span<const index_t>(a.col_idx)),
        values(b, std::span<const double>(a.values)) {}
  BsrView view() const {
    return {block_size, block_rows, block_cols, row_ptr.data(), col_idx.data(), in_place ? in_place : values.data()};
  }
};
}  // namespace

struct DistBsrOperator::Placed {
  Backend backend;
  BlocksOnBackend local, off;
  Array<index_t> interface_rows;
  std::unique_ptr<BackendHaloExchange> halo;
};

DistBsrOperator::DistBsrOperator(MPI_Comm comm, const RowDistribution& rows, RankBlocks blocks)
    : held_(std::make_unique<RankBlocks>(std::move(blocks))) {
  local_ = &held_->local;
  off_ = {&held_->off_rank, held_->ghost_columns};
  start(comm, rows);
}

DistBsrOperator::DistBsrOperator(MPI_Comm comm, const RowDistribution& rows, const BsrMatrix& local, OffRankRows off)
    : local_(&local), off_(off) {
  if (!off_.blocks) throw Error("distributed matrix: no off-rank block");
  start(comm, rows);
}

DistBsrOperator::~DistBsrOperator() = default;

void DistBsrOperator::start(MPI_Comm comm, const RowDistribution& rows) {
  const BsrMatrix& off = *off_.blocks;
  if (off.block_rows != local_->block_rows || std::size_t(off.block_cols) != off_.ghost_columns.size() ||
      local_->block_cols != local_->block_rows)
    throw Error("distributed matrix: a local block of " + std::to_string(local_->block_rows) + " x " +
                std::to_string(local_->block_cols) + " and an off-rank block of " + std::to_string(off.block_rows) +
                " x " + std::to_string(off.block_cols) + " for " + std::to_string(off_.ghost_columns.size()) +
                " ghost columns");
  const std::span<const index_t> ghosts = off_.ghost_columns;
  comm_ = comm;
  if (comm != MPI_COMM_NULL) {
    halo_ = std::make_unique<HaloExchange>(comm, matrix_halo_plan(comm, rows, ghosts), local_->block_size);
  } else if (!ghosts.empty()) {
    throw Error("distributed matrix: " + std::to_string(ghosts.size()) + " ghost columns on one process without MPI");
  }
  ghosts_.resize(std::size_t(off.cols()));
  for (index_t i = 0; i < off.block_rows; ++i)
    if (off.row_ptr[i + 1] > off.row_ptr[i]) interface_rows_.push_back(i);
}

void DistBsrOperator::refresh_values(const BsrMatrix& source) {
  if (!held_) throw Error("internal: refresh_values on an operator that reads the caller's blocks");
  held_->refresh_values(source);
  copy_values_to_backend();
}

void DistBsrOperator::borrow(const BsrMatrix& local) {
  if (held_) throw Error("internal: borrow on an operator that holds its blocks");
  if (!local.same_pattern(*local_)) throw Error("distributed matrix: a local block of another pattern");
  local_ = &local;
  copy_values_to_backend();  // the off-rank block too: the caller refilled it where it is
}

void DistBsrOperator::read_in_place(const BsrView& local) {
  if (!reads_in_place()) throw Error("internal: a distributed matrix read in place without its values on a backend");
  const BlocksOnBackend& l = placed_->local;
  if (local.block_size != l.block_size || local.block_rows != l.block_rows || local.block_cols != l.block_cols)
    throw Error("distributed matrix: a local block of " + std::to_string(local.block_rows) + " x " +
                std::to_string(local.block_cols) + " blocks read in place, placed with " +
                std::to_string(l.block_rows) + " x " + std::to_string(l.block_cols));
  placed_->local.in_place = local.values;
  placed_->off.in_place = off_.values_on_backend;
}

void DistBsrOperator::place_on(Backend backend, HaloPath path) {
  if (placed_) throw Error("internal: a distributed matrix placed on a backend twice");
  const BsrMatrix& off = *off_.blocks;
  placed_.reset(new Placed{backend, BlocksOnBackend(*local_, backend), BlocksOnBackend(off, backend),
                           Array<index_t>(backend, std::span<const index_t>(interface_rows_)), nullptr});
  if (!halo_) return;
  // The product's plan receives the ghost columns in their own order (matrix_halo_plan):
  // the received items are the ghost vector the off-rank block multiplies.
  const HaloPlan& plan = halo_->plan();
  for (std::size_t s = 0; s < plan.recv_items.size(); ++s)
    if (plan.recv_items[s] != local_->block_rows + index_t(s))
      throw Error("internal: the product's halo receives ghost " +
                  std::to_string(plan.recv_items[s] - local_->block_rows) + " as item " + std::to_string(s));
  if (plan.recv_items.size() != off_.ghost_columns.size())
    throw Error("internal: the product's halo receives " + std::to_string(plan.recv_items.size()) + " items for " +
                std::to_string(off_.ghost_columns.size()) + " ghost columns");
  placed_->halo = std::make_unique<BackendHaloExchange>(comm_, plan, local_->block_size, backend, path);
}

const BackendHaloExchange* DistBsrOperator::backend_halo() const { return placed_ ? placed_->halo.get() : nullptr; }

Backend DistBsrOperator::backend() const { return placed_ ? placed_->backend : Backend::host; }

void DistBsrOperator::copy_values_to_backend() {
  if (!placed_) return;
  if (local_->values.size() != placed_->local.values.size() || off_.blocks->values.size() != placed_->off.values.size())
    throw Error("distributed matrix: new values of another pattern than the one placed on the backend");
  placed_->local.values.copy_from_host(local_->values);
  placed_->off.values.copy_from_host(off_.blocks->values);
  placed_->local.in_place = placed_->off.in_place = nullptr;
}

void DistBsrOperator::apply(const Vector& x, Vector& y) const {
  if (placed_) return apply_placed(x, y);
  if (halo_) halo_->begin(x.data());
  spmv(*local_, x.data(), y.data());
  if (!halo_) return;
  halo_->end(ghosts_.data(), local_->block_rows);
  // The off-rank block's rows that hold any block (the interface), each summed
  // as the host product sums a row, then added: no pass over the other rows.
  const BsrView off = view(*off_.blocks);
  const std::size_t bs = std::size_t(off.block_size);
  double* yd = y.data();
  for (const index_t i : interface_rows_) {
    double acc[max_block_size];
    block_row_product(off, i, ghosts_.data(), acc);
    for (std::size_t r = 0; r < bs; ++r) yd[std::size_t(i) * bs + r] += acc[r];
  }
}

// The host product's steps as kernels of the backend: the interface rows'
// sums in block_row_product's order, so Backend::host repeats its bits.
void DistBsrOperator::apply_placed(const Vector& x, Vector& y) const {
  const Placed& p = *placed_;
  if (x.size() != std::size_t(rows()) || y.size() != std::size_t(rows()) || x.backend() != p.backend ||
      y.backend() != p.backend)
    throw Error("distributed matrix: vectors of " + std::to_string(x.size()) + " and " + std::to_string(y.size()) +
                " entries on " + std::string(to_string(x.backend())) + " and " + std::string(to_string(y.backend())) +
                " for " + std::to_string(rows()) + " rows on " + std::string(to_string(p.backend)));
  if (p.halo) p.halo->begin(x.data());
  if (p.local.block_rows > 0) tb::kernels::bsr_spmv(p.backend, p.local.view(), x.data(), y.data());
  if (!p.halo) return;
  const double* ghosts = p.halo->end();
  kernels::add_rows_product(p.backend, p.off.view(), p.interface_rows.data(), index_t(p.interface_rows.size()), ghosts,
                            y.data());
}

}  // namespace tb::dist
