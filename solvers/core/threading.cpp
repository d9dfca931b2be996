#include "threading.hpp"

#include <dirent.h>
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "process_environment.hpp"

#ifdef _OPENMP
#include <omp.h>
#endif

namespace tb::threading {

namespace {

int usable_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0) return std::max(1, CPU_COUNT(&set));
  const long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n > 0 ? int(n) : 1;
}

std::atomic<bool> fixed_by_program{false};

// An empty OMP_NUM_THREADS is unset for libgomp, and so here.
bool user_fixed_count() {
  const char* n = std::getenv("OMP_NUM_THREADS");
  return fixed_by_program.load() || (n && *n);
}

// Tasks the kernel counts as runnable (/proc/loadavg's fourth field counts the
// reader itself), or -1 when unknown.
int runnable_tasks() {
  FILE* f = std::fopen("/proc/loadavg", "r");
  if (!f) return -1;
  double l1, l5, l15;
  int running = -1, total = 0;
  if (std::fscanf(f, "%lf %lf %lf %d/%d", &l1, &l5, &l15, &running, &total) != 5) running = -1;
  std::fclose(f);
  return running;
}

// This process's threads other than the caller that are running now: with a
// wait policy that spins they count in /proc/loadavg and are not competitors.
int own_running_threads() {
  DIR* d = opendir("/proc/self/task");
  if (!d) return 0;
  const long self = long(gettid());
  int running = 0;
  while (const dirent* e = readdir(d)) {
    if (e->d_name[0] == '.' || std::atol(e->d_name) == self) continue;
    const std::string path = std::string("/proc/self/task/") + e->d_name + "/stat";
    FILE* f = std::fopen(path.c_str(), "r");
    if (!f) continue;
    char buf[256] = {};
    const std::size_t got = std::fread(buf, 1, sizeof buf - 1, f);
    std::fclose(f);
    // "pid (comm) S ...": the state follows the last ')'.
    const char* close = std::strrchr(buf, ')');
    if (got > 0 && close && close[1] == ' ' && close[2] == 'R') ++running;
  }
  closedir(d);
  return running;
}

struct State {
  std::atomic<int> budget{0};  // 0: not yet decided
  std::atomic<int> others{0};
  std::array<int, 3> recent{};  // the last samples of other runnable tasks
  int samples = 0;
  std::chrono::steady_clock::time_point last{};
};

State& state() {
  static State s;
  return s;
}

void apply(int threads) {
  state().budget.store(threads, std::memory_order_relaxed);
#ifdef _OPENMP
  omp_set_num_threads(threads);
#endif
}

int openmp_threads() {
#ifdef _OPENMP
  return omp_get_max_threads();
#else
  return 1;
#endif
}

}  // namespace

int budget_for(int cpus, int others, int ranks) {
  const int per_rank = std::max(1, cpus / std::max(1, ranks));
  return std::clamp(per_rank - std::max(0, others) / std::max(1, ranks), 1, per_rank);
}

void adapt_to_load() {
  State& s = state();
  if (user_fixed_count()) {
    if (s.budget.load(std::memory_order_relaxed) == 0) s.budget.store(openmp_threads());
    return;
  }
  // Samples at most every 50 ms: a step of a few milliseconds pays nothing.
  const auto now = std::chrono::steady_clock::now();
  if (s.samples > 0 && now - s.last < std::chrono::milliseconds(50)) return;
  s.last = now;
  const int runnable = runnable_tasks();
  if (runnable < 0) {
    if (s.budget.load() == 0) apply(budget_for(usable_cpus(), 0, ranks_on_node()));
    return;
  }
  const int others = std::max(0, runnable - 1 - own_running_threads());
  s.recent[std::size_t(s.samples % int(s.recent.size()))] = others;
  ++s.samples;
  // The fewest competitors of the recent samples: a busy process is runnable in
  // every sample, a short-lived one does not take a core away for long.
  const int n = std::min(s.samples, int(s.recent.size()));
  const int fewest = *std::min_element(s.recent.begin(), s.recent.begin() + n);
  s.others.store(fewest);
  const int b = budget_for(usable_cpus(), fewest, ranks_on_node());
  if (b != s.budget.load()) apply(b);
}

void fix_threads(int n) {
  fixed_by_program.store(true);
  apply(std::max(1, n));
}

int ranks_on_node() {
  for (const char* name : {"OMPI_COMM_WORLD_LOCAL_SIZE", "MPI_LOCALNRANKS", "PMI_LOCAL_SIZE"})
    if (const char* v = std::getenv(name); v && std::atoi(v) > 0) return std::atoi(v);
  return 1;
}

int budget() {
  if (state().budget.load(std::memory_order_relaxed) == 0) adapt_to_load();
  return state().budget.load(std::memory_order_relaxed);
}

int threads_for(long work, long grain) {
  if (grain <= 0 || work < 2 * grain) return 1;
  return int(std::min<long>(budget(), work / grain));
}

std::string describe() {
  const char* wait = std::getenv("OMP_WAIT_POLICY");
  std::string s = wait ? std::string(wait) + " waits" : std::string("libgomp's default (spinning) waits");
  s += process_environment::set_by_program("OMP_WAIT_POLICY") ? " (set by the program)"
                                                              : (wait ? " (set by the user)" : "");
  // The rule, not the count of the moment: the count follows the load, so a
  // count printed at start-up and one written at the end would disagree.
  if (user_fixed_count())
    s += ", " + std::to_string(budget()) + " threads" +
         (fixed_by_program.load() ? " (fixed by the program)" : " (OMP_NUM_THREADS)");
  else
    s += ", 1 to " + std::to_string(std::max(1, usable_cpus() / std::max(1, ranks_on_node()))) +
         " threads, the idle cores of " + std::to_string(usable_cpus()) + " shared by " +
         std::to_string(ranks_on_node()) + " rank(s) on this node, followed as the load changes";
  return s;
}

}  // namespace tb::threading
