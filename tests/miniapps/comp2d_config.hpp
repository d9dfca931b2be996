#pragma once
// tb-comp2d's case as the tests build it: the miniapp's keys, the built-in
// cylinder unless set otherwise.
#include "miniapps/common/case_config.hpp"
#include "miniapps/common/time_loop.hpp"
#include "miniapps/compressible/comp_case.hpp"

namespace tb::test {

inline harness::CaseConfig comp2d_config() {
  harness::MiniappDescription app;
  app.name = "tb-comp2d";
  app.systems = {"flow"};
  app.declare_keys = compressible::declare_case_keys;
  return harness::CaseConfig(harness::make_schema(app));
}

}  // namespace tb::test
