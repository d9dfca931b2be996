#pragma once
// The output folder of a run, checked at start-up before anything is
// computed or written: a miniapp writes only regular files and folders of its
// own there, by temporary file and rename (solvers/core/atomic_file.hpp), so
// a folder path that names something else, or a folder that already holds a
// device, a fifo or a socket under a name, is refused with the path named
// rather than found by a raw filesystem error or a write into a device.
#include <filesystem>
#include <string>

namespace tb::harness {

// tb::Error naming `option` ("--out", "--restart", or the default's
// description) and the path unless `dir` is, or can be created as, a folder
// this process can write into whose entries (and those of its subfolders,
// two levels deep: fields/, systems/, an A/B run's) are regular files or folders.
void check_run_folder(const std::string& option, const std::filesystem::path& dir);

}  // namespace tb::harness
