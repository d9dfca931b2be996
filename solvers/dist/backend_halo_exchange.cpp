#include "backend_halo_exchange.hpp"

#include <string>
// Open MPI's extensions (MPIX_Query_cuda_support); other MPIs may lack the header.
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>
#endif

#include "kernels.hpp"
#include "mpi_communicator.hpp"
#include "mpi_wait_clock.hpp"
#include "solvers/core/error.hpp"

namespace tb::dist {

namespace {
void check(int code, const char* call) { check_mpi(code, "halo exchange on a backend", call); }
}  // namespace

const char* to_string(HaloPath p) { return p == HaloPath::staged ? "staged" : "cuda_aware"; }

bool mpi_takes_device_pointers() {
#if defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
  return MPIX_Query_cuda_support() == 1;
#else
  return false;
#endif
}

HaloPath default_halo_path(Backend b) {
  return b == Backend::cuda && mpi_takes_device_pointers() ? HaloPath::cuda_aware : HaloPath::staged;
}

BackendHaloExchange::BackendHaloExchange(MPI_Comm comm, const HaloPlan& plan, index_t width, Backend backend,
                                         HaloPath path)
    : backend_(backend), path_(path), width_(width) {
  if (width < 1) throw Error("halo exchange on a backend: width " + std::to_string(width) + ", allowed >= 1");
  const int n = plan.neighbour_count();
  if (plan.send_offsets.size() != std::size_t(n) + 1 || plan.recv_offsets.size() != std::size_t(n) + 1)
    throw Error("halo exchange on a backend: the plan's offsets do not match its " + std::to_string(n) + " neighbours");
  if (path == HaloPath::cuda_aware && backend == Backend::cuda && !mpi_takes_device_pointers())
    throw Error(
        "halo exchange on a backend: path cuda_aware, but this MPI does not take device pointers "
        "(MPIX_Query_cuda_support); allowed staged");
  const std::size_t w = std::size_t(width);
  send_items_ = Array<index_t>(backend, std::span<const index_t>(plan.send_items));
  send_ = Vector(backend, plan.send_items.size() * w);
  recv_ = Vector(backend, plan.recv_items.size() * w);
  const bool staged = path == HaloPath::staged;
  if (staged) {
    send_host_.resize(send_.size());
    recv_host_.resize(recv_.size());
  }
  double* send_buf = staged ? send_host_.data() : send_.data();
  double* recv_buf = staged ? recv_host_.data() : recv_.data();
  check(MPI_Comm_dup(comm, &comm_), "MPI_Comm_dup");
  // One persistent request per neighbour that has items, receives first.
  constexpr int tag = 0;
  for (int pass = 0; pass < 2; ++pass) {
    const bool receive = pass == 0;
    const std::vector<index_t>& offsets = receive ? plan.recv_offsets : plan.send_offsets;
    for (int q = 0; q < n; ++q) {
      const std::size_t uq = std::size_t(q);
      const int count = int((offsets[uq + 1] - offsets[uq]) * width);
      if (count == 0) continue;
      double* at = (receive ? recv_buf : send_buf) + std::size_t(offsets[uq]) * w;
      requests_.push_back(MPI_REQUEST_NULL);
      if (receive)
        check(MPI_Recv_init(at, count, MPI_DOUBLE, plan.neighbours[uq], tag, comm_, &requests_.back()),
              "MPI_Recv_init");
      else
        check(MPI_Send_init(at, count, MPI_DOUBLE, plan.neighbours[uq], tag, comm_, &requests_.back()),
              "MPI_Send_init");
    }
  }
}

BackendHaloExchange::~BackendHaloExchange() {
  if (comm_ == MPI_COMM_NULL || mpi_finalized()) return;
  if (started_) MPI_Waitall(int(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE);
  for (MPI_Request& r : requests_) MPI_Request_free(&r);
  MPI_Comm_free(&comm_);
}

void BackendHaloExchange::begin(const double* src) {
  kernels::gather_items(backend_, src, send_items_.data(), index_t(send_items_.size()), width_, send_.data());
  if (path_ == HaloPath::staged) {
    memory::copy(send_host_.data(), Backend::host, send_.data(), backend_, send_.size() * sizeof(double));
    staging_.bytes_to_host += send_.size() * sizeof(double);
  } else {
    kernels::finish_kernels(backend_);  // MPI reads send_ only once the gather has written it
  }
  if (!requests_.empty()) check(MPI_Startall(int(requests_.size()), requests_.data()), "MPI_Startall");
  started_ = true;
}

const double* BackendHaloExchange::end() {
  {
    const MpiWait wait;
    check(MPI_Waitall(int(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
  }
  started_ = false;
  if (path_ == HaloPath::staged) {
    memory::copy(recv_.data(), backend_, recv_host_.data(), Backend::host, recv_.size() * sizeof(double));
    staging_.bytes_to_backend += recv_.size() * sizeof(double);
  }
  ++staging_.exchanges;
  return recv_.data();
}

}  // namespace tb::dist
