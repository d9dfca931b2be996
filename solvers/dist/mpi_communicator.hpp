#pragma once
// The MPI Communicator of the banded solvers: reductions in one
// MPI_Allreduce, the two-phase ghost exchange of §III-C (Fig. 4) and the
// allgather of the solution. Includes <mpi.h>: only the few files that name a
// communicator include this header.
#include <mpi.h>

#include <map>
#include <memory>
#include <span>
#include <vector>

#include "solvers/comm/communicator.hpp"

namespace tb::dist {

// dot / norm2 / multi_dot / reduce over the ranks of a communicator.
class MpiVectorSpace final : public VectorSpace {
 public:
  explicit MpiVectorSpace(MPI_Comm comm);
  ~MpiVectorSpace() override;
  double dot(const Vector& x, const Vector& y) const override;
  void multi_dot(const Vector* const* v, int k, const Vector& w, double* out) const override;
  // Sums and maxima in ONE MPI_Allreduce: a user operation over one element
  // of a contiguous type [k, m, sums..., maxima...].
  void reduce(double* sum_values, int k, double* max_values, int m) const override;
  bool reduces_across_processes() const override { return true; }

  // Per kind, per reduce call: the harness reduces its time split's least and largest
  // (2 x 9 maxima) in one call.
  static constexpr int max_per_kind = 32;

 private:
  MPI_Datatype record_type(int length) const;

  MPI_Comm comm_;
  MPI_Op op_ = MPI_OP_NULL;
  mutable std::map<int, MPI_Datatype> types_;  // one per record length, made once
};

class MpiCommunicator final : public comm::Communicator {
 public:
  // Works on a duplicate of comm, so its messages never meet the caller's.
  explicit MpiCommunicator(MPI_Comm comm);
  ~MpiCommunicator() override;
  MpiCommunicator(const MpiCommunicator&) = delete;
  MpiCommunicator& operator=(const MpiCommunicator&) = delete;

  int rank() const override { return rank_; }
  int size() const override { return size_; }
  // This group's own duplicate communicator (distributed matrices build theirs from it).
  MPI_Comm comm() const { return comm_; }
  const VectorSpace& space() const override { return *space_; }
  std::unique_ptr<comm::GhostExchange> make_exchange(const comm::RowPartition& p, index_t band,
                                                     Backend backend) const override;
  void allgather(const comm::RowPartition& p, const double* local, double* global) const override;
  std::vector<index_t> allgather(std::span<const index_t> mine) const override;
  std::vector<int> exchange_counts(std::span<const int> send_counts) const override;
  void exchange(std::span<const index_t> send, std::span<const int> send_counts, std::span<index_t> recv,
                std::span<const int> recv_counts) const override;
  void exchange(std::span<const double> send, std::span<const int> send_counts, std::span<double> recv,
                std::span<const int> recv_counts) const override;

 private:
  MPI_Comm comm_ = MPI_COMM_NULL;
  int rank_ = 0, size_ = 1;
  std::unique_ptr<MpiVectorSpace> space_;
};

// The MPI type of tb::index_t.
MPI_Datatype mpi_index_type();

// The personalised exchanges on a communicator (the Communicator's exchange_counts
// and exchange, and a distributed product's halo plan): what every rank sends
// here, given what this rank sends each (MPI_Alltoall of one count each);
std::vector<int> alltoall_counts(MPI_Comm comm, std::span<const int> send_counts);
// the offsets of consecutive groups of these sizes (MPI's displacements);
std::vector<int> displacements(std::span<const int> counts);
// and MPI_Alltoallv of values grouped by rank, tb::Error when the sizes do not
// match the counts.
void alltoallv(MPI_Comm comm, std::span<const index_t> send, std::span<const int> send_counts, std::span<index_t> recv,
               std::span<const int> recv_counts);
void alltoallv(MPI_Comm comm, std::span<const double> send, std::span<const int> send_counts, std::span<double> recv,
               std::span<const int> recv_counts);

// True once MPI_Finalize has run: MPI objects must then no longer be freed.
bool mpi_finalized();

// tb::Error "WHO: CALL failed" unless code is MPI_SUCCESS.
void check_mpi(int code, const char* who, const char* call);

}  // namespace tb::dist
