#pragma once
// A CSV table that grows by one row per time step. Each row is flushed as soon
// as it is written, so a killed run keeps every finished step; a row or a
// close that fails (a full disk) throws OutputFailure naming the table.
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace tb::harness {

class StepTable {
 public:
  // Opens path; with 'resume' the rows of steps after 'last_step' are dropped
  // (they came after the checkpoint being resumed) and new rows are appended.
  StepTable(std::string path, bool resume, long last_step);
  ~StepTable();
  StepTable(const StepTable&) = delete;
  StepTable& operator=(const StepTable&) = delete;

  // The header is written with the first row; later rows must match it.
  void write(const std::vector<std::string>& header, const std::vector<std::string>& row);
  // Closes the file, checking that its last rows reached it (the destructor closes unchecked).
  void close();
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  std::FILE* file_ = nullptr;
  bool has_header_ = false;
};

std::string csv_field(const std::string& s);
std::string format_number(double v);
// v in 16 hexadecimal digits: how steps.csv and the checkpoints' messages write checksums and digests.
std::string format_hex(std::uint64_t v);

}  // namespace tb::harness
