#pragma once
// Sets the OpenMP thread count for the scope of a test and restores it; a
// build without OpenMP runs everything on one thread and the guard is a no-op.
#ifdef _OPENMP
#include <omp.h>
#endif

namespace tb::test {

class ThreadCount {
 public:
  explicit ThreadCount(int n) {
#ifdef _OPENMP
    saved_ = omp_get_max_threads();
    omp_set_num_threads(n);
#else
    (void)n;
#endif
  }
  ~ThreadCount() {
#ifdef _OPENMP
    omp_set_num_threads(saved_);
#endif
  }
  ThreadCount(const ThreadCount&) = delete;
  ThreadCount& operator=(const ThreadCount&) = delete;

 private:
  int saved_ = 1;
};

}  // namespace tb::test
