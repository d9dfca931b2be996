#pragma once
// The command line shared by the benchmark programs: a walk over the flags,
// counts and comma-separated lists with errors that name the flag, the OpenMP
// thread count, and main's error handling.
#include <charconv>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "solvers/core/error.hpp"
#include "solvers/core/threading.hpp"

namespace tb::bench {

// for (ArgumentList args(argc, argv, usage); args.next();) { if (args.flag() == "--json") path = args.value(); ... }
// --help and -h print the usage and exit 0.
class ArgumentList {
 public:
  ArgumentList(int argc, char** argv, const char* usage) : argc_(argc), argv_(argv), usage_(usage) {}
  bool next() {
    if (++i_ >= argc_) return false;
    flag_ = argv_[i_];
    if (flag_ == "--help" || flag_ == "-h") {
      std::cout << usage_;
      std::exit(0);
    }
    return true;
  }
  const std::string& flag() const { return flag_; }
  std::string value() {
    if (i_ + 1 >= argc_) throw Error(flag_ + " needs a value");
    return argv_[++i_];
  }
  [[noreturn]] void reject() const { throw Error("unknown option '" + flag_ + "'\n" + usage_); }

 private:
  int argc_;
  char** argv_;
  const char* usage_;
  int i_ = 0;
  std::string flag_;
};

// A benchmark's main: tb::Error becomes "NAME: message" on stderr and exit status 2.
template <class Run>
int guarded_main(const char* name, int argc, char** argv, Run run) {
  try {
    return run(argc, argv);
  } catch (const Error& e) {
    std::cerr << name << ": " << e.what() << "\n";
    return 2;
  }
}

inline long long parse_count(const std::string& flag, const std::string& text, long long lo) {
  long long v = 0;
  const auto res = std::from_chars(text.data(), text.data() + text.size(), v);
  if (res.ec != std::errc() || res.ptr != text.data() + text.size() || v < lo)
    throw Error(flag + " needs an integer >= " + std::to_string(lo) + ", got '" + text + "'");
  return v;
}

inline double parse_real(const std::string& flag, const std::string& text, double lo) {
  double v = 0.0;
  const auto res = std::from_chars(text.data(), text.data() + text.size(), v);
  if (res.ec != std::errc() || res.ptr != text.data() + text.size() || !(v >= lo))
    throw Error(flag + " needs a number >= " + std::to_string(lo) + ", got '" + text + "'");
  return v;
}

// "1,4,5" -> {1, 4, 5}, each in lo..hi.
inline std::vector<long long> parse_count_list(const std::string& flag, const std::string& text, long long lo,
                                               long long hi) {
  std::vector<long long> out;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    const long long v = parse_count(flag, text.substr(start, comma - start), lo);
    if (v > hi) throw Error(flag + ": " + std::to_string(v) + " is above the largest allowed, " + std::to_string(hi));
    out.push_back(v);
    start = comma + 1;
  }
  return out;
}

inline void set_host_threads(int n) { threading::fix_threads(n); }

}  // namespace tb::bench
