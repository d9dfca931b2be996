#pragma once
// A streaming JSON writer for benchmark results: commas and indentation are
// handled here so that result files stay valid whatever a benchmark records.
// Scalars are spelled by tb::json (solvers/core/json.hpp) like every other
// report of the project.
#include <string>
#include <string_view>
#include <vector>

namespace tb {

class JsonWriter {
 public:
  // With a key inside an object, without one inside an array or at the top.
  JsonWriter& begin_object(std::string_view key = {});
  JsonWriter& end_object();
  JsonWriter& begin_array(std::string_view key = {});
  JsonWriter& end_array();

  JsonWriter& value(std::string_view key, double v);  // 9 significant digits; NaN and infinities become null
  JsonWriter& value(std::string_view key, long long v);
  JsonWriter& value(std::string_view key, int v) { return value(key, (long long)v); }
  JsonWriter& value(std::string_view key, bool v);
  JsonWriter& value(std::string_view key, std::string_view v);
  JsonWriter& value(std::string_view key, const char* v) { return value(key, std::string_view(v)); }
  JsonWriter& null(std::string_view key);

  const std::string& text() const { return out_; }
  // Writes text() to a file whole or not at all; tb::Error when it cannot.
  void save(const std::string& path) const;

 private:
  void start_item(std::string_view key);
  void open(std::string_view key, char bracket);
  void close(char bracket);

  std::string out_;
  std::vector<bool> has_items_;  // per open container
};

}  // namespace tb
