#pragma once
// One exception type for every refused input or failed operation, so drivers can
// print a single clear message and exit non-zero instead of crashing.
#include <stdexcept>
#include <string>

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

}  // namespace tb

#define TB_REQUIRE(cond, msg)            \
  do {                                   \
    if (!(cond)) throw ::tb::Error(msg); \
  } while (0)
