// The vector operations on Vectors: each checks its arguments and dispatches on
// their backend (kernels.hpp).
#include "kernels.hpp"

#include <algorithm>
#include <cmath>

#include "cuda_call.hpp"
#include "error.hpp"
#include "transfers.hpp"
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
  transfers::count_twin_result(sizeof(double));
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
  omp::fill(x.data(), value, x.size());
}

void copy(const Vector& src, Vector& dst) { dst.copy_from(src); }

bool all_finite(const Vector& x) {
  if (on_cuda(x)) return TB_CUDA_CALL(cuda::all_finite(x.data(), x.size()));
  transfers::count_twin_result(sizeof(int));
  return omp::all_finite(x.data(), x.size());
}

namespace {
// Both fused kernels take at most four vectors per call (see omp::multi_dot):
// fn(g, p, m) for the group of m <= 4 vectors from v[g], their pointers in p,
// gathered without allocating.
template <class F>
void in_groups(const Vector* const* v, int k, const Vector& w, const char* op, F&& fn) {
  for (int g = 0; g < k; g += 4) {
    const int m = std::min(4, k - g);
    const double* p[4];
    for (int i = 0; i < m; ++i) {
      check_same(*v[g + i], w, op);
      p[i] = v[g + i]->data();
    }
    fn(g, p, m);
  }
}
}  // namespace

void multi_dot(const Vector* const* v, int k, const Vector& w, double* out) {
  in_groups(v, k, w, "multi_dot", [&](int g, const double* const* p, int m) {
    if (on_cuda(w)) {
      TB_CUDA_CALL(cuda::multi_dot(p, m, w.data(), out + g, w.size()));
    } else {
      transfers::count_twin_result(std::size_t(m) * sizeof(double));
      omp::multi_dot(p, m, w.data(), out + g, w.size());
    }
  });
}

void multi_axpy(const double* alpha, const Vector* const* v, int k, Vector& w) {
  in_groups(v, k, w, "multi_axpy", [&](int g, const double* const* p, int m) {
    if (on_cuda(w))
      TB_CUDA_CALL(cuda::multi_axpy(alpha + g, p, m, w.data(), w.size()));
    else
      omp::multi_axpy(alpha + g, p, m, w.data(), w.size());
  });
}

void dot_to(const Vector& x, const Vector& y, double* out) {
  check_same(x, y, "dot_to");
  // cuda::multi_dot's sums are dot's bits; omp's are only for groups of four.
  const double* p[1] = {x.data()};
  if (on_cuda(x)) return TB_CUDA_CALL(cuda::multi_dot_to(p, 1, y.data(), out, x.size()));
  *out = omp::dot(x.data(), y.data(), x.size());
}

void multi_dot_to(const Vector* const* v, int k, const Vector& w, double* out) {
  in_groups(v, k, w, "multi_dot_to", [&](int g, const double* const* p, int m) {
    if (on_cuda(w))
      TB_CUDA_CALL(cuda::multi_dot_to(p, m, w.data(), out + g, w.size()));
    else
      omp::multi_dot(p, m, w.data(), out + g, w.size());
  });
}

void multi_axpy_from(const double* alpha, const Vector* const* v, int k, Vector& w) {
  in_groups(v, k, w, "multi_axpy_from", [&](int g, const double* const* p, int m) {
    if (on_cuda(w))
      TB_CUDA_CALL(cuda::multi_axpy_from(alpha + g, p, m, w.data(), w.size()));
    else
      omp::multi_axpy(alpha + g, p, m, w.data(), w.size());
  });
}

void axpy_from(const double* a, const Vector& x, Vector& y) {
  check_same(x, y, "axpy_from");
  if (on_cuda(x)) return TB_CUDA_CALL(cuda::axpy_from(a, x.data(), y.data(), x.size()));
  omp::axpby(*a, x.data(), 1.0, y.data(), x.size());
}

void axpys_from(const double* alpha, const Vector* const* v, int k, Vector& w) {
  if (on_cuda(w)) return multi_axpy_from(alpha, v, k, w);
  for (int i = 0; i < k; ++i) axpy_from(alpha + i, *v[i], w);
}

void scale_by_inverse(const double* s, Vector& x, bool keep_if_zero) {
  if (on_cuda(x)) return TB_CUDA_CALL(cuda::scale_by_inverse(s, x.data(), x.size(), keep_if_zero));
  if (keep_if_zero && *s == 0.0) return;
  omp::scale(1.0 / *s, x.data(), x.size());
}

}  // namespace tb::kernels
