#include "backend.hpp"

#include "error.hpp"

#ifdef _OPENMP
#include <omp.h>
#endif

namespace tb {

#ifdef TB_WITH_CUDA
namespace cuda_runtime {
int device_count();
std::string device_name();
void set_device(int device);
}  // namespace cuda_runtime
#endif

std::string_view to_string(Backend b) { return b == Backend::host ? "host" : "cuda"; }

Backend parse_backend(std::string_view name) {
  if (name == "host") return Backend::host;
  if (name == "cuda") return Backend::cuda;
  throw Error("unknown backend '" + std::string(name) + "' (expected host or cuda)");
}

bool cuda_compiled() {
#ifdef TB_WITH_CUDA
  return true;
#else
  return false;
#endif
}

int cuda_device_count() {
#ifdef TB_WITH_CUDA
  return cuda_runtime::device_count();
#else
  return 0;
#endif
}

std::string cuda_device_name() {
#ifdef TB_WITH_CUDA
  return cuda_device_count() > 0 ? cuda_runtime::device_name() : std::string();
#else
  return {};
#endif
}

void select_cuda_device(int device) {
  if (device < 0 || device >= cuda_device_count())
    throw Error("CUDA device " + std::to_string(device) + " requested, " + std::to_string(cuda_device_count()) +
                " visible");
#ifdef TB_WITH_CUDA
  cuda_runtime::set_device(device);
#endif
}

std::string cuda_unavailable_reason() {
  if (!cuda_compiled()) return "built without the CUDA backend (no nvcc at configure time or WITH_CUDA=OFF)";
  if (cuda_device_count() == 0) return "no CUDA device visible on this machine";
  return {};
}

int host_threads() {
#ifdef _OPENMP
  return omp_get_max_threads();
#else
  return 1;
#endif
}

void throw_cuda_not_compiled() {
  throw Error("this operation needs the CUDA backend, but the library was built without it");
}

}  // namespace tb
