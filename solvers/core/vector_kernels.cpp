#include "vector_kernels.hpp"

#include <cmath>

#include "cuda_call.hpp"
#include "error.hpp"
#include "types.hpp"

namespace tb::kernels {

namespace {
void check_same(const Vector& x, const Vector& y, const char* op) {
  if (x.size() != y.size() || x.backend() != y.backend())
    throw Error(std::string(op) + ": vectors differ in size or backend (" + std::to_string(x.size()) + " on " +
                std::string(to_string(x.backend())) + ", " + std::to_string(y.size()) + " on " +
                std::string(to_string(y.backend())) + ")");
}
bool on_cuda(const Vector& x) { return x.backend() == Backend::cuda; }
}  // namespace

double dot(const Vector& x, const Vector& y) {
  check_same(x, y, "dot");
  if (on_cuda(x)) return TB_CUDA_CALL(cuda::dot(x.data(), y.data(), x.size()));
  return omp::dot(x.data(), y.data(), x.size());
}

double norm2(const Vector& x) { return std::sqrt(dot(x, x)); }

void axpy(double a, const Vector& x, Vector& y) { axpby(a, x, 1.0, y); }

void axpby(double a, const Vector& x, double b, Vector& y) {
  check_same(x, y, "axpby");
  if (on_cuda(x)) return TB_CUDA_CALL(cuda::axpby(a, x.data(), b, y.data(), x.size()));
  omp::axpby(a, x.data(), b, y.data(), x.size());
}

void axpbypcz(double a, const Vector& x, double b, const Vector& y, double c, Vector& z) {
  check_same(x, z, "axpbypcz");
  check_same(y, z, "axpbypcz");
  if (on_cuda(x)) return TB_CUDA_CALL(cuda::axpbypcz(a, x.data(), b, y.data(), c, z.data(), x.size()));
  omp::axpbypcz(a, x.data(), b, y.data(), c, z.data(), x.size());
}

void scale(double a, Vector& x) {
  if (on_cuda(x)) return TB_CUDA_CALL(cuda::scale(a, x.data(), x.size()));
  omp::scale(a, x.data(), x.size());
}

void fill(Vector& x, double value) {
  if (on_cuda(x)) return TB_CUDA_CALL(cuda::fill(x.data(), value, x.size()));
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = value;
}

void copy(const Vector& src, Vector& dst) { dst.copy_from(src); }

bool all_finite(const Vector& x) {
  if (on_cuda(x)) return TB_CUDA_CALL(cuda::all_finite(x.data(), x.size()));
  return omp::all_finite(x.data(), x.size());
}

namespace ref {
double dot(const double* x, const double* y, std::size_t n) {
  double s = 0.0;
  for (std::size_t i = 0; i < n; ++i) s += x[i] * y[i];
  return s;
}
void axpby(double a, const double* x, double b, double* y, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) y[i] = a * x[i] + b * y[i];
}
void axpbypcz(double a, const double* x, double b, const double* y, double c, double* z, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) z[i] = a * x[i] + b * y[i] + c * z[i];
}
}  // namespace ref

// Static schedules throughout: with a fixed thread count the reduction order,
// and hence every Krylov iterate, is reproducible run to run.
namespace omp {
using sidx = std::ptrdiff_t;
double dot(const double* x, const double* y, std::size_t n) {
  double s = 0.0;
#pragma omp parallel for schedule(static) reduction(+ : s) if (sidx(n) >= openmp_min_length)
  for (sidx i = 0; i < sidx(n); ++i) s += x[i] * y[i];
  return s;
}
void axpby(double a, const double* x, double b, double* y, std::size_t n) {
#pragma omp parallel for schedule(static) if (sidx(n) >= openmp_min_length)
  for (sidx i = 0; i < sidx(n); ++i) y[i] = a * x[i] + b * y[i];
}
void axpbypcz(double a, const double* x, double b, const double* y, double c, double* z, std::size_t n) {
#pragma omp parallel for schedule(static) if (sidx(n) >= openmp_min_length)
  for (sidx i = 0; i < sidx(n); ++i) z[i] = a * x[i] + b * y[i] + c * z[i];
}
void scale(double a, double* x, std::size_t n) {
#pragma omp parallel for schedule(static) if (sidx(n) >= openmp_min_length)
  for (sidx i = 0; i < sidx(n); ++i) x[i] *= a;
}
bool all_finite(const double* x, std::size_t n) {
  int bad = 0;
#pragma omp parallel for schedule(static) reduction(| : bad) if (sidx(n) >= openmp_min_length)
  for (sidx i = 0; i < sidx(n); ++i) bad |= !std::isfinite(x[i]);
  return !bad;
}
}  // namespace omp

}  // namespace tb::kernels
