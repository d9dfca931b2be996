#pragma once
// A ParaView time series (.pvd): the (time, file) entries written so far. The
// entries travel in checkpoints, so the .pvd of a restarted run lists the files
// of the whole run, not only those after the restart.
#include <filesystem>
#include <iosfwd>
#include <string>
#include <utility>
#include <vector>

namespace tb::harness {

class PvdSeries {
 public:
  // Adds `file` (relative to the .pvd) at `time` unless it is already the last
  // entry, then rewrites `pvd` whole (atomically).
  void add_and_write(const std::filesystem::path& pvd, double time, const std::string& file);
  // The entry alone: a decomposed run's ranks other than 0 keep the list (it is
  // in their checkpoints too) and leave the file to rank 0.
  void add(double time, const std::string& file);
  std::string text() const;
  // Checkpoint form; load throws tb::Error on a truncated or implausible list.
  void save(std::ostream& out) const;
  void load(std::istream& in);
  const std::vector<std::pair<double, std::string>>& entries() const { return entries_; }

 private:
  std::vector<std::pair<double, std::string>> entries_;
};

}  // namespace tb::harness
