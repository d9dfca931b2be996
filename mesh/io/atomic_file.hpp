#pragma once
// Files appear complete or not at all: a crash or a full disk mid-write leaves
// the previous file in place (ParaView may be reading it while a run goes on).
#include <functional>
#include <ostream>
#include <string>

namespace tb {

// A temporary name next to `path` (same directory, so the rename is atomic).
std::string temporary_path_for(const std::string& path);
// Renames `temporary` onto `path`; removes it and throws tb::Error on failure.
void commit_temporary(const std::string& temporary, const std::string& path);
// Streams `body` into a temporary file, then commits it.
void write_atomically(const std::string& path, const std::function<void(std::ostream&)>& body);

}  // namespace tb
