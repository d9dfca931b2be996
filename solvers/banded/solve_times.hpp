#pragma once
// Where a banded solve spent its time, and how many global reductions it made:
// what the benchmark reports per iteration.
namespace tb::banded {

struct SolveTimes {
  double compute = 0.0;    // kernels (SpMV, fused updates, local reductions)
  double halo = 0.0;       // ghost exchange: posting and waiting, not the overlapped rows
  double reduction = 0.0;  // global reductions (VectorSpace::reduce, allgather excluded)
  long reductions = 0;     // calls of VectorSpace::reduce, each one MPI_Allreduce under MPI
  double total() const { return compute + halo + reduction; }
};

}  // namespace tb::banded
