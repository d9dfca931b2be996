#include <algorithm>
#include <string>

#include "mpi_communicator.hpp"
#include "mpi_wait_clock.hpp"
#include "solvers/core/error.hpp"
#include "solvers/core/kernels.hpp"

namespace tb::dist {

namespace {

// The user operation of reduce(): each element is one record [k, m, k sums, m maxima].
void combine_records(void* in, void* inout, int* count, MPI_Datatype* type) {
  int length = 0;
  MPI_Type_size(*type, &length);
  length /= int(sizeof(double));
  const double* a = static_cast<const double*>(in);
  double* b = static_cast<double*>(inout);
  for (int e = 0; e < *count; ++e, a += length, b += length) {
    const int k = int(a[0]), m = int(a[1]);
    for (int j = 0; j < k; ++j) b[2 + j] += a[2 + j];
    for (int j = 0; j < m; ++j) b[2 + k + j] = std::max(b[2 + k + j], a[2 + k + j]);
  }
}

}  // namespace

bool mpi_finalized() {
  int done = 0;
  MPI_Finalized(&done);
  return done != 0;
}

MpiVectorSpace::MpiVectorSpace(MPI_Comm comm) : comm_(comm) { MPI_Op_create(&combine_records, 1, &op_); }

MpiVectorSpace::~MpiVectorSpace() {
  if (mpi_finalized()) return;
  for (auto& [length, type] : types_) MPI_Type_free(&type);
  MPI_Op_free(&op_);
}

double MpiVectorSpace::dot(const Vector& x, const Vector& y) const {
  double local = kernels::dot(x, y), global = 0.0;
  const MpiWait wait;
  MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM, comm_);
  return global;
}

void MpiVectorSpace::multi_dot(const Vector* const* v, int k, const Vector& w, double* out) const {
  kernels::multi_dot(v, k, w, out);
  const MpiWait wait;
  MPI_Allreduce(MPI_IN_PLACE, out, k, MPI_DOUBLE, MPI_SUM, comm_);
}

MPI_Datatype MpiVectorSpace::record_type(int length) const {
  auto it = types_.find(length);
  if (it != types_.end()) return it->second;
  MPI_Datatype t;
  MPI_Type_contiguous(length, MPI_DOUBLE, &t);
  MPI_Type_commit(&t);
  types_.emplace(length, t);
  return t;
}

void MpiVectorSpace::reduce(double* sum_values, int k, double* max_values, int m) const {
  if (k < 0 || m < 0 || k > max_per_kind || m > max_per_kind)
    throw Error("MPI reduce: " + std::to_string(k) + " sums and " + std::to_string(m) + " maxima; at most " +
                std::to_string(max_per_kind) + " of each per call");
  double record[2 + 2 * max_per_kind];
  record[0] = k;
  record[1] = m;
  std::copy_n(sum_values, k, record + 2);
  std::copy_n(max_values, m, record + 2 + k);
  const MpiWait wait;
  MPI_Allreduce(MPI_IN_PLACE, record, 1, record_type(2 + k + m), op_, comm_);
  std::copy_n(record + 2, k, sum_values);
  std::copy_n(record + 2 + k, m, max_values);
}

}  // namespace tb::dist
