#include "step_table.hpp"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "output_failure.hpp"
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
      long step = 0;
      const auto comma = line.find(',');
      const auto [p, ec] = std::from_chars(line.data(), line.data() + std::min(comma, line.size()), step);
      if (first || (ec == std::errc() && step <= last_step)) kept << line << "\n";
      has_header_ = has_header_ || first;
      first = false;
    }
    write_file_atomically(path_, kept.str());
  } else {
    // A link in the table's place is removed, not written through: its
    // target is no file of this run's.
    std::error_code ec;
    if (std::filesystem::is_symlink(std::filesystem::symlink_status(path_, ec))) std::filesystem::remove(path_, ec);
  }
  file_ = std::fopen(path_.c_str(), resume ? "a" : "w");
  if (!file_) throw OutputFailure(path_ + ": cannot open for writing: " + std::strerror(errno));
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
  std::string text = has_header_ ? std::string() : line(header);
  text += line(row);
  // Each row reaches the file now (a killed run keeps it), or the run stops naming the table.
  if (std::fwrite(text.data(), 1, text.size(), file_) != text.size() || std::fflush(file_) != 0)
    throw OutputFailure(path_ + ": cannot write the step's row: " + std::strerror(errno));
  has_header_ = true;
}

void StepTable::close() {
  if (!file_) return;
  const bool ok = std::fclose(file_) == 0;
  file_ = nullptr;
  if (!ok) throw OutputFailure(path_ + ": cannot close the table: " + std::strerror(errno));
}

}  // namespace tb::harness
