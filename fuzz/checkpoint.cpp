// Fuzz target: the checkpoint reader. Whatever the bytes, it restores a state
// or refuses with a tb::Error naming the file.
#include "miniapps/common/checkpoint.hpp"

#include <filesystem>

#include "fuzz_input.hpp"
#include "solvers/core/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string path = tb::fuzz::input_file(data, size, ".checkpoint");
  const std::filesystem::path dir = path + ".d";
  std::filesystem::create_directories(dir);
  std::filesystem::rename(path, dir / "checkpoint.bin");
  try {
    tb::harness::CheckpointHeader header;
    (void)tb::harness::read_checkpoint(dir, "tb-incomp", header);
  } catch (const tb::Error&) {
  }
  return 0;
}
