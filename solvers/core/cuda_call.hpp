#pragma once
// Backend dispatch to a CUDA kernel that exists only in CUDA builds. Without
// CUDA the call is still type-checked (unevaluated) but throws at run time, so
// dispatch code carries no #ifdef.
namespace tb {
[[noreturn]] void throw_cuda_not_compiled();
}

#ifdef TB_WITH_CUDA
#define TB_CUDA_CALL(expr) (expr)
#else
#define TB_CUDA_CALL(expr) (::tb::throw_cuda_not_compiled(), decltype(expr)())
#endif
