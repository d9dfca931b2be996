#pragma once
// A HaloPlan (mesh/graph/halo_plan.hpp) exchanged from buffers on a backend
// (docs/distributed.md, "On a backend"): begin() gathers the send items there
// (kernels::gather_items) and starts one persistent send and receive per
// neighbour; end() waits and leaves the received items there, in the plan's
// receive order. For a matrix's product (matrix_halo_plan) that order is the
// ghost columns' own, so received() is the ghost vector, with no scatter.
// Staged or CUDA-aware (halo_path.hpp); buffers, requests and the device's
// send items are made once, with the plan: nothing is allocated per exchange.
#include <mpi.h>

#include <cstdint>
#include <vector>

#include "halo_path.hpp"
#include "mesh/graph/halo_plan.hpp"
#include "solvers/core/array.hpp"

namespace tb::dist {

class BackendHaloExchange {
 public:
  // What staging moved since construction (both zero on the cuda_aware path):
  // on a device these copies are also counted as transfers (solvers/core/transfers.hpp);
  // on the host they are copies within host memory, counted here only.
  struct Staging {
    std::uint64_t exchanges = 0;         // completed, on either path
    std::uint64_t bytes_to_host = 0;     // packed send items
    std::uint64_t bytes_to_backend = 0;  // received items
  };

  // Collective over comm. width: doubles per item.
  BackendHaloExchange(MPI_Comm comm, const HaloPlan& plan, index_t width, Backend backend, HaloPath path);
  ~BackendHaloExchange();
  BackendHaloExchange(const BackendHaloExchange&) = delete;
  BackendHaloExchange& operator=(const BackendHaloExchange&) = delete;

  // Gathers src's send items (src on the backend) and starts the messages.
  void begin(const double* src);
  // Waits; returns received(), now holding this exchange's items.
  const double* end();
  // The received items on the backend, item s at [s * width, (s + 1) * width): null when none.
  const double* received() const { return recv_.data(); }
  std::size_t received_items() const { return recv_.size() / std::size_t(width_); }

  Backend backend() const { return backend_; }
  HaloPath path() const { return path_; }
  const Staging& staging() const { return staging_; }

 private:
  Backend backend_;
  HaloPath path_;
  index_t width_;
  MPI_Comm comm_ = MPI_COMM_NULL;              // a duplicate: exchanges in flight never match another's messages
  Array<index_t> send_items_;                  // on the backend
  Vector send_, recv_;                         // on the backend
  std::vector<double> send_host_, recv_host_;  // staged: what MPI reads and writes
  std::vector<MPI_Request> requests_;          // persistent: the receives, then the sends
  bool started_ = false;
  Staging staging_;
};

}  // namespace tb::dist
