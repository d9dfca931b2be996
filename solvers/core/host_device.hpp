#pragma once
// Loop bodies shared by the host and CUDA versions of a fine-grained kernel
// (the papers' "ACC style"): compiled for both when nvcc sees them, so the CPU
// tests exercise the same arithmetic the GPU runs.
#ifdef __CUDACC__
#define TB_HOST_DEVICE __host__ __device__
#else
#define TB_HOST_DEVICE
#endif
