// Fuzz target: case files (TOML) against the schemas of the three miniapps.
// The first byte picks the schema. A case that loads must write itself
// (CaseConfig::to_toml) as a case that loads to the same text, and must pass
// or fail the miniapp's start-up cross-key checks (resolve_defaults,
// check_case: magnitudes, grid sizes, memory, ignored keys) with a tb::Error.
#include <array>
#include <cstdio>
#include <cstdlib>

#include "fuzz_input.hpp"
#include "miniapps/common/time_loop.hpp"
#include "miniapps/compressible/comp_case.hpp"
#include "miniapps/immersed/ib_case.hpp"
#include "miniapps/immersed/ib_simulation.hpp"
#include "miniapps/incompressible/incomp_case.hpp"
#include "solvers/core/error.hpp"

namespace {

const tb::harness::MiniappDescription& app(int which) {
  auto make = [](std::vector<std::string> systems, std::function<void(tb::harness::CaseSchema&)> keys) {
    tb::harness::MiniappDescription app;
    app.systems = std::move(systems);
    app.declare_keys = std::move(keys);
    return app;
  };
  static const std::array<tb::harness::MiniappDescription, 3> apps = [&] {
    tb::harness::MiniappDescription incomp = make({"momentum", "pressure"}, tb::incompressible::declare_case_keys);
    incomp.resolve_defaults = tb::incompressible::resolve_case_defaults;
    incomp.check_case = tb::incompressible::check_case_keys;
    tb::harness::MiniappDescription comp = make({"flow"}, tb::compressible::declare_case_keys);
    comp.check_case = tb::compressible::check_case_keys;
    tb::harness::MiniappDescription ib = make(tb::immersed::ib_systems, tb::immersed::declare_case_keys);
    ib.check_case = tb::immersed::check_case_keys;
    return std::array{incomp, comp, ib};
  }();
  return apps[which % 3];
}

const tb::harness::CaseSchema& schema(int which) {
  static const tb::harness::CaseSchema schemas[3] = {tb::harness::make_schema(app(0)), tb::harness::make_schema(app(1)),
                                                     tb::harness::make_schema(app(2))};
  return schemas[which % 3];
}

// The start-up checks on a case that loaded: refusals are tb::Error, anything else escapes.
void check(int which, tb::harness::CaseConfig config) {
  try {
    if (app(which).resolve_defaults) app(which).resolve_defaults(config);
    (void)app(which).check_case(config, false);
  } catch (const tb::Error&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const tb::harness::CaseSchema& s = schema(data[0]);
  const std::string path = tb::fuzz::input_file(data + 1, size - 1, ".toml");
  std::string written;
  try {
    tb::harness::CaseConfig config(s);
    config.load_toml(path);
    written = config.to_toml();
    check(data[0], config);
  } catch (const tb::Error&) {
    return 0;
  }
  const auto* bytes = reinterpret_cast<const std::uint8_t*>(written.data());
  const std::string again = tb::fuzz::input_file(bytes, written.size(), ".again.toml");
  tb::harness::CaseConfig reread(s);
  reread.load_toml(again);  // a tb::Error here escapes: the writer wrote what the reader refuses
  if (const std::string twice = reread.to_toml(); twice != written) {
    std::fprintf(stderr, "case written:\n%s\ncase read back and written again:\n%s\n", written.c_str(), twice.c_str());
    std::abort();
  }
  return 0;
}
