#pragma once
// Where results go, checked before anything is computed or written, so that a
// mistyped path costs nothing and no file that is not the program's own is
// replaced. A file the program writes must be a regular file or not exist yet,
// in a folder that exists; a folder it writes into must be a folder or not
// exist yet. Anything else a path can name (a device such as /dev/null or
// /dev/full, a fifo, a socket) is refused: results are written whole by a
// rename over the target (atomic_file.hpp), which would put a regular file in
// the device's place.
#include <string>
#include <string_view>

namespace tb {

// What a path names, in words ("a character device", "a folder", "a regular
// file", ...), following symbolic links; "" when nothing is there.
std::string kind_of_path(const std::string& path);

// tb::Error naming `option` (the key or flag that gave the path), the path and
// what is wrong, when the program cannot write the file `path`.
void check_output_file(std::string_view option, const std::string& path);

// tb::Error naming `option` and the path when `path` cannot be a folder the
// program writes into (empty, or something other than a folder is there).
void check_output_folder(std::string_view option, const std::string& path);

}  // namespace tb
