#pragma once
// Checksums of the systems solved: what shows that shadows, dumps and a
// restarted run saw exactly the driver's systems.
#include <cstdint>
#include <span>
#include <string>

#include "solvers/matrix/bsr.hpp"

namespace tb::systems {

// XXH3 (64 bits) of a matrix's values: what the solver slots compare to tell values they have seen.
std::uint64_t hash_of_values(const BsrMatrix& a);
// XXH3 (64 bits) over the bytes of the matrix values, b and x0, as 16 hex digits.
std::string system_checksum(const BsrMatrix& a, std::span<const double> b, std::span<const double> x0);
// One checksum for several solves of a step (a step table's folded row): XXH3
// over theirs in order; the one itself for a single solve, "-" where none was computed.
std::string folded_checksum(std::span<const std::string> checksums);
// v in 16 hexadecimal digits.
std::string hex_digits(std::uint64_t v);

}  // namespace tb::systems
