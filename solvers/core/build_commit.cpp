#include "build_commit.hpp"

#include "git_commit.hpp"

namespace tb {

std::string build_commit() { return TB_GIT_COMMIT; }

}  // namespace tb
