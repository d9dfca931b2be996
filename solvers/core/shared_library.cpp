#include "shared_library.hpp"

#include <dlfcn.h>

#include "error.hpp"

namespace tb::shared_library {

void* open(const char* path, const std::string& owner, const std::string& what) {
  void* handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char* why = dlerror();
    throw Error(owner + ": cannot open " + path + ": " + (why ? why : "dlopen failed") + " (" + what + ")");
  }
  return handle;
}

void* symbol(void* library, const char* path, const char* name, const std::string& owner) {
  dlerror();
  void* address = dlsym(library, name);
  if (!address) throw Error(owner + ": " + path + " has no symbol " + name);
  return address;
}

}  // namespace tb::shared_library
