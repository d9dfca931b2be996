#include <string>

#include "kernels.hpp"
#include "solvers/core/shared_library.hpp"
#include "vendor_libraries.hpp"

namespace tb::multicolor::kernels::cuda {

namespace {

constexpr const char* owner = "multicolor(kernel=library)";

// The libraries CMake found for this build (TB_CUSPARSE_LIBRARY, TB_CUBLAS_LIBRARY).
VendorLibraries open_vendor_libraries() {
  const char* what = "the CUDA Toolkit's library this build was configured with";
  void* sparse = shared_library::open(TB_CUSPARSE_LIBRARY, owner, what);
  void* blas = shared_library::open(TB_CUBLAS_LIBRARY, owner, what);
  const auto find = [&](void* library, const char* name) {
    return shared_library::symbol(library, library == sparse ? TB_CUSPARSE_LIBRARY : TB_CUBLAS_LIBRARY, name, owner);
  };
  VendorLibraries v;
#define TB_VENDOR_FIND(library, function) \
  v.function = reinterpret_cast<decltype(v.function)>(find(library, TB_SYMBOL_NAME(function)));
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

}  // namespace tb::multicolor::kernels::cuda
