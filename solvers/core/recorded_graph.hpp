#pragma once
// The functions by which a room hands out a fixed sequence of its CUDA launches
// recorded once as a graph and replayed (solvers/core/cuda/graph_capture.cuh),
// declared in the room's kernels::cuda: between begin_capture and end_capture
// the room's kernels are recorded on its own stream instead of running; a
// replay runs after the default stream's work so far, and the default
// stream's next work waits for it; abandon_capture ends a recording that
// failed on the way. No CUDA header here; cuda/kernels.cu defines them with
// TB_RECORDED_GRAPH_FUNCTIONS.
#define TB_RECORDED_GRAPH_DECLARATIONS \
  struct Graph;                        \
  void begin_capture();                \
  Graph* end_capture();                \
  void abandon_capture() noexcept;     \
  void replay(const Graph* g);         \
  void destroy(Graph* g) noexcept;
