#include "process_environment.hpp"

#include <unistd.h>

#include <cstdlib>
#include <cstring>

namespace tb::process_environment {

namespace {

// The marker the re-executed process finds: the names it was given.
constexpr const char* marker = "TB_SET_BY_PROGRAM";

struct Addition {
  const char* name;
  const char* entry;
};
constexpr Addition additions[] = {
    {"OMP_WAIT_POLICY", "OMP_WAIT_POLICY=passive"},
    {"GLIBC_TUNABLES", "GLIBC_TUNABLES=glibc.malloc.hugetlb=1"},
};
constexpr int addition_count = int(sizeof additions / sizeof additions[0]);

bool has(char** envp, const char* name) {
  const std::size_t n = std::strlen(name);
  for (char** e = envp; *e; ++e)
    if (std::strncmp(*e, name, n) == 0 && (*e)[n] == '=') return true;
  return false;
}

// Runs before main() and before the shared libraries' constructors: the
// environment handed to it is the one libgomp and ld.so read.
[[maybe_unused]] void add_and_reexecute(int, char** argv, char** envp) {
  if (has(envp, marker)) return;
  static char set_names[128] = "TB_SET_BY_PROGRAM=";
  int n = 0;
  while (envp[n]) ++n;
  char** env = static_cast<char**>(std::malloc(sizeof(char*) * std::size_t(n + addition_count + 2)));
  if (!env) return;
  int k = 0;
  for (; k < n; ++k) env[k] = envp[k];
  for (const Addition& a : additions) {
    if (has(envp, a.name)) continue;
    env[k++] = const_cast<char*>(a.entry);
    std::strncat(set_names, a.name, sizeof set_names - std::strlen(set_names) - 2);
    std::strncat(set_names, ",", sizeof set_names - std::strlen(set_names) - 1);
  }
  if (k == n) {  // the user set everything
    std::free(env);
    return;
  }
  env[k++] = set_names;
  env[k] = nullptr;
  execve("/proc/self/exe", argv, env);
  std::free(env);  // exec failed (no /proc): go on as the user started it
}

}  // namespace

bool set_by_program(std::string_view name) {
  const char* set = std::getenv(marker);
  if (!set) return false;
  // A comma-terminated list of names: "OMP_WAIT_POLICY,GLIBC_TUNABLES,".
  for (std::string_view rest(set); !rest.empty();) {
    const std::size_t comma = rest.find(',');
    if (rest.substr(0, comma) == name) return true;
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }
  return false;
}

}  // namespace tb::process_environment

// Kept in every executable that links tb_core: threading.cpp, which every
// vector kernel calls, calls set_by_program(), so this object is always linked.
// A shared module may not have a .preinit_array: the Python bindings compile
// this file again with TB_NO_PREINIT_ENTRY and leave the environment to the
// interpreter (python/CMakeLists.txt).
#ifndef TB_NO_PREINIT_ENTRY
extern "C" __attribute__((section(".preinit_array"), used)) void (*const tb_process_environment_entry)(
    int, char**, char**) = tb::process_environment::add_and_reexecute;
#endif
