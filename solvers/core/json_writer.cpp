#include "json_writer.hpp"

#include "solvers/core/atomic_file.hpp"
#include "solvers/core/error.hpp"
#include "solvers/core/json.hpp"

namespace tb {

void JsonWriter::start_item(std::string_view key) {
  if (!has_items_.empty()) {
    if (has_items_.back()) out_ += ',';
    has_items_.back() = true;
    out_ += '\n';
    out_.append(2 * has_items_.size(), ' ');
  }
  if (!key.empty()) out_ += json::quote(key) + ": ";
}

void JsonWriter::open(std::string_view key, char bracket) {
  start_item(key);
  out_ += bracket;
  has_items_.push_back(false);
}

void JsonWriter::close(char bracket) {
  if (has_items_.empty()) throw Error("JsonWriter: closing more containers than were opened");
  const bool had_items = has_items_.back();
  has_items_.pop_back();
  if (had_items) {
    out_ += '\n';
    out_.append(2 * has_items_.size(), ' ');
  }
  out_ += bracket;
  if (has_items_.empty()) out_ += '\n';
}

JsonWriter& JsonWriter::begin_object(std::string_view key) { return open(key, '{'), *this; }
JsonWriter& JsonWriter::end_object() { return close('}'), *this; }
JsonWriter& JsonWriter::begin_array(std::string_view key) { return open(key, '['), *this; }
JsonWriter& JsonWriter::end_array() { return close(']'), *this; }

JsonWriter& JsonWriter::value(std::string_view key, double v) {
  start_item(key);
  out_ += json::number(v);
  return *this;
}

JsonWriter& JsonWriter::value(std::string_view key, long long v) {
  start_item(key);
  out_ += std::to_string(v);
  return *this;
}

JsonWriter& JsonWriter::value(std::string_view key, bool v) {
  start_item(key);
  out_ += v ? "true" : "false";
  return *this;
}

JsonWriter& JsonWriter::value(std::string_view key, std::string_view v) {
  start_item(key);
  out_ += json::quote(v);
  return *this;
}

JsonWriter& JsonWriter::null(std::string_view key) {
  start_item(key);
  out_ += "null";
  return *this;
}

void JsonWriter::save(const std::string& path) const {
  if (!has_items_.empty()) throw Error("JsonWriter: " + path + " would be written with unclosed containers");
  write_file_atomically(path, out_);
}

}  // namespace tb
