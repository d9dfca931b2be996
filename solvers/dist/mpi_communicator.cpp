#include "mpi_communicator.hpp"

#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

#include "mpi_exchange.hpp"
#include "solvers/core/backend.hpp"
#include "solvers/core/error.hpp"
#include "world.hpp"

namespace tb::dist {

void check_mpi(int code, const char* who, const char* call) {
  if (code != MPI_SUCCESS) throw Error(std::string(who) + ": " + call + " failed");
}

MpiCommunicator::MpiCommunicator(MPI_Comm comm) {
  MPI_Comm_dup(comm, &comm_);
  MPI_Comm_rank(comm_, &rank_);
  MPI_Comm_size(comm_, &size_);
  space_ = std::make_unique<MpiVectorSpace>(comm_);
}

MpiCommunicator::~MpiCommunicator() {
  space_.reset();
  if (!mpi_finalized()) MPI_Comm_free(&comm_);
}

namespace {
void check_parts(const comm::RowPartition& p, int size, const char* who) {
  if (p.parts() != size)
    throw Error(std::string(who) + ": the row partition has " + std::to_string(p.parts()) + " parts for " +
                std::to_string(size) + " ranks");
}
}  // namespace

std::unique_ptr<comm::GhostExchange> MpiCommunicator::make_exchange(const comm::RowPartition& p, index_t band,
                                                                    Backend backend) const {
  check_parts(p, size_, "MPI ghost exchange");
  return std::make_unique<MpiGhostExchange>(comm_, p, band, backend);
}

void MpiCommunicator::allgather(const comm::RowPartition& p, const double* local, double* global) const {
  check_parts(p, size_, "MPI allgather");
  std::vector<int> counts(static_cast<std::size_t>(size_)), displs(static_cast<std::size_t>(size_));
  for (int q = 0; q < size_; ++q) {
    counts[std::size_t(q)] = p.rows(q);
    displs[std::size_t(q)] = p.first(q);
  }
  MPI_Allgatherv(local, p.rows(rank_), MPI_DOUBLE, global, counts.data(), displs.data(), MPI_DOUBLE, comm_);
}

MPI_Datatype mpi_index_type() { return sizeof(index_t) == 8 ? MPI_INT64_T : MPI_INT32_T; }

std::vector<int> displacements(std::span<const int> counts) {
  std::vector<int> d(counts.size(), 0);
  for (std::size_t q = 1; q < counts.size(); ++q) d[q] = d[q - 1] + counts[q - 1];
  return d;
}

std::vector<index_t> MpiCommunicator::allgather(std::span<const index_t> mine) const {
  std::vector<int> counts(static_cast<std::size_t>(size_));
  const int count = int(mine.size());
  check_mpi(MPI_Allgather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, comm_), "MPI allgather", "MPI_Allgather");
  const std::vector<int> displs = displacements(counts);
  std::vector<index_t> all(std::size_t(displs.back() + counts.back()));
  check_mpi(MPI_Allgatherv(mine.data(), count, mpi_index_type(), all.data(), counts.data(), displs.data(),
                           mpi_index_type(), comm_),
            "MPI allgather", "MPI_Allgatherv");
  return all;
}

std::vector<int> alltoall_counts(MPI_Comm comm, std::span<const int> send_counts) {
  int size = 1;
  MPI_Comm_size(comm, &size);
  if (send_counts.size() != std::size_t(size))
    throw Error("MPI exchange: " + std::to_string(send_counts.size()) + " send counts for " + std::to_string(size) +
                " ranks");
  std::vector<int> recv(std::size_t(size), 0);
  check_mpi(MPI_Alltoall(send_counts.data(), 1, MPI_INT, recv.data(), 1, MPI_INT, comm), "MPI exchange",
            "MPI_Alltoall");
  return recv;
}

namespace {

template <class T>
void alltoallv_of(MPI_Comm comm, MPI_Datatype type, std::span<const T> send, std::span<const int> send_counts,
                  std::span<T> recv, std::span<const int> recv_counts) {
  int size = 1;
  MPI_Comm_size(comm, &size);
  const auto ranks = std::size_t(size);
  if (send_counts.size() != ranks || recv_counts.size() != ranks)
    throw Error("MPI exchange: " + std::to_string(send_counts.size()) + " send and " +
                std::to_string(recv_counts.size()) + " receive counts for " + std::to_string(size) + " ranks");
  const std::vector<int> sd = displacements(send_counts), rd = displacements(recv_counts);
  if (send.size() != std::size_t(sd.back() + send_counts.back()) ||
      recv.size() != std::size_t(rd.back() + recv_counts.back()))
    throw Error("MPI exchange: " + std::to_string(send.size()) + " values to send and room for " +
                std::to_string(recv.size()) + " do not match the counts for " + std::to_string(size) + " ranks");
  check_mpi(MPI_Alltoallv(send.data(), send_counts.data(), sd.data(), type, recv.data(), recv_counts.data(), rd.data(),
                          type, comm),
            "MPI exchange", "MPI_Alltoallv");
}

}  // namespace

void alltoallv(MPI_Comm comm, std::span<const index_t> send, std::span<const int> send_counts, std::span<index_t> recv,
               std::span<const int> recv_counts) {
  alltoallv_of(comm, mpi_index_type(), send, send_counts, recv, recv_counts);
}

void alltoallv(MPI_Comm comm, std::span<const double> send, std::span<const int> send_counts, std::span<double> recv,
               std::span<const int> recv_counts) {
  alltoallv_of(comm, MPI_DOUBLE, send, send_counts, recv, recv_counts);
}

std::vector<int> MpiCommunicator::exchange_counts(std::span<const int> send_counts) const {
  return alltoall_counts(comm_, send_counts);
}

void MpiCommunicator::exchange(std::span<const index_t> send, std::span<const int> send_counts, std::span<index_t> recv,
                               std::span<const int> recv_counts) const {
  alltoallv(comm_, send, send_counts, recv, recv_counts);
}

void MpiCommunicator::exchange(std::span<const double> send, std::span<const int> send_counts, std::span<double> recv,
                               std::span<const int> recv_counts) const {
  alltoallv(comm_, send, send_counts, recv, recv_counts);
}

namespace {

// Processes the launcher started (mpiexec sets these), or 1 outside a launcher.
int launched_processes() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE"})
    if (const char* v = std::getenv(name)) return std::max(1, std::atoi(v));
  return 1;
}

void finalize_at_exit() {
  if (!mpi_finalized()) MPI_Finalize();
}

}  // namespace

std::shared_ptr<const comm::Communicator> world_or_self() {
  int initialised = 0;
  MPI_Initialized(&initialised);
  // A program that knows nothing of MPI (a miniapp started by mpiexec -n 2)
  // still gets distributed banded solves: MPI starts with the first solver,
  // and ends at exit, after the world communicator below is destroyed
  // (registered before it is constructed).
  if (!initialised && !mpi_finalized() && launched_processes() > 1) {
    MPI_Init(nullptr, nullptr);
    std::atexit(finalize_at_exit);
    initialised = 1;
  }
  if (!initialised || mpi_finalized()) return comm::self_communicator();
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size == 1) return comm::self_communicator();
  static const auto world = [] {
    bind_device_to_local_rank();
    return std::make_shared<const MpiCommunicator>(MPI_COMM_WORLD);
  }();
  return world;
}

int bind_device_to_local_rank() {
  int initialised = 0;
  MPI_Initialized(&initialised);
  const int devices = cuda_device_count();
  if (!initialised || mpi_finalized() || devices == 0) return -1;
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int local_rank = 0;
  MPI_Comm_rank(node, &local_rank);
  MPI_Comm_free(&node);
  const int device = local_rank % devices;
  select_cuda_device(device);
  return device;
}

}  // namespace tb::dist
