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

// The same steps with their scalars in memory of the vectors' backend (out,
// alpha, a and s point there): nothing comes back to the host, so a method
// that keeps its small dense algebra there too (GMRES's Hessenberg matrix,
// krylov/gmres_scalars.hpp) queues an iteration without waiting for it. Each
// gives the bits of its twin above with the scalar read from that memory.
void dot_to(const Vector& x, const Vector& y, double* out);
void multi_dot_to(const Vector* const* v, int k, const Vector& w, double* out);
void multi_axpy_from(const double* alpha, const Vector* const* v, int k, Vector& w);
void axpy_from(const double* a, const Vector& x, Vector& y);  // y = *a x + y
// w += alpha[i] v[i] for i = 0..k-1 in turn: the bits of k axpy_from calls,
// which a device gives in k/4 launches (multi_axpy_from's kernel adds in that
// order) and the host in k passes (its multi_axpy adds the group first).
void axpys_from(const double* alpha, const Vector* const* v, int k, Vector& w);
// x = (1 / *s) x; left as it is where keep_if_zero and *s == 0 (GMRES's happy breakdown).
void scale_by_inverse(const double* s, Vector& x, bool keep_if_zero);

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
// The scalars-on-the-device steps (above); on the host they are the host twins
// with the scalar dereferenced.
void multi_dot_to(const double* const* v, int k, const double* w, double* out, std::size_t n);
void multi_axpy_from(const double* alpha, const double* const* v, int k, double* w, std::size_t n);
void axpy_from(const double* a, const double* x, double* y, std::size_t n);
void scale_by_inverse(const double* s, double* x, std::size_t n, bool keep_if_zero);
}  // namespace cuda

}  // namespace tb::kernels
