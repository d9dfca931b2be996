#pragma once
// The device steps of the asynchronous (block) ILU(0), each declared once per
// backend: ref (sequential natural order, the twin every backend is tested
// against), omp (host threads) and cuda (solvers/async_ilu/cuda/kernels.cu).
// All pointers live on the kernel's backend. The algorithm that chains them
// (AsyncIlu) never touches threads or devices.
//
// Schedules. asynchronous: the state is updated in place and a row reads
// whatever values its neighbours hold at that moment (Alg. 2, 4, 5: no
// synchronisation within or between sweeps); with one thread this is
// Gauss-Seidel in natural order. synchronous: Jacobi sweeps that read src and
// write dst, the same result for any thread count and on any backend.
//
// Every sweep kernel returns the first block row whose U_ii could not be
// inverted (in any sweep), or -1.
#include "row_kernels.hpp"
#include "solvers/core/backend.hpp"

namespace tb::async_ilu {

enum class Schedule { asynchronous, synchronous };

// The factor state: lu (on A's pattern) and dinv (U_ii^{-1}); for the
// synchronous schedule also the second buffer pair that sweeps alternate with.
// After the call the result is in lu/dinv whatever the number of sweeps.
struct FactorState {
  double* lu = nullptr;
  double* dinv = nullptr;
  double* lu_next = nullptr;    // synchronous only
  double* dinv_next = nullptr;  // synchronous only
  index_t* bad_row = nullptr;   // CUDA only: one index of device scratch
};

// The vectors of one preconditioner application: z = U^{-1} L^{-1} r.
struct ApplyState {
  const double* lu = nullptr;
  const double* dinv = nullptr;
  double* y = nullptr;     // L^{-1} r
  double* work = nullptr;  // synchronous only: the second buffer of both sweeps
};

// How the CUDA kernels map block rows onto threads: thread, one thread per
// block row (row_kernels.hpp; blocks up to 8, whose rows fit in registers);
// group, a group of lanes per block row, lane c computing component c
// (group_row_kernels.hpp; blocks up to 32, 16 or 32 lanes a group).
// automatic: thread up to 8, group above.
enum class GpuRows { automatic, thread, group };

// The mapping the CUDA kernels use for blocks of n x n, and the lanes of a
// group: the power of two at or above n. Throws tb::Error when the mapping
// cannot take the block size (thread above 8, anything above 32).
GpuRows resolve_gpu_rows(GpuRows requested, index_t n);
index_t group_width(index_t n);

// How a sweep's block rows are handed out: chunk, the block rows the OpenMP
// kernels take at a time (Alg. 4 "in parallel dynamically"); gpu_rows, the
// CUDA mapping (one launch per sweep either way). ref:: ignores both.
struct SweepSplit {
  int chunk = 384;
  GpuRows gpu_rows = GpuRows::automatic;
};

#define TB_ASYNC_ILU_KERNELS                                                                                         \
  /* Seed 001 section 6, x0 = A: lu = A's values (f.a), dinv = A_ii^{-1} per block row, the identity where A_ii */   \
  /* is singular or not finite (row_kernels.hpp initial_inverse_row) */                                              \
  void initial_guess(const FactorView& f, double* lu, double* dinv);                                                 \
  /* Eq. 18 / 22, Alg. 4: `sweeps` fixed-point sweeps of the factors */                                              \
  index_t factor_sweeps(const FactorView& f, FactorState s, int sweeps, Schedule schedule, const SweepSplit& split); \
  /* Alg. 2 / 5: z = U^{-1} L^{-1} r by `sweeps` sweeps of each triangular solve, from zero */                       \
  void triangular_sweeps(const FactorView& f, const ApplyState& s, const double* r, double* z, int sweeps,           \
                         Schedule schedule, const SweepSplit& split);

namespace kernels::ref {
TB_ASYNC_ILU_KERNELS
}
namespace kernels::omp {
TB_ASYNC_ILU_KERNELS
}
namespace kernels::cuda {
TB_ASYNC_ILU_KERNELS
}

namespace kernels {
// Dispatch: the backend the pointers live on (the host runs omp::).
void initial_guess(Backend b, const FactorView& f, double* lu, double* dinv);
index_t factor_sweeps(Backend b, const FactorView& f, FactorState s, int sweeps, Schedule schedule,
                      const SweepSplit& split);
void triangular_sweeps(Backend b, const FactorView& f, const ApplyState& s, const double* r, double* z, int sweeps,
                       Schedule schedule, const SweepSplit& split);
}  // namespace kernels

}  // namespace tb::async_ilu
