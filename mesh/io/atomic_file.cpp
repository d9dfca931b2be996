#include "mesh/io/atomic_file.hpp"

#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>

#include "solvers/core/error.hpp"

namespace tb {

std::string temporary_path_for(const std::string& path) {
  static std::atomic<int> counter{0};
  return path + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(counter++);
}

void commit_temporary(const std::string& temporary, const std::string& path) {
  std::error_code ec;
  std::filesystem::rename(temporary, path, ec);
  if (ec) {
    std::filesystem::remove(temporary, ec);
    throw Error("cannot move '" + temporary + "' to '" + path + "'");
  }
}

void write_atomically(const std::string& path, const std::function<void(std::ostream&)>& body) {
  const std::string temporary = temporary_path_for(path);
  {
    std::ofstream out(temporary, std::ios::binary);
    if (!out) throw Error("cannot write '" + path + "' (cannot create '" + temporary + "')");
    out.precision(17);
    body(out);
    out.flush();
    if (!out) {
      out.close();
      std::error_code ec;
      std::filesystem::remove(temporary, ec);
      throw Error("writing '" + path + "' failed (disk full?)");
    }
  }
  commit_temporary(temporary, path);
}

}  // namespace tb
