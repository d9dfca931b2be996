#include "case_checks.hpp"

#include <unistd.h>

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>

#include "domain_sharing.hpp"
#include "solvers/core/error.hpp"
#include "solvers/core/threading.hpp"

namespace tb::harness {

namespace {

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}

std::string bytes_text(double b) {
  const char* units[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  int u = 0;
  while (b >= 1024.0 && u < 6) b /= 1024.0, ++u;
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.3g %s", b, units[u]);
  return buf;
}

double machine_memory_bytes() {
  std::ifstream in("/proc/meminfo");
  std::string name;
  double kib = 0.0;
  while (in >> name >> kib) {
    if (name == "MemTotal:") return kib * 1024.0;
    in.ignore(1 << 10, '\n');
  }
  const long pages = ::sysconf(_SC_PHYS_PAGES), size = ::sysconf(_SC_PAGESIZE);
  return pages > 0 && size > 0 ? double(pages) * double(size) : 0.0;
}

}  // namespace

void note_if_ignored(const CaseConfig& config, const std::string& key, bool used, const std::string& because,
                     CaseNotes& notes) {
  if (used || !config.differs_from_default(key)) return;
  notes.push_back(config.key_and_value(key) + " is ignored: it is " + because);
}

void require_magnitude(const CaseConfig& config, const std::string& key, const std::string& what, double value,
                       const std::vector<std::string>& with) {
  const double m = std::abs(value);
  if (m == 0.0 || (m >= least_magnitude && m <= largest_magnitude)) return;
  std::string others;
  for (const auto& k : with) others += (others.empty() ? "; with " : ", ") + config.key_and_value(k);
  throw config.refusal(key, "a value that keeps " + what + " (here " + number(value) + ") 0 or between " +
                                number(least_magnitude) + " and " + number(largest_magnitude) +
                                " in magnitude, where double precision squares and sums it without " +
                                (m > largest_magnitude ? "overflow" : "underflow") + others);
}

std::string keys_and_values(const CaseConfig& config, const std::vector<std::string>& keys, const std::string& sep) {
  std::string out;
  for (const auto& k : keys) out += (out.empty() ? "" : sep) + config.key_and_value(k);
  return out;
}

double run_memory_bytes() {
  if (const char* text = std::getenv("TB_MEMORY_LIMIT_MB"); text && *text) {
    const std::string_view v(text);
    long mb = 0;
    const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), mb);
    if (ec != std::errc() || end != v.data() + v.size() || mb <= 0)
      throw Error("TB_MEMORY_LIMIT_MB: given " + quoted_value(v) + ", allowed a positive integer (MiB)");
    return double(mb) * 1024.0 * 1024.0;
  }
  const double nodes = std::max(1.0, double(run_ranks()) / double(std::max(1, threading::ranks_on_node())));
  return machine_memory_bytes() * nodes;
}

void require_grid_fits(const CaseConfig& config, const std::string& key, const std::string& grid, double cells,
                       double max_cells, double bytes_per_cell, double fixed_bytes) {
  if (!(cells < max_cells))
    throw config.refusal(key, "a grid of fewer than " + number(max_cells) +
                                  " cells (32-bit indices of its unknowns): " + grid + " makes " + number(cells));
  const double need = cells * bytes_per_cell + fixed_bytes, have = run_memory_bytes();
  if (have > 0.0 && need > have)
    throw config.refusal(key, "a grid that fits in memory: " + grid + " makes " + number(cells) +
                                  " cells, which need about " + bytes_text(need) + " (" + bytes_text(bytes_per_cell) +
                                  " a cell, the miniapp's measured peak), above the " + bytes_text(have) + " of " +
                                  (std::getenv("TB_MEMORY_LIMIT_MB") ? "TB_MEMORY_LIMIT_MB" : "this machine's memory") +
                                  "; a coarser grid, or more nodes under mpiexec");
}

}  // namespace tb::harness
