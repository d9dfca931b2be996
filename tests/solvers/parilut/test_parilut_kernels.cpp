// Every ParILUT kernel of kernels.hpp against its sequential twin kernels::ref
// on small random inputs: one below OpenMP's threshold (the serial path) and
// one above it (the threaded path). Bitwise where the kernel is deterministic;
// the asynchronous sweep is bitwise on one thread and, threaded, within a
// tolerance of the exact ILU after enough sweeps (its updates race by design,
// seed 003 Alg. 1). The CUDA kernels (cuda/kernels.hpp, another
// signature) are checked against ref:: in test_parilut_gpu.cpp.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "../../common/systems.hpp"
#include "selection_data.hpp"
#include "solvers/matrix/generate.hpp"
#include "solvers/parilut/fixed_point.hpp"
#include "solvers/parilut/kernels.hpp"
#include "solvers/parilut/parilut.hpp"

namespace tb::parilut {
namespace {

// The kernels of one backend, the type parameter of the typed tests.
struct OmpKernels {
  static CsrMatrix find_candidates(const CsrMatrix& a, const IluFactors& f) {
    return kernels::omp::find_candidates(a, f);
  }
  static void candidate_residuals(const CsrMatrix& a, IluFactors& f, CsrMatrix& c) {
    kernels::omp::candidate_residuals(a, f, c);
  }
  static void sweep(const CsrMatrix& a, IluFactors& f) { kernels::omp::sweep(a, f); }
  static BucketCounts classify(std::span<const double> d, const SplitterTree& t, std::vector<std::uint8_t>& o) {
    return kernels::omp::classify(d, t, o);
  }
};

template <class K>
class ParilutKernels : public ::testing::Test {};
using Backends = ::testing::Types<OmpKernels>;
TYPED_TEST_SUITE(ParilutKernels, Backends);

// A random 7-point-stencil matrix, scalar: 5 x 5 x 4 rows (serial path) or
// 24 x 24 x 20 (about 78,000 entries, above openmp_min_length).
CsrMatrix random_stencil(bool threaded, unsigned seed) {
  Stencil7Params p;
  p.nx = threaded ? 24 : 5, p.ny = threaded ? 24 : 5, p.nz = threaded ? 20 : 4;
  p.block_size = 1, p.seed = seed;
  return bsr_to_csr(generate_stencil7(p), true);
}

// Factors with fill beyond A's pattern (one sequential ParILUT step).
IluFactors grown_factors(const CsrMatrix& a) {
  ParilutOptions o;
  o.steps = 1, o.fill = 3.0, o.kernel = Kernel::ref;
  return parilut_factor(a, o);
}

void expect_same_csr(const CsrMatrix& got, const CsrMatrix& want) {
  EXPECT_EQ(got.rows, want.rows);
  EXPECT_EQ(got.row_ptr, want.row_ptr);
  EXPECT_EQ(got.col_idx, want.col_idx);
  EXPECT_EQ(got.values, want.values);
}

TYPED_TEST(ParilutKernels, FindCandidatesEqualsRef) {
  for (bool threaded : {false, true}) {
    const CsrMatrix a = random_stencil(threaded, 3);
    const IluFactors f = grown_factors(a);
    const CsrMatrix want = kernels::ref::find_candidates(a, f);
    ASSERT_GT(want.nnz(), 0);
    expect_same_csr(TypeParam::find_candidates(a, f), want);
  }
}

TYPED_TEST(ParilutKernels, CandidateResidualsEqualRefBitwise) {
  for (bool threaded : {false, true}) {
    const CsrMatrix a = random_stencil(threaded, 5);
    IluFactors f = grown_factors(a);
    CsrMatrix want = kernels::ref::find_candidates(a, f);
    CsrMatrix got = want;
    kernels::ref::candidate_residuals(a, f, want);
    TypeParam::candidate_residuals(a, f, got);
    ASSERT_GT(test::max_abs(want.values), 0.0);
    EXPECT_EQ(got.values, want.values);
  }
}

#ifdef _OPENMP
// Sets the OpenMP thread count for one scope.
class ThreadCount {
 public:
  explicit ThreadCount(int n) : saved_(omp_get_max_threads()) { omp_set_num_threads(n); }
  ~ThreadCount() { omp_set_num_threads(saved_); }

 private:
  int saved_;
};
#endif

TYPED_TEST(ParilutKernels, SweepOnOneThreadEqualsRefBitwise) {
#ifdef _OPENMP
  const ThreadCount one(1);
#endif
  for (bool threaded : {false, true}) {
    const CsrMatrix a = random_stencil(threaded, 7);
    IluFactors want = grown_factors(a), got = want;
    for (int s = 0; s < 2; ++s) {
      kernels::ref::sweep(a, want);
      TypeParam::sweep(a, got);
    }
    EXPECT_EQ(got.l.values, want.l.values);
    EXPECT_EQ(got.u.values, want.u.values);
  }
}

// Threaded, the sweep's reads race with its writes (the paper's asynchronous
// iteration), so only its fixed point is fixed: after 40 sweeps it must match
// the one exact sequential sweep to 1e-10 relative, as test_parilut.cpp's
// ParallelSweepsConvergeToILU0 asks of ParILU.
TYPED_TEST(ParilutKernels, ThreadedSweepsReachRefsFixedPoint) {
#ifdef _OPENMP
  const ThreadCount two(std::max(2, omp_get_max_threads()));
#endif
  const CsrMatrix a = random_stencil(true, 9);
  IluFactors want = grown_factors(a), got = want;
  kernels::ref::sweep(a, want);
  for (int s = 0; s < 40; ++s) TypeParam::sweep(a, got);
  EXPECT_LT(test::max_abs_diff(got.l.values, want.l.values), 1e-10 * test::max_abs(want.l.values));
  EXPECT_LT(test::max_abs_diff(got.u.values, want.u.values), 1e-10 * test::max_abs(want.u.values));
}

TYPED_TEST(ParilutKernels, ClassifyEqualsRef) {
  for (std::size_t n : {std::size_t(1000), std::size_t(200'003)}) {
    const std::vector<double> v = test::magnitudes(n, 5000, unsigned(n));
    std::vector<double> sample;
    const SplitterTree tree = pick_splitters(v, sample);
    std::vector<std::uint8_t> want_oracles, got_oracles;
    const BucketCounts want = kernels::ref::classify(v, tree, want_oracles);
    EXPECT_EQ(TypeParam::classify(v, tree, got_oracles), want) << n;
    EXPECT_EQ(got_oracles, want_oracles) << n;
  }
}

// The dispatch runs the backend the selector names.
TEST(ParilutKernelDispatch, FollowsTheKernelSelector) {
  const CsrMatrix a = random_stencil(false, 11);
  const IluFactors f = grown_factors(a);
  expect_same_csr(kernels::find_candidates(Kernel::ref, a, f), kernels::ref::find_candidates(a, f));
  expect_same_csr(kernels::find_candidates(Kernel::omp, a, f), kernels::omp::find_candidates(a, f));
  IluFactors f_ref = f, f_disp = f;
  kernels::ref::sweep(a, f_ref);
  kernels::sweep(Kernel::ref, a, f_disp);
  EXPECT_EQ(f_disp.u.values, f_ref.u.values);
}

}  // namespace
}  // namespace tb::parilut
