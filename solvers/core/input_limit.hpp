#pragma once
// The most a reader may allocate for one input file (a MatrixMarket matrix, a
// mesh, an STL surface), so that a declared size (a size line, a node count)
// never makes a reader allocate without bound. A reader checks what the
// declared sizes would need against it before allocating anything, and refuses
// with file:line naming the sizes, the estimate and how to raise the limit.
//
// The limit is TB_INPUT_LIMIT_MB mebibytes when that variable is set (a
// positive integer), else 4096 (4 GiB of would-be storage).
#include <cstdint>
#include <string>

namespace tb {

constexpr std::uint64_t default_input_limit_mb = 4096;

// Bytes; tb::Error when TB_INPUT_LIMIT_MB is set but not a positive integer.
std::uint64_t input_limit_bytes();

// "" when `bytes` is within the limit, else ", which would need N MiB, above
// the input limit of M MiB (raise it with TB_INPUT_LIMIT_MB=...)", for the
// end of a reader's message.
std::string input_limit_excess(std::uint64_t bytes);

// Throws tb::ParseError (path:1) when the regular file at `path` is larger
// than the limit: readers that hold a file whole call it before reading.
void check_input_file_size(const std::string& path);

// The whole content of the input file at `path` (`what` names it in messages:
// "MatrixMarket file", "case file"), read in pieces so that the limit holds
// for what is not a regular file too (a fifo, /dev/zero: refused once the
// limit is passed, not read until memory runs out). Text inputs also refuse a
// NUL byte, which no text format has, at the line it is on: binary data given
// as a text file is refused at its first piece. tb::Error when the file cannot
// be opened or read (a folder), tb::ParseError for the content.
enum class InputContent { text, binary };
std::string read_input_file(const std::string& path, const std::string& what, InputContent content);

// bytes = count * per_item + fixed, saturating instead of wrapping.
std::uint64_t storage_bytes(std::uint64_t count, std::uint64_t per_item, std::uint64_t fixed = 0);

}  // namespace tb
