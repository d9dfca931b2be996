#pragma once
// One exception type for every refused input or failed operation, so drivers can
// print a single clear message and exit non-zero instead of crashing.
#include <stdexcept>
#include <string>
#include <string_view>

namespace tb {

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A solver asked for what it cannot do: a system of a shape, block size or
// grid it does not take, a backend it has no kernels for, an option its
// library refuses. Bad input (a driver refuses it before solving, exit 2),
// unlike a solver that fails on a system it does take (a zero pivot).
class Unsupported : public Error {
 public:
  using Error::Error;
};

// Input that is malformed at a known place: "file:line: message".
class ParseError : public Error {
 public:
  ParseError(const std::string& file, long line, const std::string& what)
      : Error(file + ":" + std::to_string(line) + ": " + what), file_(file), line_(line) {}
  const std::string& file() const { return file_; }
  long line() const { return line_; }

 private:
  std::string file_;
  long line_;
};

// A value as a message shows it: cut to its first 60 characters and its
// length when longer than 100, so that a message never echoes a 50 MB value
// whole; quoted_value() puts it in double quotes, "" when empty, so that an empty
// value never shows as nothing.
inline std::string cut_value(std::string_view value) {
  if (value.size() <= 100) return std::string(value);
  std::string out(value.substr(0, 60));
  out.append("... (").append(std::to_string(value.size())).append(" characters)");
  return out;
}
inline std::string quoted_value(std::string_view value) {
  std::string out(1, '"');
  if (value.size() <= 100) return out.append(value).append(1, '"');
  out.append(value.substr(0, 60)).append("...\" (").append(std::to_string(value.size())).append(" characters)");
  return out;
}

// A whole message bounded alike (its head and its tail kept), for the last
// line a program prints: whatever value a message quotes, it stays readable.
inline std::string bounded_message(std::string_view message) {
  constexpr std::size_t head = 2000, tail = 500;
  if (message.size() <= head + tail + 100) return std::string(message);
  std::string out(message.substr(0, head));
  out.append(" [... ").append(std::to_string(message.size() - head - tail)).append(" characters left out ...] ");
  return out.append(message.substr(message.size() - tail));
}

}  // namespace tb

#define TB_REQUIRE(cond, msg)            \
  do {                                   \
    if (!(cond)) throw ::tb::Error(msg); \
  } while (0)
