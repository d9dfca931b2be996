#pragma once
// The vector operations of the Krylov methods, one declared kernel each.
// Dispatch picks the backend of the arguments; every kernel has a sequential
// reference twin (namespace ref) that the tests compare the others against.
#include "array.hpp"

namespace tb::kernels {

double dot(const Vector& x, const Vector& y);
double norm2(const Vector& x);
void axpy(double a, const Vector& x, Vector& y);                                           // y = a x + y
void axpby(double a, const Vector& x, double b, Vector& y);                                // y = a x + b y
void axpbypcz(double a, const Vector& x, double b, const Vector& y, double c, Vector& z);  // z = a x + b y + c z
void scale(double a, Vector& x);
void fill(Vector& x, double value);
void copy(const Vector& src, Vector& dst);
// True when every entry is finite; Krylov methods stop with reason non_finite otherwise.
bool all_finite(const Vector& x);
// out[i] = (v[i], w) for i < k, reading w once per group of four vectors: the
// orthogonalisation of classical Gram-Schmidt in k/4 passes instead of k.
void multi_dot(const Vector* const* v, int k, const Vector& w, double* out);
// w += sum_i alpha[i] v[i], likewise fused.
void multi_axpy(const double* alpha, const Vector* const* v, int k, Vector& w);

// The device steps on raw pointers of the backend named, n entries each,
// declared once and expanded in ref:: (sequential), omp:: (threads, reductions
// through ordered_sums) and cuda:: (cuda/kernels.cu). multi_dot and
// multi_axpy take at most four vectors per call; cuda:: reads w once for them
// (one pass, one copy of the results), each result as dot's and axpby's bits.
#define TB_CORE_KERNELS                                                                                    \
  double dot(const double* x, const double* y, std::size_t n);                                             \
  void axpby(double a, const double* x, double b, double* y, std::size_t n);                               \
  void axpbypcz(double a, const double* x, double b, const double* y, double c, double* z, std::size_t n); \
  void scale(double a, double* x, std::size_t n);                                                          \
  void fill(double* x, double value, std::size_t n);                                                       \
  bool all_finite(const double* x, std::size_t n);                                                         \
  void multi_dot(const double* const* v, int k, const double* w, double* out, std::size_t n);              \
  void multi_axpy(const double* alpha, const double* const* v, int k, double* w, std::size_t n);

namespace ref {
TB_CORE_KERNELS
}  // namespace ref
namespace omp {
TB_CORE_KERNELS
}  // namespace omp
namespace cuda {
TB_CORE_KERNELS
}  // namespace cuda

}  // namespace tb::kernels
