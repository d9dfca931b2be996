#include "owned_rows.hpp"

#include <algorithm>
#include <numeric>
#include <string>

#include "solvers/core/error.hpp"

namespace tb::banded {

namespace {

// The whole matrix's entries per diagonal: this rank's counts as (offset,
// count) pairs, every rank's gathered and summed.
DiagonalCounts whole_counts(const BsrMatrix& rows, index_t first_row, const comm::Communicator& comm) {
  std::vector<index_t> pairs;
  for (const auto& [offset, entries] : count_diagonals(rows, first_row)) {
    pairs.push_back(offset);
    pairs.push_back(entries);
  }
  const std::vector<index_t> all = comm.allgather(pairs);
  DiagonalCounts whole;
  for (std::size_t e = 0; e + 1 < all.size(); e += 2) whole[all[e]] += all[e + 1];
  return whole;
}

// A^T's diagonals are A's, negated: the same counts, so the same choice.
DiagonalChoice transposed(const DiagonalChoice& c) {
  DiagonalChoice t = c;
  t.offsets.clear();
  for (auto it = c.offsets.rbegin(); it != c.offsets.rend(); ++it) t.offsets.push_back(-*it);
  return t;
}

std::vector<int> doubled(const std::vector<int>& counts) {
  std::vector<int> d(counts);
  for (int& c : d) c *= 2;
  return d;
}

}  // namespace

OwnedRowsDia::OwnedRowsDia(const BsrMatrix& rows, const comm::Communicator& comm, double min_fill,
                           bool with_transposed) {
  const index_t mine = rows.block_rows;
  part_ = comm::partition_from_sizes(comm.allgather(std::span<const index_t>(&mine, 1)));
  comm::agreed(comm, [&] {
    rows.validate();
    if (rows.block_size != 1)
      throw Error("DIA conversion of owned rows: block size " + std::to_string(rows.block_size) +
                  "; the banded solvers take scalar matrices (block size 1)");
    if (rows.block_cols != part_.n())
      throw Error("DIA conversion of owned rows: rank " + std::to_string(comm.rank()) + "'s rows have " +
                  std::to_string(rows.block_cols) + " columns, the ranks' rows add up to " + std::to_string(part_.n()) +
                  " (a square matrix, global columns, expected)");
  });
  const index_t first = part_.first(comm.rank());
  const DiagonalChoice choice = choose_diagonals(whole_counts(rows, first, comm), part_.n(), min_fill);
  slab_ = dia_from_rows(rows, first, choice, &map_);
  if (with_transposed) build_transposed(rows, comm, choice);
}

void OwnedRowsDia::build_transposed(const BsrMatrix& rows, const comm::Communicator& comm,
                                    const DiagonalChoice& choice) {
  const int ranks = comm.size(), me = comm.rank();
  const index_t first = part_.first(me), own = part_.rows(me);
  // Entry (g, j) of A is entry (j, g) of A^T, a row of A^T's owner of j:
  // those of other owners go there as (j, g) pairs, grouped by rank.
  std::vector<int> owner(rows.col_idx.size());
  send_counts_.assign(std::size_t(ranks), 0);
  for (std::size_t k = 0; k < owner.size(); ++k) {
    owner[k] = part_.owner(rows.col_idx[k]);
    if (owner[k] != me) ++send_counts_[std::size_t(owner[k])];
  }
  std::vector<int> cursor(std::size_t(ranks), 0);
  std::partial_sum(send_counts_.begin(), send_counts_.end() - 1, cursor.begin() + 1);
  send_entry_.assign(std::size_t(std::accumulate(send_counts_.begin(), send_counts_.end(), 0)), 0);
  std::vector<index_t> send_pairs(2 * send_entry_.size());
  for (index_t i = 0; i < rows.block_rows; ++i)
    for (index_t k = rows.row_ptr[i]; k < rows.row_ptr[i + 1]; ++k) {
      const int q = owner[std::size_t(k)];
      if (q == me) continue;
      const auto e = std::size_t(cursor[std::size_t(q)]++);
      send_entry_[e] = k;
      send_pairs[2 * e] = rows.col_idx[std::size_t(k)];
      send_pairs[2 * e + 1] = first + i;
    }
  recv_counts_ = comm.exchange_counts(send_counts_);
  std::vector<index_t> recv_pairs(2 * std::size_t(std::accumulate(recv_counts_.begin(), recv_counts_.end(), 0)));
  comm.exchange(send_pairs, doubled(send_counts_), recv_pairs, doubled(recv_counts_));

  // This rank's rows of A^T by a counting sort on j; from[e] indexes values_.
  // Filled from lower ranks' rows, then this rank's, then higher ranks':
  // each row's columns (rows of A) come out ascending.
  const std::size_t received = recv_pairs.size() / 2, local_values = rows.values.size();
  const std::size_t from_below = std::size_t(std::accumulate(recv_counts_.begin(), recv_counts_.begin() + me, 0));
  BsrMatrix at;
  at.block_size = 1;
  at.block_rows = own;
  at.block_cols = part_.n();
  at.row_ptr.assign(std::size_t(own) + 1, 0);
  for (std::size_t r = 0; r < received; ++r) ++at.row_ptr[std::size_t(recv_pairs[2 * r] - first) + 1];
  for (std::size_t k = 0; k < owner.size(); ++k)
    if (owner[k] == me) ++at.row_ptr[std::size_t(rows.col_idx[k] - first) + 1];
  std::partial_sum(at.row_ptr.begin(), at.row_ptr.end(), at.row_ptr.begin());
  at.col_idx.resize(std::size_t(at.row_ptr.back()));
  std::vector<index_t> from(at.col_idx.size());
  std::vector<index_t> next(at.row_ptr.begin(), at.row_ptr.end() - 1);
  const auto place = [&](index_t j, index_t g, std::size_t source) {
    const auto dst = std::size_t(next[std::size_t(j - first)]++);
    at.col_idx[dst] = g;
    from[dst] = index_t(source);
  };
  for (std::size_t r = 0; r < from_below; ++r) place(recv_pairs[2 * r], recv_pairs[2 * r + 1], local_values + r);
  for (index_t i = 0; i < rows.block_rows; ++i)
    for (index_t k = rows.row_ptr[i]; k < rows.row_ptr[i + 1]; ++k)
      if (owner[std::size_t(k)] == me) place(rows.col_idx[std::size_t(k)], first + i, std::size_t(k));
  for (std::size_t r = from_below; r < received; ++r) place(recv_pairs[2 * r], recv_pairs[2 * r + 1], local_values + r);

  send_values_.resize(send_entry_.size());
  recv_values_.resize(received);
  values_.resize(local_values + received);
  gather_transposed_values(rows, comm);
  at.values.resize(from.size());
  for (std::size_t e = 0; e < from.size(); ++e) at.values[e] = values_[std::size_t(from[e])];
  transposed_slab_ = dia_from_rows(at, first, transposed(choice), &transposed_map_);
  for (index_t& k : transposed_map_.bsr_entry)
    if (k >= 0) k = from[std::size_t(k)];
  for (index_t& k : transposed_map_.rest_entry) k = from[std::size_t(k)];
}

// values_ = this rank's values, then those of A^T's entries other ranks hold.
void OwnedRowsDia::gather_transposed_values(const BsrMatrix& rows, const comm::Communicator& comm) {
  for (std::size_t e = 0; e < send_entry_.size(); ++e) send_values_[e] = rows.values[std::size_t(send_entry_[e])];
  comm.exchange(send_values_, send_counts_, recv_values_, recv_counts_);
  std::copy(rows.values.begin(), rows.values.end(), values_.begin());
  std::copy(recv_values_.begin(), recv_values_.end(), values_.begin() + std::ptrdiff_t(rows.values.size()));
}

void OwnedRowsDia::update_values(const BsrMatrix& rows, const comm::Communicator& comm) {
  banded::update_values(rows, map_, slab_);
  if (send_counts_.empty()) return;  // no transposed slab
  gather_transposed_values(rows, comm);
  banded::update_values(values_, transposed_map_, transposed_slab_);
}

}  // namespace tb::banded
