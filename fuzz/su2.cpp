// Fuzz target: the SU2 reader. A mesh it accepts goes through the consistency
// checks tb-mesh info runs and a write-and-read round trip keeping its counts.
#include <cstdlib>

#include "fuzz_input.hpp"
#include "mesh/check.hpp"
#include "mesh/io/su2_format.hpp"
#include "solvers/core/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string path = tb::fuzz::input_file(data, size, ".su2");
  try {
    const tb::Mesh2D mesh = tb::read_su2(path);
    (void)tb::check_mesh(mesh);
    const std::string copy = path + ".copy.su2";
    tb::write_su2(copy, mesh);
    const tb::Mesh2D back = tb::read_su2(copy);
    if (back.num_cells() != mesh.num_cells() || back.num_faces() != mesh.num_faces()) std::abort();
  } catch (const tb::Error&) {
  }
  return 0;
}
