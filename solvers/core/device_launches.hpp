#pragma once
// The count of the work this process has launched on the device: every
// kernel launch (`<<<...>>>`, each followed by cuda_error::check_launch, which
// counts it: tests/style/check_launches.py holds that) and every replay of a
// CUDA graph, which counts once however many kernels it holds. What a launch
// costs beyond its work (a few microseconds of the host and of the device per
// launch) is what this count makes visible: a solve's launches per iteration
// and per preconditioner application are in SolveStats. Copies and memsets
// are not launches (transfers.hpp counts the copies). No CUDA header here; a
// build without CUDA launches nothing and counts 0.
namespace tb {

// Launches since the process started (thread-safe).
long device_launches();

// For the CUDA sources: one launch issued.
void count_device_launch();

// Between these two calls the launches are recorded into a CUDA graph, not
// issued (solvers/core/cuda/graph_capture.cuh): they do not count, and the
// graph's replay counts once. Not nested.
void begin_recording_device_launches();
void end_recording_device_launches();

}  // namespace tb
