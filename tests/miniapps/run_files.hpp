#pragma once
// What the miniapp and harness tests read and write around a run: a fresh
// output directory, the settings of a quiet run into it, and the step tables
// (CSV) a run leaves there.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "miniapps/common/time_loop.hpp"

namespace tb::test {

// An empty directory under the system's temporary one, unique to this process.
inline std::filesystem::path fresh_dir(const std::string& app, const std::string& name) {
  const std::filesystem::path d =
      std::filesystem::temp_directory_path() / (app + "-" + name + "-" + std::to_string(::getpid()));
  std::filesystem::remove_all(d);
  return d;
}

// A run of `steps` steps into `out` with no progress line, one solver
// specification per linear system.
inline harness::LoopSettings quiet_settings(const std::string& app, const std::filesystem::path& out, long steps,
                                            std::map<std::string, std::string> specs) {
  harness::LoopSettings s;
  s.app = app;
  s.out_dir = out;
  s.steps = steps;
  s.progress = false;
  s.driver_specs = std::move(specs);
  return s;
}

// The rows of a CSV file, each split at its commas outside double quotes (a
// step table quotes a solver specification, whose parameters hold commas; ""
// inside quotes is one quote).
inline std::vector<std::vector<std::string>> read_csv(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::vector<std::vector<std::string>> rows;
  std::string line;
  while (std::getline(in, line)) {
    std::vector<std::string> cells(1);
    bool quoted = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
      const char c = line[i];
      if (c == '"' && quoted && i + 1 < line.size() && line[i + 1] == '"') {
        cells.back() += '"', ++i;
      } else if (c == '"') {
        quoted = !quoted;
      } else if (c == ',' && !quoted) {
        cells.emplace_back();
      } else {
        cells.back() += c;
      }
    }
    rows.push_back(cells);
  }
  return rows;
}

}  // namespace tb::test
