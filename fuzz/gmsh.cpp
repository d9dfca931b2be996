// Fuzz target: the Gmsh 2.2 and 4.1 readers (cells and tetrahedra). A mesh
// they accept goes through the consistency checks tb-mesh info runs and
// through a write-and-read round trip that must keep its counts.
#include <cstdlib>

#include "fuzz_input.hpp"
#include "mesh/check.hpp"
#include "mesh/io/gmsh_reader.hpp"
#include "solvers/core/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string path = tb::fuzz::input_file(data, size, ".msh");
  try {
    const tb::Mesh2D mesh = tb::read_gmsh(path);
    (void)tb::check_mesh(mesh);
    const std::string copy = path + ".copy.msh";
    tb::write_gmsh(copy, mesh);
    const tb::Mesh2D back = tb::read_gmsh(copy);
    if (back.num_cells() != mesh.num_cells() || back.num_faces() != mesh.num_faces()) std::abort();
  } catch (const tb::Error&) {
  }
  try {
    (void)tb::read_gmsh_tetrahedra(path);
  } catch (const tb::Error&) {
  }
  return 0;
}
