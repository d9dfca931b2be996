#pragma once
// Dependent stages in one CUDA launch (solvers/core/stage_groups.hpp): the
// device half. Included only by .cu files.
//
// Each workgroup takes a ticket when it starts and works on the group of that
// number (counting from the last group when the launch walks the stages
// backwards). Before it reads what earlier stages wrote it waits until the
// nearest non-empty earlier stage has counted all its groups; after its own
// stores it fences and counts itself. It waits only for groups with smaller
// tickets: those have started, stay resident and finish, so the launch ends
// whatever order the hardware starts workgroups in (the argument of
// single-pass scans with decoupled look-back, Merrill and Garland). Values
// written during the launch must be read past L1 (__ldcg): L1 is not coherent
// between multiprocessors.
#include <cuda_runtime.h>

#include "error_check.cuh"
#include "solvers/core/stage_groups.hpp"

namespace tb::stage_order {

// The positions of the group a workgroup holds: first .. min(first + points, end) - 1 of stage `stage`.
struct GroupSlot {
  index_t stage, first, end;
};

// Every thread of the workgroup calls it once, first.
__device__ inline GroupSlot take_group(const StageGroupsView& g, bool backwards) {
  __shared__ index_t ticket;
  if (threadIdx.x == 0 && threadIdx.y == 0) ticket = atomicAdd(g.counter(0), 1);
  __syncthreads();
  const index_t group = backwards ? g.groups - 1 - ticket : ticket;
  GroupSlot s;
  s.stage = g.group_stage[group];
  s.first = g.stage_ptr[s.stage] + (group - g.group_ptr[s.stage]) * g.points;
  s.end = g.stage_ptr[s.stage + 1];
  return s;
}

// Polls before the waiting thread starts to nap between them.
inline constexpr unsigned long long stage_eager_polls = 256;

// A wait this long (at least 2^28 naps of 32 ns, about 9 s, where a whole
// launch takes milliseconds) means the ordering is broken (counters not zeroed,
// a plan that does not match the launch): the kernel traps, and the next CUDA
// call reports a launch failure, rather than the program hanging.
inline constexpr unsigned long long stage_wait_limit = 1ull << 28;

// The count of a stage, read with acquire semantics at GPU scope: what the
// publishing workgroup stored before its release is visible after it.
__device__ inline index_t load_acquire(const index_t* p) {
  index_t v;
  asm volatile("ld.acquire.gpu.global.b32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}

// Every thread calls; returns once the stages before `stage` (after it, when
// backwards) are complete. Empty stages count no groups, so the wait is for
// the nearest non-empty one, which itself waited for those before it. The
// first polls do not sleep: the stage before is usually about to finish, and
// a nap of even 32 ns lengthens every stage of the chain.
__device__ inline void wait_for_stages_before(const StageGroupsView& g, index_t stage, bool backwards) {
  if (threadIdx.x == 0 && threadIdx.y == 0) {
    const index_t s = stage_to_wait_for(g.group_ptr, g.stages, stage, backwards);
    if (s >= 0) {
      const index_t need = g.group_ptr[s + 1] - g.group_ptr[s];
      const index_t* done = g.counter(1 + s);
      for (unsigned long long polls = 0; load_acquire(done) < need; ++polls) {
        if (polls < stage_eager_polls) continue;
        if (polls == stage_wait_limit) __trap();
        __nanosleep(32);
      }
    }
  }
  __syncthreads();
}

// Every thread calls after its stores. The barrier orders the workgroup's
// stores before thread 0's fence, which orders them before the count that
// wait_for_stages_before reads (the pattern of cooperative groups' grid sync):
// one fence per workgroup rather than one per thread.
__device__ inline void publish_group(const StageGroupsView& g, index_t stage) {
  __syncthreads();
  if (threadIdx.x == 0 && threadIdx.y == 0) {
    __threadfence();
    atomicAdd(g.counter(1 + stage), 1);
  }
}

// Before every launch, on the stream it goes to: tickets from 0, every stage at
// no finished group.
inline void zero_counters(const StageGroupsView& g, const char* what, cudaStream_t stream = nullptr) {
  const std::size_t bytes = (std::size_t(g.stages) + 1) * stage_counter_stride * sizeof(index_t);
  const cudaError_t status = cudaMemsetAsync(g.counters, 0, bytes, stream);
  if (status != cudaSuccess)
    cuda_error::throw_if(status, std::string("cudaMemsetAsync of the stage counters of ") + what);
}

}  // namespace tb::stage_order
