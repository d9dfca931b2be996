#pragma once
// The git commit this build was made from (cmake/git_commit.cmake): 12 hex
// digits, "-dirty" when the working tree had changes, "unknown" outside git.
#include <string>

namespace tb {

std::string build_commit();

}  // namespace tb
