#pragma once
// Where and from what a benchmark result came: written at the top of every
// result file so that figures are never separated from their machine.
#include <string>

#include "json_writer.hpp"

namespace tb {

struct Machine {
  std::string hostname;
  std::string cpu_model;     // "model name" of /proc/cpuinfo
  int logical_cpus = 0;      // std::thread::hardware_concurrency
  int host_threads = 0;      // OpenMP threads the kernels use
  std::string gpu;           // empty without a usable CUDA device
  std::string date_utc;      // ISO 8601
  double load_average = -1;  // 1-minute load at start (/proc/loadavg): above the core count, figures are disturbed
  std::string git_commit;    // at build time, "-dirty" when the tree had changes
  std::string compiler;
  std::string build_type;
  bool cuda_compiled = false;
};

Machine describe_machine();
void write(JsonWriter& json, const Machine& m);
// A few lines for the top of the stdout report.
std::string summary(const Machine& m);

// This process's resident memory now and its peak so far (VmRSS, VmHWM of
// /proc/self/status), MiB; NaN where the system does not say.
struct ProcessMemory {
  double rss_mib;
  double peak_rss_mib;
};
ProcessMemory process_memory();

}  // namespace tb
