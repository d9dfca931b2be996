// Every test of this program runs with one OpenMP thread, as the miniapps'
// CTests do: CI runs two test programs at once on two cores, and oversubscribed
// OpenMP barriers spin (measured: the NACA0012 test took 290 s instead of 5 s
// beside another two-thread program).
#include <gtest/gtest.h>

#ifdef _OPENMP
#include <omp.h>
#endif

namespace {

class OneOpenMpThread : public ::testing::Environment {
 public:
  void SetUp() override {
#ifdef _OPENMP
    omp_set_num_threads(1);
#endif
  }
};

[[maybe_unused]] ::testing::Environment* const one_thread = ::testing::AddGlobalTestEnvironment(new OneOpenMpThread);

}  // namespace
