#include <dlfcn.h>

#include <string>

#include "point_implicit_kernels.hpp"
#include "solvers/core/error.hpp"
#include "vendor_libraries.hpp"

namespace tb::multicolor::cuda {

namespace {

// The libraries CMake found for this build (TB_CUSPARSE_LIBRARY, TB_CUBLAS_LIBRARY).
void* open_library(const char* path) {
  void* handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char* why = dlerror();
    throw Error(std::string("multicolor(kernel=library): cannot open ") + path + ": " + (why ? why : "dlopen failed") +
                " (the CUDA Toolkit's library this build was configured with)");
  }
  return handle;
}

void* find(void* library, const char* path, const char* function) {
  dlerror();
  void* address = dlsym(library, function);
  if (!address) throw Error(std::string("multicolor(kernel=library): ") + path + " has no function " + function);
  return address;
}

#define TB_STRING(x) TB_STRING_(x)
#define TB_STRING_(x) #x

VendorLibraries open_vendor_libraries() {
  void* sparse = open_library(TB_CUSPARSE_LIBRARY);
  void* blas = open_library(TB_CUBLAS_LIBRARY);
  const char* paths[] = {TB_CUSPARSE_LIBRARY, TB_CUBLAS_LIBRARY};
  const auto path = [&](void* library) { return library == sparse ? paths[0] : paths[1]; };
  VendorLibraries v;
#define TB_VENDOR_FIND(library, function) \
  v.function = reinterpret_cast<decltype(v.function)>(find(library, path(library), TB_STRING(function)));
  TB_VENDOR_FUNCTIONS(TB_VENDOR_FIND)
#undef TB_VENDOR_FIND
  return v;  // the libraries stay open until the process ends
}

}  // namespace

const VendorLibraries& vendor_libraries() {
  static const VendorLibraries v = open_vendor_libraries();
  return v;
}

void check_vendor_libraries() { vendor_libraries(); }

}  // namespace tb::multicolor::cuda
