#include "pvd_series.hpp"

#include <cstdio>
#include <istream>
#include <ostream>

#include "solvers/core/atomic_file.hpp"
#include "solvers/core/error.hpp"

namespace tb::harness {

void PvdSeries::add(double time, const std::string& file) {
  if (entries_.empty() || entries_.back().second != file) entries_.emplace_back(time, file);
}

void PvdSeries::add_and_write(const std::filesystem::path& pvd, double time, const std::string& file) {
  add(time, file);
  write_file_atomically(pvd.string(), text());
}

std::string PvdSeries::text() const {
  std::string s = "<?xml version=\"1.0\"?>\n<VTKFile type=\"Collection\" version=\"0.1\">\n  <Collection>\n";
  char buf[64];
  for (const auto& [time, file] : entries_) {
    std::snprintf(buf, sizeof buf, "%.17g", time);
    s += "    <DataSet timestep=\"" + std::string(buf) + "\" part=\"0\" file=\"" + file + "\"/>\n";
  }
  return s + "  </Collection>\n</VTKFile>\n";
}

void PvdSeries::save(std::ostream& out) const {
  const std::size_t count = entries_.size();
  out.write(reinterpret_cast<const char*>(&count), sizeof count);
  for (const auto& [time, file] : entries_) {
    const std::size_t len = file.size();
    out.write(reinterpret_cast<const char*>(&time), sizeof time);
    out.write(reinterpret_cast<const char*>(&len), sizeof len);
    out.write(file.data(), std::streamsize(len));
  }
}

void PvdSeries::load(std::istream& in) {
  std::size_t count = 0;
  in.read(reinterpret_cast<char*>(&count), sizeof count);
  if (!in || count > 1000000) throw Error("checkpoint: output list truncated");
  entries_.resize(count);
  for (auto& [time, file] : entries_) {
    std::size_t len = 0;
    in.read(reinterpret_cast<char*>(&time), sizeof time);
    in.read(reinterpret_cast<char*>(&len), sizeof len);
    if (!in || len > 4096) throw Error("checkpoint: output list truncated");
    file.resize(len);
    in.read(file.data(), std::streamsize(len));
  }
  if (!in) throw Error("checkpoint: output list truncated");
}

}  // namespace tb::harness
