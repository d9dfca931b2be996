// The options text of petsc(options=...), parsed without PETSc so that a build
// without it still checks what it can. A specification value cannot hold ',',
// ')' or spaces, hence ';' between options and ':' between name and value.
#include <string>

#include "petsc_solver.hpp"
#include "solvers/core/error.hpp"

namespace tb::petsc {

std::vector<std::pair<std::string, std::string>> parse_options(const std::string& text) {
  std::vector<std::pair<std::string, std::string>> out;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t end = std::min(text.find(';', start), text.size());
    std::string item = text.substr(start, end - start);
    start = end + 1;
    if (item.empty()) continue;
    const std::size_t colon = item.find(':');
    std::string name = item.substr(0, colon), value = colon == std::string::npos ? "" : item.substr(colon + 1);
    if (!name.empty() && name[0] == '-') name.erase(0, 1);
    if (name.empty() || name[0] == '-')
      throw Error("petsc: options item '" + item +
                  "' has no option name; expected name:value or name, separated by ';', e.g. "
                  "options=pc_hypre_boomeramg_strong_threshold:0.5;ksp_norm_type:unpreconditioned");
    out.emplace_back("-" + name, value);
  }
  return out;
}

}  // namespace tb::petsc
