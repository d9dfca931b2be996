// Fuzz target: solver specifications ("fgmres(restart=30)+bilu0"): the parser
// and the registry that builds the solver they name. Building must refuse
// every out-of-range parameter with a tb::Error before allocating for it.
#include "fuzz_input.hpp"
#include "solvers/core/error.hpp"
#include "solvers/factory/registry.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text = tb::fuzz::as_text(data, size);
  try {
    (void)tb::parse_spec(text);
    (void)tb::Registry::builtin().make(text);
  } catch (const tb::Error&) {
  }
  return 0;
}
