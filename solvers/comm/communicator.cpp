#include "communicator.hpp"

#include <algorithm>
#include <string>

#include "solvers/core/error.hpp"

namespace tb::comm {

const VectorSpace& Communicator::space() const {
  static const VectorSpace local;
  return local;
}

std::unique_ptr<GhostExchange> Communicator::make_exchange(const RowPartition&, index_t, Backend) const {
  return std::make_unique<GhostExchange>();
}

void Communicator::allgather(const RowPartition& p, const double* local, double* global) const {
  if (local != global) std::copy(local, local + p.n(), global);
}

std::vector<index_t> Communicator::allgather(std::span<const index_t> mine) const { return {mine.begin(), mine.end()}; }

std::vector<int> Communicator::exchange_counts(std::span<const int> send_counts) const {
  return {send_counts.begin(), send_counts.end()};
}

namespace {
template <class T>
void copy_to_self(std::span<const T> send, std::span<const int> send_counts, std::span<T> recv,
                  std::span<const int> recv_counts) {
  if (send_counts.size() != 1 || recv_counts.size() != 1 || send_counts[0] != recv_counts[0] ||
      send.size() != std::size_t(send_counts[0]) || recv.size() != std::size_t(recv_counts[0]))
    throw Error("exchange on one process: " + std::to_string(send.size()) + " values sent, " +
                std::to_string(recv.size()) + " expected back");
  std::copy(send.begin(), send.end(), recv.begin());
}
}  // namespace

void Communicator::exchange(std::span<const index_t> send, std::span<const int> send_counts, std::span<index_t> recv,
                            std::span<const int> recv_counts) const {
  copy_to_self(send, send_counts, recv, recv_counts);
}

void Communicator::exchange(std::span<const double> send, std::span<const int> send_counts, std::span<double> recv,
                            std::span<const int> recv_counts) const {
  copy_to_self(send, send_counts, recv, recv_counts);
}

void agreed(const Communicator& comm, const std::function<void()>& work) {
  std::string why;
  try {
    work();
  } catch (const Error& e) {
    why = e.what();
  }
  double failed = why.empty() ? 0.0 : 1.0;
  comm.space().reduce(nullptr, 0, &failed, 1);
  if (failed != 0.0) throw Error(why.empty() ? "another rank refused its part of the system" : why);
}

std::shared_ptr<const Communicator> self_communicator() {
  static const auto self = std::make_shared<const Communicator>();
  return self;
}

}  // namespace tb::comm
