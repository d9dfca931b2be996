#include "machine.hpp"

#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <string>
#include <thread>

#include "git_commit.hpp"
#include "solvers/core/backend.hpp"

#ifndef TB_BUILD_TYPE
#define TB_BUILD_TYPE "unknown"
#endif

namespace tb {

namespace {

std::string cpu_model() {
  std::ifstream f("/proc/cpuinfo");
  for (std::string line; std::getline(f, line);) {
    if (line.rfind("model name", 0) != 0) continue;
    const auto colon = line.find(':');
    if (colon == std::string::npos) break;
    const auto start = line.find_first_not_of(' ', colon + 1);
    return start == std::string::npos ? std::string() : line.substr(start);
  }
  return "unknown";
}

std::string hostname() {
  char buf[256] = {};
  if (gethostname(buf, sizeof buf - 1) != 0) return "unknown";
  return buf;
}

double load_average() {
  std::ifstream f("/proc/loadavg");
  double load = -1.0;
  f >> load;
  return f ? load : -1.0;
}

std::string now_utc() {
  const std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

}  // namespace

Machine describe_machine() {
  Machine m;
  m.hostname = hostname();
  m.cpu_model = cpu_model();
  m.logical_cpus = int(std::thread::hardware_concurrency());
  m.host_threads = host_threads();
  m.gpu = cuda_unavailable_reason().empty() ? cuda_device_name() : std::string();
  m.date_utc = now_utc();
  m.load_average = load_average();
  m.git_commit = TB_GIT_COMMIT;
  m.compiler = __VERSION__;
  m.build_type = TB_BUILD_TYPE;
  m.cuda_compiled = cuda_compiled();
  return m;
}

void write(JsonWriter& json, const Machine& m) {
  json.begin_object("machine")
      .value("hostname", m.hostname)
      .value("cpu_model", m.cpu_model)
      .value("logical_cpus", m.logical_cpus)
      .value("host_threads", m.host_threads);
  if (m.gpu.empty())
    json.null("gpu");
  else
    json.value("gpu", m.gpu);
  json.value("cuda_compiled", m.cuda_compiled)
      .value("date_utc", m.date_utc)
      .value("load_average_1min", m.load_average)
      .value("git_commit", m.git_commit)
      .value("compiler", m.compiler)
      .value("build_type", m.build_type)
      .end_object();
}

std::string summary(const Machine& m) {
  std::string s = "host   " + m.hostname + ", " + m.cpu_model + ", " + std::to_string(m.host_threads) +
                  " OpenMP threads of " + std::to_string(m.logical_cpus) + " logical CPUs\n";
  s += "gpu    " + (m.gpu.empty() ? "none (" + cuda_unavailable_reason() + ")" : m.gpu) + "\n";
  char load[32];
  std::snprintf(load, sizeof load, "%.2f", m.load_average);
  s += "load   " + std::string(load) + " (1-minute average at start)\n";
  s += "build  " + m.git_commit + ", " + m.build_type + ", " + m.compiler + ", " + m.date_utc + "\n";
  return s;
}

ProcessMemory process_memory() {
  ProcessMemory m{std::nan(""), std::nan("")};
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    long kib = 0;
    if (std::sscanf(line.c_str(), "VmRSS: %ld kB", &kib) == 1) m.rss_mib = double(kib) / 1024.0;
    if (std::sscanf(line.c_str(), "VmHWM: %ld kB", &kib) == 1) m.peak_rss_mib = double(kib) / 1024.0;
  }
  return m;
}

}  // namespace tb
