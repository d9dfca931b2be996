#pragma once
// GBCG's slabs when no process holds the whole matrix (docs/distributed.md): a
// decomposed time loop assembles on each rank only its own rows (rank r's rows
// follow rank r-1's, global columns). The slabs must be those dia_from_bsr
// and transposed_dia_from_bsr would cut from the whole matrix, so that a run
// on owned rows repeats the replicated run's iterates:
//  - the partition comes from the ranks' row counts;
//  - the stored diagonals from the whole matrix's counts per diagonal, summed
//    over the ranks (one allgather of (offset, count) pairs);
//  - the rows of A^T this rank owns are columns of A, whose entries in other
//    ranks' rows (near the slab's ends, within the band) those ranks send
//    here: their positions once per pattern, their values on each update
//    (one personalised exchange each).
#include <vector>

#include "dia_matrix.hpp"
#include "solvers/comm/communicator.hpp"

namespace tb::banded {

class OwnedRowsDia {
 public:
  // rows: this rank's block rows (block size 1, block_cols = the global n).
  // Collective; tb::Error on every rank when any rank's rows do not fit the
  // others' (the counts do not sum to n, a block size other than 1).
  OwnedRowsDia(const BsrMatrix& rows, const comm::Communicator& comm, double min_fill, bool with_transposed);
  // Numeric only: the same pattern's new values (collective with a transposed slab).
  void update_values(const BsrMatrix& rows, const comm::Communicator& comm);

  const comm::RowPartition& partition() const { return part_; }
  const DiaMatrix& slab() const { return slab_; }
  const DiaMatrix& transposed_slab() const { return transposed_slab_; }  // empty without with_transposed
  // Entries of A^T this rank receives from others on each update.
  std::size_t received_entries() const { return recv_values_.size(); }

 private:
  void build_transposed(const BsrMatrix& rows, const comm::Communicator& comm, const DiagonalChoice& choice);
  void gather_transposed_values(const BsrMatrix& rows, const comm::Communicator& comm);

  comm::RowPartition part_;
  DiaMap map_, transposed_map_;
  DiaMatrix slab_, transposed_slab_;
  // The personalised exchange of A^T's entries: send_entry_[e] is the position
  // in rows.values of the e-th value sent (grouped by destination rank);
  // transposed_map_ indexes `values_` = rows.values followed by those received.
  std::vector<index_t> send_entry_;
  std::vector<int> send_counts_, recv_counts_;
  std::vector<double> send_values_, recv_values_, values_;
};

}  // namespace tb::banded
