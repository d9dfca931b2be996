#include "run_folder.hpp"

#include <unistd.h>

#include "solvers/core/error.hpp"
#include "solvers/core/output_path.hpp"

namespace tb::harness {

namespace fs = std::filesystem;

namespace {

void require_writable(const std::string& option, const fs::path& folder, const fs::path& dir) {
  if (::access(folder.c_str(), W_OK | X_OK) != 0)
    throw Error(option + " '" + dir.string() + "': the folder '" + folder.string() +
                "' is not writable by this process; give a folder it may write into");
}

// Entries that are neither regular files nor folders, `depth` levels down.
void require_plain_entries(const std::string& option, const fs::path& folder, const fs::path& dir, int depth) {
  std::error_code ec;
  for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string path = it->path().string();
    const std::string kind = kind_of_path(path);
    if (kind == "a folder") {
      if (depth > 1) require_plain_entries(option, it->path(), dir, depth - 1);
      continue;
    }
    if (kind.empty() || kind == "a regular file") continue;  // "": a dangling link, replaced by a rename
    throw Error(option + " '" + dir.string() + "': holds '" + path + "', which is " + kind +
                ": the program writes regular files into its output folder and replaces its own, so a folder that "
                "holds anything else is refused; remove it or give another folder");
  }
}

}  // namespace

void check_run_folder(const std::string& option, const fs::path& dir) {
  check_output_folder(option, dir.string());  // empty, or something other than a folder
  if (kind_of_path(dir.string()) == "a folder") {
    require_writable(option, dir, dir);
    require_plain_entries(option, dir, dir, 2);
    return;
  }
  // It does not exist yet: the nearest part of its path that does must be a
  // folder it may create folders in (a file on the path would make
  // create_directories fail with a raw "Not a directory").
  for (fs::path up = dir.parent_path(); !up.empty(); up = up.parent_path()) {
    const std::string kind = kind_of_path(up.string());
    if (kind.empty()) {
      if (up == up.parent_path()) break;
      continue;
    }
    if (kind != "a folder")
      throw Error(option + " '" + dir.string() + "': '" + up.string() + "' on its path is " + kind +
                  ", not a folder; give a folder the program may create or write into");
    require_writable(option, up, dir);
    return;
  }
  require_writable(option, fs::current_path(), dir);
}

}  // namespace tb::harness
