#include "mesh/io/mesh_io.hpp"

#include <filesystem>

#include "mesh/io/gmsh_reader.hpp"
#include "mesh/io/su2_format.hpp"
#include "mesh/io/vtu_writer.hpp"
#include "solvers/core/error.hpp"

namespace tb {

namespace {
std::string extension_of(const std::string& path) { return std::filesystem::path(path).extension().string(); }
}  // namespace

Mesh2D read_mesh(const std::string& path) {
  const std::string ext = extension_of(path);
  if (ext == ".msh") return read_gmsh(path);
  if (ext == ".su2") return read_su2(path);
  throw Error("'" + path + "': unknown mesh format '" + ext + "' (readable: .msh, .su2)");
}

void write_mesh(const std::string& path, const Mesh2D& mesh, bool gmsh22) {
  const std::string ext = extension_of(path);
  if (ext == ".msh") return write_gmsh(path, mesh, gmsh22 ? GmshVersion::V22 : GmshVersion::V41);
  if (ext == ".su2") return write_su2(path, mesh);
  if (ext == ".vtu") return write_vtu(path, mesh, {});
  throw Error("'" + path + "': unknown mesh format '" + ext + "' (writable: .msh, .su2, .vtu)");
}

}  // namespace tb
