#include "output_path.hpp"

#include <filesystem>

#include "error.hpp"

namespace tb {

namespace fs = std::filesystem;

std::string kind_of_path(const std::string& path) {
  std::error_code ec;
  switch (fs::status(path, ec).type()) {
    case fs::file_type::not_found:
    case fs::file_type::none:
      return {};
    case fs::file_type::regular:
      return "a regular file";
    case fs::file_type::directory:
      return "a folder";
    case fs::file_type::block:
      return "a block device";
    case fs::file_type::character:
      return "a character device";
    case fs::file_type::fifo:
      return "a fifo";
    case fs::file_type::socket:
      return "a socket";
    default:
      return ec ? "a path that cannot be examined (" + ec.message() + ")" : "a special file";
  }
}

void check_output_file(std::string_view option, const std::string& path) {
  const std::string where = std::string(option) + " '" + path + "'";
  if (path.empty()) throw Error(std::string(option) + ": the file name is empty; give a path");
  const std::string kind = kind_of_path(path);
  if (kind == "a folder") throw Error(where + ": is a folder; give a file name");
  if (!kind.empty() && kind != "a regular file")
    throw Error(where + ": is " + kind + ", not a regular file; the program writes its results as regular files only");
  const fs::path folder = fs::path(path).parent_path();
  if (!folder.empty() && kind_of_path(folder.string()) != "a folder")
    throw Error(where + ": the folder '" + folder.string() + "' does not exist");
}

void check_output_folder(std::string_view option, const std::string& path) {
  const std::string where = std::string(option) + " '" + path + "'";
  if (path.empty()) throw Error(std::string(option) + ": the folder name is empty; give a path");
  const std::string kind = kind_of_path(path);
  if (!kind.empty() && kind != "a folder")
    throw Error(where + ": is " + kind + ", not a folder; give a folder the program may create or write into");
}

}  // namespace tb
