#include "atomic_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>

#include "error.hpp"
#include "output_path.hpp"

namespace tb {

std::string temporary_path_for(const std::string& path) {
  static std::atomic<int> counter{0};
  return path + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(counter++);
}

void commit_temporary(const std::string& temporary, const std::string& path) {
  auto fail = [&](const char* what) {
    const std::string why = std::strerror(errno);
    std::remove(temporary.c_str());
    throw Error(path + ": cannot " + what + ": " + why);
  };
  // The rename below would put a regular file in the place of a device, a
  // fifo or a folder: refused, whatever check the caller made before.
  if (const std::string kind = kind_of_path(path); !kind.empty() && kind != "a regular file") {
    std::remove(temporary.c_str());
    throw Error(path + ": is " + kind + ", not a regular file; nothing written");
  }
  const int fd = ::open(temporary.c_str(), O_RDONLY);
  if (fd < 0) fail("reopen the temporary file");
  const bool synced = ::fsync(fd) == 0;
  ::close(fd);
  if (!synced) fail("flush to disk");
  if (std::rename(temporary.c_str(), path.c_str()) != 0) fail("replace");
}

void write_atomically(const std::string& path, const std::function<void(std::ostream&)>& body) {
  const std::string temporary = temporary_path_for(path);
  {
    std::ofstream out(temporary, std::ios::binary);
    if (!out) throw Error(path + ": cannot create the temporary file " + temporary);
    out.precision(17);
    body(out);
    out.flush();
    if (!out) {
      out.close();
      std::remove(temporary.c_str());
      throw Error(path + ": write failed (disk full?)");
    }
  }
  commit_temporary(temporary, path);
}

void write_file_atomically(const std::string& path, std::string_view content) {
  write_atomically(path, [&](std::ostream& out) { out.write(content.data(), std::streamsize(content.size())); });
}

}  // namespace tb
