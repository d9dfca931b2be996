#pragma once
// The one threading policy of the host kernels and of every tool (docs/threading.md).
//
// Three rules keep OpenMP from collapsing when the cores are shared:
//  1. Waits sleep instead of spinning: every executable linking tb_core sets
//     OMP_WAIT_POLICY=passive unless the user set it, before main()
//     (process_environment.hpp). A spinning barrier burns the time slice that
//     the thread it waits for needs, whenever another process holds a core.
//  2. The team fits the idle cores: adapt_to_load() sets the thread budget to the
//     cores this process may run on, less the other runnable tasks, split among
//     the MPI ranks on the node. The harness calls it once per time step and
//     tb-solve before each solve; OMP_NUM_THREADS, when the user sets it, wins.
//  3. No region for less work than a fork costs: each kernel asks
//     threads_for(work, grain), which is 1 below the kernel's measured grain.
// Reductions (ordered_sum.hpp) add in an order fixed by the length alone, so the
// budget may change between steps without changing a single bit of a result.
#include <string>

namespace tb::threading {

// Sleeping waits cost a wake-up, about the time of a dot product of this
// length: regions must carry at least this many streamed doubles per thread to
// pay for one (docs/threading.md).
inline constexpr long stream_grain = 65536;

// Threads this process may use now (1 without OpenMP).
int budget();

// Threads for a region of `work` units, each thread needing at least `grain`
// of them: 1 when work < 2 grain, never more than budget().
int threads_for(long work, long grain);

// Re-reads the load and sets budget() (and OpenMP's default team size). Cheap
// (one read of /proc/loadavg); does nothing when the user fixed the count.
void adapt_to_load();

// Fixes the budget at n threads for the rest of the process, as OMP_NUM_THREADS
// would (benchmarks that sweep thread counts, tests); adapt_to_load() then keeps it.
void fix_threads(int n);

// MPI ranks of this job on this node (Open MPI and MPICH/Hydra say so in the
// environment before MPI_Init), 1 outside MPI.
int ranks_on_node();

// The policy in force, for the options a program prints and for summaries:
// "passive waits (set by the program), 1 to 2 threads, the idle cores of 2
// shared by 1 rank(s) on this node, followed as the load changes"; the same
// text whenever it is asked (the counts a run used are the run's to report).
std::string describe();

// The budget for `cpus` usable cores, `others` other runnable tasks and `ranks`
// MPI ranks sharing the node: what adapt_to_load() applies, exposed for tests.
int budget_for(int cpus, int others, int ranks);

}  // namespace tb::threading
