#include "input_limit.hpp"

#include <charconv>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <string_view>

#include "error.hpp"

namespace tb {

std::uint64_t input_limit_bytes() {
  const char* text = std::getenv("TB_INPUT_LIMIT_MB");
  if (!text || !*text) return default_input_limit_mb << 20;
  const std::string_view v(text);
  std::uint64_t mb = 0;
  const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), mb);
  if (ec != std::errc() || end != v.data() + v.size() || mb == 0 || mb > (std::uint64_t(1) << 43))
    throw Error("TB_INPUT_LIMIT_MB: given '" + std::string(v) + "', allowed a positive integer (MiB) up to 2^43");
  return mb << 20;
}

std::string input_limit_excess(std::uint64_t bytes) {
  const std::uint64_t limit = input_limit_bytes();
  if (bytes <= limit) return {};
  const std::uint64_t need_mb = bytes / (1 << 20) + 1;
  return ", which would need " + std::to_string(need_mb) + " MiB, above the input limit of " +
         std::to_string(limit >> 20) + " MiB (raise it with TB_INPUT_LIMIT_MB=" + std::to_string(need_mb) + ")";
}

void check_input_file_size(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return;  // the reader says why it cannot read it
  const std::uintmax_t size = std::filesystem::file_size(path, ec);
  const std::string excess = ec ? std::string() : input_limit_excess(size);
  if (!excess.empty()) throw ParseError(path, 1, "the file has " + std::to_string(size) + " bytes" + excess);
}

std::uint64_t storage_bytes(std::uint64_t count, std::uint64_t per_item, std::uint64_t fixed) {
  constexpr std::uint64_t most = std::numeric_limits<std::uint64_t>::max();
  if (per_item != 0 && count > (most - fixed) / per_item) return most;
  return count * per_item + fixed;
}

}  // namespace tb
