#pragma once
// The async ILU kernel tests' harness, host and GPU: a random 7-point block
// system, its factor pattern, and one run of a backend's factor_sweeps or
// triangular_sweeps with every array on that backend (Array<T> on Backend::host
// is plain host memory).
#include <algorithm>
#include <cmath>
#include <span>
#include <utility>
#include <vector>

#include "../../common/random.hpp"
#include "solvers/async_ilu/factor_pattern.hpp"
#include "solvers/async_ilu/kernels.hpp"
#include "solvers/core/array.hpp"
#include "solvers/matrix/generate.hpp"

namespace tb::test {

struct AsyncIluInputs {
  BsrMatrix a;
  async_ilu::FactorPattern pattern;
  std::vector<double> r;
};

inline AsyncIluInputs async_ilu_inputs(index_t nx, index_t ny, index_t nz, index_t b, unsigned seed) {
  Stencil7Params p;
  p.nx = nx, p.ny = ny, p.nz = nz, p.block_size = b, p.seed = seed;
  AsyncIluInputs in;
  in.a = generate_stencil7(p);
  in.pattern = async_ilu::factor_pattern(in.a);
  in.r = random_vector(std::size_t(in.a.rows()), seed + 1);
  return in;
}

// The pattern and A's values on `backend`.
class BackendView {
 public:
  BackendView(Backend backend, const AsyncIluInputs& in)
      : row_ptr_(backend, std::span<const index_t>(in.a.row_ptr)),
        col_idx_(backend, std::span<const index_t>(in.a.col_idx)),
        diag_(backend, std::span<const index_t>(in.pattern.diag)),
        prod_ptr_(backend, std::span<const index_t>(in.pattern.prod_ptr)),
        prod_l_(backend, std::span<const index_t>(in.pattern.prod_l)),
        prod_u_(backend, std::span<const index_t>(in.pattern.prod_u)),
        a_(backend, std::span<const double>(in.a.values)) {
    view_ = {in.a.block_size, in.a.block_rows,  in.a.row_ptr.back(), row_ptr_.data(), col_idx_.data(),
             diag_.data(),    prod_ptr_.data(), prod_l_.data(),      prod_u_.data(),  a_.data()};
  }
  const async_ilu::FactorView& view() const { return view_; }

 private:
  Array<index_t> row_ptr_, col_idx_, diag_, prod_ptr_, prod_l_, prod_u_;
  Array<double> a_;
  async_ilu::FactorView view_;
};

// The sweeps' starting point: L and U from A, U_ii^{-1} guessed as 0.1 I.
inline std::vector<double> initial_dinv(const BsrMatrix& a) {
  const index_t b = a.block_size;
  std::vector<double> dinv(std::size_t(a.block_rows) * b * b, 0.0);
  for (index_t i = 0; i < a.block_rows; ++i)
    for (index_t c = 0; c < b; ++c) dinv[std::size_t(i) * b * b + std::size_t(c * b + c)] = 0.1;
  return dinv;
}

struct Factors {
  std::vector<double> lu, dinv;
  index_t bad_row = -1;
};

// K::backend and K::initial_guess / K::factor_sweeps / K::triangular_sweeps
// with the kernels' signatures (TB_ASYNC_ILU_KERNELS).
template <class K>
Factors run_initial_guess(const AsyncIluInputs& in) {
  const BackendView v(K::backend, in);
  const std::size_t nb = std::size_t(in.a.block_entries());
  Vector lu(K::backend, in.a.values.size()), dinv(K::backend, std::size_t(in.a.block_rows) * nb);
  K::initial_guess(v.view(), lu.data(), dinv.data());
  Factors out;
  out.lu = lu.to_host();
  out.dinv = dinv.to_host();
  return out;
}

template <class K>
Factors run_factor(const AsyncIluInputs& in, int sweeps, async_ilu::Schedule schedule,
                   const async_ilu::SweepSplit& split) {
  const BackendView v(K::backend, in);
  const std::vector<double> dinv0 = initial_dinv(in.a);
  Vector lu(K::backend, std::span<const double>(in.a.values)), lu_next(K::backend, in.a.values.size());
  Vector dinv(K::backend, std::span<const double>(dinv0)), dinv_next(K::backend, dinv0.size());
  Array<index_t> bad(K::backend, 1);
  Factors out;
  out.bad_row = K::factor_sweeps(v.view(), {lu.data(), dinv.data(), lu_next.data(), dinv_next.data(), bad.data()},
                                 sweeps, schedule, split);
  out.lu = lu.to_host();
  out.dinv = dinv.to_host();
  return out;
}

template <class K>
std::vector<double> run_solve(const AsyncIluInputs& in, const Factors& f, int sweeps, async_ilu::Schedule schedule,
                              const async_ilu::SweepSplit& split) {
  const BackendView v(K::backend, in);
  const Vector lu(K::backend, std::span<const double>(f.lu)), dinv(K::backend, std::span<const double>(f.dinv));
  const Vector r(K::backend, std::span<const double>(in.r));
  Vector y(K::backend, in.r.size()), work(K::backend, in.r.size()), z(K::backend, in.r.size());
  K::triangular_sweeps(v.view(), {lu.data(), dinv.data(), y.data(), work.data()}, r.data(), z.data(), sweeps, schedule,
                       split);
  return z.to_host();
}

// The sequential twin on the host.
struct RefKernels {
  static constexpr Backend backend = Backend::host;
  static void initial_guess(const async_ilu::FactorView& f, double* lu, double* dinv) {
    async_ilu::kernels::ref::initial_guess(f, lu, dinv);
  }
  static index_t factor_sweeps(const async_ilu::FactorView& f, async_ilu::FactorState s, int sweeps,
                               async_ilu::Schedule schedule, const async_ilu::SweepSplit& split) {
    return async_ilu::kernels::ref::factor_sweeps(f, s, sweeps, schedule, split);
  }
  static void triangular_sweeps(const async_ilu::FactorView& f, const async_ilu::ApplyState& s, const double* r,
                                double* z, int sweeps, async_ilu::Schedule schedule,
                                const async_ilu::SweepSplit& split) {
    async_ilu::kernels::ref::triangular_sweeps(f, s, r, z, sweeps, schedule, split);
  }
};

// max |a - b| / max |b|: how far an asynchronous result is from ref's fixed point.
inline double max_rel_diff(const std::vector<double>& a, const std::vector<double>& b) {
  double d = 0.0, m = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    d = std::max(d, std::abs(a[i] - b[i]));
    m = std::max(m, std::abs(b[i]));
  }
  return d / m;
}

}  // namespace tb::test
