#include "input_limit.hpp"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <limits>
#include <memory>
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

std::string read_input_file(const std::string& path, const std::string& what, InputContent content) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw Error("cannot read " + what + " '" + path + "': it is a folder, not a file");
  check_input_file_size(path);
  const std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path.c_str(), "rb"), &std::fclose);
  if (!file) throw Error("cannot open " + what + " '" + path + "': " + std::strerror(errno));
  const std::uint64_t limit = input_limit_bytes();
  std::string text;
  char piece[1 << 16];
  std::size_t n;
  while ((n = std::fread(piece, 1, sizeof piece, file.get())) > 0) {
    const char* nul = content == InputContent::text ? static_cast<const char*>(std::memchr(piece, 0, n)) : nullptr;
    if (nul) {
      const long line =
          1 + long(std::count(text.begin(), text.end(), '\n') + std::count(static_cast<const char*>(piece), nul, '\n'));
      throw ParseError(path, line,
                       "a NUL byte at offset " + std::to_string(text.size() + std::size_t(nul - piece)) +
                           ": binary data, not a text " + what);
    }
    if (text.size() + n > limit)
      throw ParseError(path, 1,
                       "the input goes on past the input limit of " + std::to_string(limit >> 20) +
                           " MiB (not a regular file, or one that grows while read; raise the limit with "
                           "TB_INPUT_LIMIT_MB=...)");
    text.append(piece, n);
  }
  if (std::ferror(file.get()))
    throw Error("cannot read " + what + " '" + path + "': " + (errno ? std::strerror(errno) : "read error"));
  return text;
}

std::uint64_t storage_bytes(std::uint64_t count, std::uint64_t per_item, std::uint64_t fixed) {
  constexpr std::uint64_t most = std::numeric_limits<std::uint64_t>::max();
  if (per_item != 0 && count > (most - fixed) / per_item) return most;
  return count * per_item + fixed;
}

}  // namespace tb
