#pragma once
// The GPU side of tb-bench-spmv: its own STREAM triad (the bandwidth the GPU
// SpMV is measured against) and a device synchronisation for timing. Plain
// C++ declarations; defined in gpu_baseline.cu, called through TB_CUDA_CALL.
#include <cstddef>

namespace tb::bench::gpu {

// Best seconds of one triad a = b + s c over n doubles in device memory,
// timed by CUDA events around each launch.
double triad_seconds(std::size_t n, int reps);
// Waits for every kernel queued on the device; tb::Error on an earlier fault.
void synchronize();

}  // namespace tb::bench::gpu
