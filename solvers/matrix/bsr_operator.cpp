#include "bsr_operator.hpp"

#include <string>

#include "kernels.hpp"
#include "solvers/core/cuda_call.hpp"
#include "solvers/core/error.hpp"

namespace tb {

BsrOperator::BsrOperator(const BsrMatrix& a, Backend backend)
    : backend_(backend),
      block_size_(a.block_size),
      block_rows_(a.block_rows),
      block_cols_(a.block_cols),
      row_ptr_(backend, std::span<const index_t>(a.row_ptr)),
      col_idx_(backend, std::span<const index_t>(a.col_idx)),
      values_(backend, std::span<const double>(a.values)) {
  if (block_rows_ != block_cols_)
    throw Error("BsrOperator: the matrix is not square (" + std::to_string(a.rows()) + "x" + std::to_string(a.cols()) +
                ")");
}

void BsrOperator::update_values(const BsrMatrix& a) {
  if (a.block_size != block_size_ || a.block_rows != block_rows_ || a.values.size() != values_.size())
    throw Error("BsrOperator::update_values: the matrix pattern changed since set-up; call setup() again");
  values_.copy_from_host(a.values);
}

BsrView BsrOperator::view() const {
  return {block_size_, block_rows_, block_cols_, row_ptr_.data(), col_idx_.data(), values_.data()};
}

void BsrOperator::apply(const Vector& x, Vector& y) const {
  if (x.size() != std::size_t(rows()) || y.size() != std::size_t(rows()) || x.backend() != backend_ ||
      y.backend() != backend_)
    throw Error("BsrOperator::apply: vector size or backend does not match the operator");
  kernels::bsr_spmv(backend_, view(), x.data(), y.data());
}

void kernels::bsr_spmv(Backend b, const BsrView& a, const double* x, double* y) {
  if (b == Backend::cuda) return TB_CUDA_CALL(cuda::bsr_spmv(a, x, y));
  omp::bsr_spmv(a, x, y);
}

}  // namespace tb
