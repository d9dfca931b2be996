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

namespace {

[[noreturn]] void fail_on(const std::string& temporary, const std::string& path, const char* what) {
  const std::string why = std::strerror(errno);
  std::remove(temporary.c_str());
  throw Error(path + ": cannot " + what + ": " + why);
}

void flush_to_disk(const std::string& temporary, const std::string& path) {
  const int fd = ::open(temporary.c_str(), O_RDONLY);
  if (fd < 0) fail_on(temporary, path, "reopen the temporary file");
  const bool synced = ::fsync(fd) == 0;
  ::close(fd);
  if (!synced) fail_on(temporary, path, "flush to disk");
}

void write_temporary(const std::string& temporary, const std::string& path,
                     const std::function<void(std::ostream&)>& body) {
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

}  // namespace

void rename_staged(const std::string& temporary, const std::string& path) {
  // The rename below would put a regular file in the place of a device, a
  // fifo or a folder: refused, whatever check the caller made before.
  if (const std::string kind = kind_of_path(path); !kind.empty() && kind != "a regular file") {
    std::remove(temporary.c_str());
    throw Error(path + ": is " + kind + ", not a regular file; nothing written");
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) fail_on(temporary, path, "replace");
}

void commit_temporary(const std::string& temporary, const std::string& path) {
  flush_to_disk(temporary, path);
  rename_staged(temporary, path);
}

std::string stage_file(const std::string& path, std::string_view content) {
  const std::string temporary = temporary_path_for(path);
  write_temporary(temporary, path,
                  [&](std::ostream& out) { out.write(content.data(), std::streamsize(content.size())); });
  flush_to_disk(temporary, path);
  return temporary;
}

void write_atomically(const std::string& path, const std::function<void(std::ostream&)>& body) {
  const std::string temporary = temporary_path_for(path);
  write_temporary(temporary, path, body);
  commit_temporary(temporary, path);
}

void write_file_atomically(const std::string& path, std::string_view content) {
  write_atomically(path, [&](std::ostream& out) { out.write(content.data(), std::streamsize(content.size())); });
}

}  // namespace tb
