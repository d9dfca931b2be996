#pragma once
// Result files are written whole or not at all: the content goes to a temporary
// file beside the target (same directory, so the rename is atomic), is flushed
// to disk, then renamed over the target. A run killed at any moment, or a full
// disk, leaves the old file or the new one, never half of one (ParaView may be
// reading it while a run goes on).
#include <functional>
#include <ostream>
#include <string>
#include <string_view>

namespace tb {

void write_file_atomically(const std::string& path, std::string_view content);
// Streams 'body' into the temporary file (precision 17), then commits it.
void write_atomically(const std::string& path, const std::function<void(std::ostream&)>& body);

// For writers that open the file themselves (VTK): write to temporary_path_for(path),
// then commit_temporary, which flushes it to disk and renames it; on failure the
// temporary is removed and tb::Error thrown.
std::string temporary_path_for(const std::string& path);
void commit_temporary(const std::string& temporary, const std::string& path);

// write_file_atomically in two steps, for a caller that must write something
// else before the file counts (the time loop: a checkpoint's step row):
// stage_file writes and flushes the content to disk under a temporary name
// (returned), rename_staged puts it in the target's place.
std::string stage_file(const std::string& path, std::string_view content);
void rename_staged(const std::string& temporary, const std::string& path);

}  // namespace tb
