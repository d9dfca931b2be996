// Fuzz target: the checkpoint reader (parse_checkpoint). Each input is parsed
// twice: as it is, and repaired so that it passes the checks no mutation
// survives — the program version set to this build's commit and the checksum
// recomputed — so that libFuzzer also reaches the payload behind them. Either
// way it restores a state or refuses with a tb::Error naming the file.
#include "miniapps/common/checkpoint.hpp"

#include <cstring>

#include "fuzz_input.hpp"
#include "solvers/core/build_commit.hpp"
#include "solvers/core/error.hpp"
#define XXH_INLINE_ALL  // header-only, as in checkpoint.cpp
#include <xxhash.h>

namespace {

constexpr std::string_view magic = "tb-checkpoint 4\n";  // the layout of checkpoint.hpp, format 4

// The input with the version string replaced and the checksum recomputed, or
// "" when it is too short to hold the app name and the version length.
std::string repaired(std::string_view bytes) {
  if (bytes.size() < magic.size() + 8 + 8) return {};
  std::string out(magic);
  std::string_view rest = bytes.substr(magic.size());
  std::uint64_t n = 0;
  std::memcpy(&n, rest.data(), 8);
  if (n > rest.size() - 8) return {};
  out.append(rest.substr(0, 8 + n));  // the app name
  rest.remove_prefix(8 + n);
  if (rest.size() < 8) return {};
  std::memcpy(&n, rest.data(), 8);
  if (n > rest.size() - 8) return {};
  rest.remove_prefix(8 + n);  // the old version
  const std::string version = tb::build_commit();
  const std::uint64_t length = version.size();
  out.append(reinterpret_cast<const char*>(&length), 8);
  out.append(version);
  out.append(rest.substr(0, rest.size() >= 8 ? rest.size() - 8 : 0));  // the payload without its checksum
  const std::uint64_t sum = XXH3_64bits(out.data(), out.size());
  out.append(reinterpret_cast<const char*>(&sum), 8);
  return out;
}

void parse(std::string_view bytes) {
  try {
    tb::harness::CheckpointHeader header;
    (void)tb::harness::parse_checkpoint(bytes, "fuzz.checkpoint", "tb-incomp", header);
  } catch (const tb::Error&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes = tb::fuzz::as_text(data, size);
  parse(bytes);
  if (const std::string fixed = repaired(bytes); !fixed.empty()) parse(fixed);
  return 0;
}
