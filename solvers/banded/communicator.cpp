#include "communicator.hpp"

#include <algorithm>

namespace tb::banded {

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

std::shared_ptr<const Communicator> self_communicator() {
  static const auto self = std::make_shared<const Communicator>();
  return self;
}

}  // namespace tb::banded
