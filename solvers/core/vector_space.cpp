#include "vector_space.hpp"

#include <cmath>

#include "kernels.hpp"

namespace tb {

double VectorSpace::dot(const Vector& x, const Vector& y) const { return kernels::dot(x, y); }
double VectorSpace::norm2(const Vector& x) const { return std::sqrt(dot(x, x)); }
void VectorSpace::multi_dot(const Vector* const* v, int k, const Vector& w, double* out) const {
  kernels::multi_dot(v, k, w, out);
}

void VectorSpace::reduce(double*, int, double*, int) const {}

}  // namespace tb
