#include "mesh/io/text_reader.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>

#include "solvers/core/error.hpp"
#include "solvers/core/input_limit.hpp"

namespace tb {

TextReader::TextReader(const std::string& path, char comment) : path_(path), comment_(comment) {
  text_ = read_input_file(path, "mesh file", InputContent::text);
}

bool TextReader::next_line() {
  while (pos_ < text_.size()) {
    std::size_t end = text_.find('\n', pos_);
    if (end == std::string::npos) end = text_.size();
    std::string_view line(text_.data() + pos_, end - pos_);
    pos_ = end + 1;
    ++line_;
    if (comment_ != 0) line = line.substr(0, line.find(comment_));
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    tokens_.clear();
    std::size_t i = 0;
    while (i < line.size()) {
      while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) ++i;
      std::size_t j = i;
      while (j < line.size() && line[j] != ' ' && line[j] != '\t' && line[j] != '\r') ++j;
      if (j > i) tokens_.push_back(line.substr(i, j - i));
      i = j;
    }
    if (!tokens_.empty()) {
      raw_ = line;
      return true;
    }
  }
  tokens_.clear();
  raw_ = {};
  return false;
}

void TextReader::require_line(const std::string& what) {
  if (!next_line()) fail("unexpected end of file while reading " + what);
}

void TextReader::expect_tokens(std::size_t min, std::size_t max, const std::string& what) const {
  const std::size_t n = tokens_.size();
  if (n >= min && n <= max) return;
  std::string expected = min == max ? std::to_string(min)
                         : max == std::numeric_limits<std::size_t>::max()
                             ? "at least " + std::to_string(min)
                             : std::to_string(min) + " to " + std::to_string(max);
  fail(what + ": expected " + expected + " values, found " + std::to_string(n));
}

void TextReader::fail(const std::string& what) const { throw ParseError(path_, line_, what); }

long long TextReader::to_integer(std::string_view token, const std::string& what) const {
  long long value = 0;
  auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
  if (ec != std::errc() || end != token.data() + token.size())
    fail(what + ": '" + std::string(token) + "' is not an integer");
  return value;
}

int TextReader::to_int(std::string_view token, const std::string& what) const {
  const long long value = to_integer(token, what);
  if (value < std::numeric_limits<int>::min() || value > std::numeric_limits<int>::max())
    fail(what + ": " + std::string(token) + " is out of range");
  return static_cast<int>(value);
}

long long TextReader::count(std::size_t i, const std::string& what) const {
  const long long n = to_integer(tokens_.at(i), what);
  if (n < 0) fail(what + ": " + std::to_string(n) + " is negative");
  return n;
}

std::size_t TextReader::affordable(long long n, std::size_t min_bytes) const {
  // The last item may lack its newline, hence the + 1.
  const std::size_t room = (remaining_bytes() + 1) / min_bytes;
  return n < 0 ? 0 : std::min(static_cast<std::size_t>(n), room);
}

index_t TextReader::to_index(std::string_view token, const std::string& what) const {
  const long long value = to_integer(token, what);
  if (value < 0 || value > std::numeric_limits<index_t>::max())
    fail(what + ": " + std::string(token) + " is out of range");
  return static_cast<index_t>(value);
}

double TextReader::to_double(std::string_view token, const std::string& what) const {
  double value = 0.0;
  auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
  if (ec != std::errc() || end != token.data() + token.size())
    fail(what + ": '" + std::string(token) + "' is not a number");
  if (!std::isfinite(value)) fail(what + ": '" + std::string(token) + "' is not a finite number");
  return value;
}

}  // namespace tb
