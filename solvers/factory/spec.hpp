#pragma once
// Solver specifications as text:
//   fgmres(restart=30,rtol=1e-1,maxit=60)+bilu0
//   spec      := component ('+' component)?
//   component := name ('(' (key '=' value (',' key '=' value)*)? ')')?
// The first component names a Krylov method, the optional second a preconditioner.
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "solvers/core/error.hpp"

namespace tb {

struct SpecComponent {
  std::string name;
  std::vector<std::pair<std::string, std::string>> params;  // in the order written
};

struct SolverSpec {
  std::string text;
  std::vector<SpecComponent> components;
};

// Throws tb::Error quoting the text and the column of the first syntax error.
SolverSpec parse_spec(std::string_view text);

// A component as written: "name" or "name(key=value,...)".
std::string component_text(const SpecComponent& c);

// c's parameter `key` (the first, as written), or c.params.end().
std::vector<std::pair<std::string, std::string>>::iterator find_param(SpecComponent& c, std::string_view key);
// Its value, or null where c does not name it.
const std::string* param_value(const SpecComponent& c, std::string_view key);
// Whether a component of s names `key`, with `value` where one is given.
bool names_param(const SolverSpec& s, std::string_view key, std::string_view value = {});

}  // namespace tb
