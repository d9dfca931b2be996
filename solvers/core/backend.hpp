#pragma once
// Where an array lives and which kernels act on it. Host kernels use OpenMP;
// CUDA kernels exist only in builds configured with a CUDA compiler.
#include <string>
#include <string_view>

namespace tb {

enum class Backend { host, cuda };

std::string_view to_string(Backend b);
Backend parse_backend(std::string_view name);  // throws tb::Error naming the allowed values

bool cuda_compiled();            // the library was built with the CUDA backend
int cuda_device_count();         // 0 without CUDA or without a visible device
std::string cuda_device_name();  // empty when no device
// Makes `device` (0 .. cuda_device_count()-1) this thread's current device;
// call before the first allocation on it. Throws tb::Error when out of range.
void select_cuda_device(int device);
// Why CUDA work cannot run here, or empty when it can: for tests that skip.
std::string cuda_unavailable_reason();

// Number of host threads OpenMP will use (1 without OpenMP).
int host_threads();

}  // namespace tb
