#include "checksum.hpp"

#include <algorithm>
#include <cstdio>

#define XXH_INLINE_ALL  // header-only: nothing to link, also on a bare CUDA machine
#include <xxhash.h>

namespace tb::systems {

std::uint64_t hash_of_values(const BsrMatrix& a) {
  return XXH3_64bits(a.values.data(), a.values.size() * sizeof(double));
}

std::string hex_digits(std::uint64_t v) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
  return buf;
}

std::string system_checksum(const BsrMatrix& a, std::span<const double> b, std::span<const double> x0) {
  XXH3_state_t state;
  XXH3_64bits_reset(&state);
  XXH3_64bits_update(&state, a.values.data(), a.values.size() * sizeof(double));
  XXH3_64bits_update(&state, b.data(), b.size_bytes());
  XXH3_64bits_update(&state, x0.data(), x0.size_bytes());
  return hex_digits(XXH3_64bits_digest(&state));
}

std::string folded_checksum(std::span<const std::string> checksums) {
  if (checksums.size() == 1 || std::all_of(checksums.begin(), checksums.end(), [](const auto& c) { return c == "-"; }))
    return checksums.empty() ? "-" : checksums.front();
  XXH3_state_t state;
  XXH3_64bits_reset(&state);
  for (const auto& c : checksums) XXH3_64bits_update(&state, c.data(), c.size());
  return hex_digits(XXH3_64bits_digest(&state));
}

}  // namespace tb::systems
