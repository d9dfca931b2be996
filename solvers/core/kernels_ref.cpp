// The sequential twins of the vector kernels (kernels.hpp): plain loops, sums in
// index order.
#include <cmath>

#include "kernels.hpp"

namespace tb::kernels::ref {

void multi_dot(const double* const* v, int k, const double* w, double* out, std::size_t n) {
  for (int i = 0; i < k; ++i) out[i] = dot(v[i], w, n);
}
void multi_axpy(const double* alpha, const double* const* v, int k, double* w, std::size_t n) {
  for (int i = 0; i < k; ++i) axpby(alpha[i], v[i], 1.0, w, n);
}
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
void scale(double a, double* x, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) x[i] *= a;
}
void fill(double* x, double value, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) x[i] = value;
}
bool all_finite(const double* x, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i)
    if (!std::isfinite(x[i])) return false;
  return true;
}

}  // namespace tb::kernels::ref
