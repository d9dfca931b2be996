// Fuzz target: the STL reader (ASCII and binary). A surface it accepts must
// read back with the same vertices after a binary write.
#include <cstdlib>
#include <cstring>

#include "fuzz_input.hpp"
#include "physics/immersed/stl_reader.hpp"
#include "solvers/core/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string path = tb::fuzz::input_file(data, size, ".stl");
  try {
    const std::vector<tb::immersed::Triangle> surface = tb::immersed::read_stl(path);
    const std::string copy = path + ".copy.stl";
    tb::immersed::write_stl_binary(copy, surface);
    const std::vector<tb::immersed::Triangle> back = tb::immersed::read_stl(copy);
    if (back.size() != surface.size()) std::abort();
    for (std::size_t t = 0; t < surface.size(); ++t)
      for (int k = 0; k < 3; ++k)
        for (int d = 0; d < 3; ++d)
          if (float(surface[t].v[k][d]) != float(back[t].v[k][d]))
            std::abort();  // binary STL stores floats: compare at that precision
  } catch (const tb::Error&) {
  }
  return 0;
}
