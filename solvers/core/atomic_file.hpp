#pragma once
// Result files are written whole or not at all: the content goes to a temporary
// file beside the target, is flushed to disk (fsync), then renamed over the
// target. A run killed at any moment leaves the old file or the new one, never
// half of one.
#include <string>
#include <string_view>

namespace tb {

void write_file_atomically(const std::string& path, std::string_view content);

}  // namespace tb
