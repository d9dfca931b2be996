#include "step_table.hpp"

#include <cmath>
#include <fstream>
#include <sstream>

#include "solvers/core/atomic_file.hpp"
#include "solvers/core/error.hpp"

namespace tb::harness {

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string out(1, '"');
  for (char c : s) {
    out.push_back(c);
    if (c == '"') out.push_back('"');
  }
  out.push_back('"');
  return out;
}

std::string format_number(double v) {
  if (std::isnan(v)) return "";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.10g", v);
  return buf;
}

std::string format_hex(std::uint64_t v) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
  return buf;
}

StepTable::StepTable(std::string path, bool resume, long last_step) : path_(std::move(path)) {
  if (resume) {
    // Keep the header and the rows up to the checkpoint's step.
    std::ifstream in(path_);
    std::ostringstream kept;
    std::string line;
    bool first = true;
    while (std::getline(in, line)) {
      if (first || std::stol(line.substr(0, line.find(','))) <= last_step) kept << line << "\n";
      has_header_ = has_header_ || first;
      first = false;
    }
    write_file_atomically(path_, kept.str());
  }
  file_ = std::fopen(path_.c_str(), resume ? "a" : "w");
  if (!file_) throw Error(path_ + ": cannot open for writing");
}

StepTable::~StepTable() {
  if (file_) std::fclose(file_);
}

void StepTable::write(const std::vector<std::string>& header, const std::vector<std::string>& row) {
  auto line = [](const std::vector<std::string>& v) {
    std::string s;
    for (std::size_t i = 0; i < v.size(); ++i) {
      if (i) s.push_back(',');
      s += csv_field(v[i]);
    }
    s.push_back('\n');
    return s;
  };
  if (!has_header_) {
    std::fputs(line(header).c_str(), file_);
    has_header_ = true;
  }
  std::fputs(line(row).c_str(), file_);
  std::fflush(file_);
}

}  // namespace tb::harness
