#pragma once
// What every fuzz target shares: the input written to a file (the readers take
// paths, as users give them), and the rule that a refusal is a tb::Error while
// anything else escaping a reader (std::out_of_range, std::length_error,
// bad_alloc, a crash) is a finding.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>
#include <string_view>

namespace tb::fuzz {

// A file of this process under $TMPDIR (default /tmp) holding the input.
inline std::string input_file(const std::uint8_t* data, std::size_t size, const std::string& extension) {
  const char* dir = std::getenv("TMPDIR");
  const std::string path =
      std::string(dir && *dir ? dir : "/tmp") + "/tb-fuzz-" + std::to_string(::getpid()) + extension;
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(data), std::streamsize(size));
  return path;
}

inline std::string_view as_text(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

}  // namespace tb::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);
