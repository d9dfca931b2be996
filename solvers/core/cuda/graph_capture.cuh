#pragma once
// A room's fixed sequence of launches recorded once as a CUDA graph and
// replayed: one launch where there were many (the multigrid cycle, FGBILU's
// sweeps over the hyperplanes). Included only by .cu files.
//
// The room launches its kernels on launch_stream(): the default stream,
// except between begin() and end(), when they are recorded on the recorder's
// own stream instead of running (the capture needs a stream other than the
// legacy default one). A replay runs on that stream after the default
// stream's work so far, and the default stream's next work waits for it (two
// events), so the caller sees the order its launches would have had. The
// recorded launches do not count in device_launches(); a replay counts once.
#include <cuda_runtime.h>

#include <string>

#include "error_check.cuh"
#include "solvers/core/device_launches.hpp"

namespace tb::cuda_graph {

class Recorder {
 public:
  // `room` names the recorder in errors. Constant-initialised and never
  // destroyed: its stream and events live as long as the process (static
  // destructors may run after the CUDA context is gone).
  constexpr explicit Recorder(const char* room) : room_(room) {}

  cudaStream_t launch_stream() const { return launch_; }

  // The room's launches from here to end() are recorded, not run.
  void begin() {
    ensure_stream();
    check(cudaStreamBeginCapture(own_, cudaStreamCaptureModeThreadLocal), "cudaStreamBeginCapture");
    launch_ = own_;
    begin_recording_device_launches();
  }

  // The launches since begin(), instantiated; the room's launches run on the
  // default stream again, also when the recording failed (a launch refused
  // during the capture, an error thrown between begin() and end()).
  cudaGraphExec_t end() {
    launch_ = nullptr;
    end_recording_device_launches();
    cudaGraph_t graph = nullptr;
    check(cudaStreamEndCapture(own_, &graph), "cudaStreamEndCapture");
    cudaGraphExec_t exec = nullptr;
    const cudaError_t status = cudaGraphInstantiate(&exec, graph, 0);
    cudaGraphDestroy(graph);
    check(status, "cudaGraphInstantiate");
    return exec;
  }

  // Ends a recording that failed on the way, dropping what it holds; the
  // error that made it fail is the one to report.
  void abandon() noexcept {
    launch_ = nullptr;
    end_recording_device_launches();
    cudaGraph_t graph = nullptr;
    if (cudaStreamEndCapture(own_, &graph) == cudaSuccess && graph) cudaGraphDestroy(graph);
    (void)cudaGetLastError();
  }

  void replay(cudaGraphExec_t exec) {
    check(cudaEventRecord(before_, nullptr), "cudaEventRecord");
    check(cudaStreamWaitEvent(own_, before_, 0), "cudaStreamWaitEvent");
    check(cudaGraphLaunch(exec, own_), "cudaGraphLaunch");
    count_device_launch();
    check(cudaEventRecord(after_, own_), "cudaEventRecord");
    check(cudaStreamWaitEvent(nullptr, after_, 0), "cudaStreamWaitEvent");
  }

 private:
  void check(cudaError_t status, const char* operation) const {
    if (status != cudaSuccess) cuda_error::throw_if(status, std::string(operation) + " (" + room_ + ")");
  }

  void ensure_stream() {
    if (own_) return;
    check(cudaStreamCreateWithFlags(&own_, cudaStreamNonBlocking), "cudaStreamCreate");
    check(cudaEventCreateWithFlags(&before_, cudaEventDisableTiming), "cudaEventCreate");
    check(cudaEventCreateWithFlags(&after_, cudaEventDisableTiming), "cudaEventCreate");
  }

  const char* room_;
  cudaStream_t launch_ = nullptr;  // where the room's kernels launch now
  cudaStream_t own_ = nullptr;     // non-blocking: records and replays
  cudaEvent_t before_ = nullptr, after_ = nullptr;
};

// A recorded sequence as a room hands it out: its kernels.hpp declares an
// opaque `struct Graph` (TB_RECORDED_GRAPH_DECLARATIONS), defined here.
struct RecordedGraph {
  cudaGraphExec_t exec = nullptr;
};

}  // namespace tb::cuda_graph

// In a room's kernels::cuda, the functions of solvers/core/recorded_graph.hpp
// over its Recorder `recorder`.
#define TB_RECORDED_GRAPH_FUNCTIONS(recorder)                  \
  struct Graph : ::tb::cuda_graph::RecordedGraph {};           \
  void begin_capture() { recorder.begin(); }                   \
  Graph* end_capture() { return new Graph{{recorder.end()}}; } \
  void abandon_capture() noexcept { recorder.abandon(); }      \
  void replay(const Graph* g) { recorder.replay(g->exec); }    \
  void destroy(Graph* g) noexcept {                            \
    if (!g) return;                                            \
    if (g->exec) cudaGraphExecDestroy(g->exec);                \
    delete g;                                                  \
  }
