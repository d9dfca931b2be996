#pragma once
// How a halo exchange from a backend's buffers reaches MPI (docs/distributed.md,
// "On a backend"). No MPI header here: what MPI offers is asked in the .cpp.
//  - staged: the send items gathered on the backend, copied to host memory
//    (counted as transfers on a device), sent; the received items copied back;
//  - cuda_aware: MPI reads and writes the backend's buffers itself (device
//    pointers), where Open MPI was built with CUDA support and reports it at
//    run time.
#include "solvers/core/backend.hpp"

namespace tb::dist {

enum class HaloPath { staged, cuda_aware };

const char* to_string(HaloPath p);

// True where this process's MPI takes device pointers: Open MPI's
// MPIX_Query_cuda_support() in a build whose <mpi-ext.h> declares
// MPIX_CUDA_AWARE_SUPPORT; false otherwise. Needs MPI initialised.
bool mpi_takes_device_pointers();

// The path for buffers on backend b: cuda_aware on cuda where
// mpi_takes_device_pointers(), staged otherwise (and always on the host,
// where staging runs the device's steps on host memory).
HaloPath default_halo_path(Backend b);

}  // namespace tb::dist
