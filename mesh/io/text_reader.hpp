#pragma once
// Line-by-line reading of ASCII mesh files that keeps the line number, so every
// complaint about the input says file:line.
#include <string>
#include <string_view>
#include <vector>

#include "solvers/core/types.hpp"

namespace tb {

class TextReader {
 public:
  // `comment` starts a comment that runs to the end of the line (0: none).
  // Files past the input limit (solvers/core/input_limit.hpp) are refused
  // before they are read.
  explicit TextReader(const std::string& path, char comment = 0);

  // Advances to the next line that is not blank; false at the end of the file.
  bool next_line();
  // next_line() that fails with "unexpected end of file while reading <what>".
  void require_line(const std::string& what);

  const std::vector<std::string_view>& tokens() const { return tokens_; }
  std::string_view raw_line() const { return raw_; }
  long line_number() const { return line_; }
  const std::string& path() const { return path_; }

  // Fails unless the current line has between min and max tokens.
  void expect_tokens(std::size_t min, std::size_t max, const std::string& what) const;

  [[noreturn]] void fail(const std::string& what) const;
  long long to_integer(std::string_view token, const std::string& what) const;
  // An integer that must fit an int (element types, physical and entity tags).
  int to_int(std::string_view token, const std::string& what) const;
  index_t to_index(std::string_view token, const std::string& what) const;
  // The count in token i of the current line; fails when it is negative.
  long long count(std::size_t i, const std::string& what) const;
  // What a reader may reserve for `n` declared items of at least `min_bytes`
  // each: no more than the bytes after this line can hold. A count is never
  // trusted beyond that; a file that declares more than it holds fails where
  // it runs out, naming the line and how many items came.
  std::size_t affordable(long long n, std::size_t min_bytes) const;
  // Bytes after the current line.
  std::size_t remaining_bytes() const { return pos_ < text_.size() ? text_.size() - pos_ : 0; }
  double to_double(std::string_view token, const std::string& what) const;
  long long integer(std::size_t i, const std::string& what) const { return to_integer(tokens_.at(i), what); }
  double real(std::size_t i, const std::string& what) const { return to_double(tokens_.at(i), what); }

 private:
  std::string path_;
  std::string text_;
  std::size_t pos_ = 0;
  long line_ = 0;
  char comment_;
  std::string_view raw_;
  std::vector<std::string_view> tokens_;
};

}  // namespace tb
