#pragma once
// One rank's share of a decomposed domain, as the physics sees it (docs/distributed.md):
// the local entries (cells, grid points) are the rank's own and ghosts copied
// from the ranks that own them; a mesh piece puts its own first, a slab of a
// structured grid keeps the natural order (ghost planes below, its own, above). The physics assembles every local
// entry, keeps only its own rows, refreshes the ghosts once per residual evaluation (exchange) and turns each serial
// sum or maximum into one global reduction. No MPI here: miniapps/common implements it over MPI; WholeDomain is the
// one-process case, in which every call is the serial code's.
#include <span>
#include <vector>

#include "solvers/core/backend.hpp"
#include "solvers/core/types.hpp"

namespace tb {

class DomainShare {
 public:
  virtual ~DomainShare() = default;
  virtual int rank() const = 0;
  virtual int ranks() const = 0;
  // Local entries first_owned() .. first_owned() + owned() - 1 are this rank's;
  // the rest, to local_size(), are ghosts.
  virtual index_t owned() const = 0;
  virtual index_t first_owned() const { return 0; }
  virtual index_t local_size() const = 0;
  // Entries over all ranks, and each local entry's row in the distributed
  // system: the ranks' entries numbered part by part (rank 0's first), so a
  // rank's own rows are one contiguous range (solvers/dist/row_distribution.hpp).
  virtual index_t global_size() const = 0;
  virtual std::span<const index_t> global_rows() const = 0;
  // values: `width` doubles per local entry; the ghosts' receive their owners' values.
  virtual void exchange(std::span<double> values, index_t width) const = 0;
  // The same for `width` doubles per local entry at `values` on backend b (a
  // state resident on the device): the send items gathered and the received
  // ones put in place there, the messages staged through host memory or sent
  // from the device's buffers by a CUDA-aware MPI; halo_path_on(b) says which.
  virtual void exchange_on(Backend b, double* values, index_t width) const = 0;
  // "staged" or "cuda_aware" (the same words as solvers/dist's HaloPath), or
  // "none" where there are no ghosts.
  virtual const char* halo_path_on(Backend b) const = 0;
  // In place over the ranks: the sums, or the maxima, of each element.
  virtual void sum(std::span<double> values) const = 0;
  virtual void max(std::span<double> values) const = 0;
  // Every rank's `mine`, concatenated in rank order, on rank 0 (empty on the others).
  virtual std::vector<double> gather_on_root(std::span<const double> mine) const = 0;

  double sum(double v) const {
    sum(std::span<double>(&v, 1));
    return v;
  }
  double max(double v) const {
    max(std::span<double>(&v, 1));
    return v;
  }
};

// The whole domain on one process: no ghosts, rows numbered as the entries.
class WholeDomain final : public DomainShare {
 public:
  explicit WholeDomain(index_t n) : rows_(std::size_t(n)) {
    for (index_t i = 0; i < n; ++i) rows_[std::size_t(i)] = i;
  }
  int rank() const override { return 0; }
  int ranks() const override { return 1; }
  index_t owned() const override { return index_t(rows_.size()); }
  index_t local_size() const override { return index_t(rows_.size()); }
  index_t global_size() const override { return index_t(rows_.size()); }
  std::span<const index_t> global_rows() const override { return rows_; }
  void exchange(std::span<double>, index_t) const override {}
  void exchange_on(Backend, double*, index_t) const override {}
  const char* halo_path_on(Backend) const override { return "none"; }
  void sum(std::span<double>) const override {}
  void max(std::span<double>) const override {}
  std::vector<double> gather_on_root(std::span<const double> mine) const override { return {mine.begin(), mine.end()}; }
  using DomainShare::max;
  using DomainShare::sum;

 private:
  std::vector<index_t> rows_;
};

}  // namespace tb
