#include "sweep_bandwidth.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <span>
#include <string>
#include <vector>

#include "../common/cuda/gpu_baseline.hpp"
#include "../common/stream_triad.hpp"
#include "solvers/async_ilu/async_ilu.hpp"
#include "solvers/core/backend.hpp"
#include "solvers/core/cuda_call.hpp"
#include "solvers/core/json_writer.hpp"
#include "solvers/matrix/generate.hpp"

namespace tb::bench {

namespace {

struct Row {
  index_t block_size = 0;
  std::string rows;  // "thread" or "group"
  index_t block_rows = 0;
  double seconds = 0.0;  // best apply (one sweep of each triangle)
  double bytes = 0.0;
};

// A grid edge giving about 1 GB of factor values (7 blocks a row), at most 96^3 block rows.
index_t edge_for(index_t b) {
  const double rows = 1e9 / (7.0 * 8.0 * double(b * b));
  return std::clamp(index_t(std::cbrt(rows)), index_t(8), index_t(96));
}

// Bytes one apply must move at least: every factor block and U_ii^{-1} once,
// r read, y written and read, z written.
double apply_bytes(const async_ilu::AsyncIlu& ilu) {
  const BsrMatrix& p = ilu.pattern();
  const double nb = double(p.block_entries());
  return 8.0 * (double(p.row_ptr.back()) * nb + double(p.block_rows) * nb + 4.0 * double(p.rows()));
}

Row measure(index_t b, async_ilu::GpuRows rows, int reps) {
  Stencil7Params p;
  p.nx = p.ny = p.nz = edge_for(b);
  p.block_size = b;
  const BsrMatrix a = generate_stencil7(p);
  async_ilu::Options o;
  o.build_sweeps = 1;
  o.apply_sweeps = 1;
  o.gpu_rows = rows;
  async_ilu::AsyncIlu ilu(o);
  ilu.setup(a, Backend::cuda);
  const std::vector<double> ones(std::size_t(a.rows()), 1.0);
  const Vector r(Backend::cuda, std::span<const double>(ones));
  Vector z(Backend::cuda, std::size_t(a.rows()));
  Row out{b, rows == async_ilu::GpuRows::thread ? "thread" : "group", a.block_rows,
          std::numeric_limits<double>::infinity(), apply_bytes(ilu)};
  ilu.apply(r.data(), z.data());  // warm-up
  TB_CUDA_CALL(gpu::synchronize());
  for (int k = 0; k < reps; ++k) {
    const auto t0 = std::chrono::steady_clock::now();
    ilu.apply(r.data(), z.data());
    TB_CUDA_CALL(gpu::synchronize());
    out.seconds = std::min(out.seconds, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  return out;
}

}  // namespace

bool sweep_bandwidth_study(const Machine& machine, const std::string& json_path, int reps) {
  if (machine.gpu.empty()) {
    std::printf("sweep bandwidth: no CUDA device visible; nothing measured\n");
    return false;
  }
  const std::size_t n = std::size_t(1) << 26;
  const double triad_gbs = triad_bytes(n) / TB_CUDA_CALL(gpu::triad_seconds(n, reps)) * 1e-9;
  std::printf("device STREAM triad %.1f GB/s\n\n%6s %7s %10s %10s %8s %8s\n", triad_gbs, "block", "rows", "block rows",
              "apply ms", "GB/s", "triad");
  std::vector<Row> table;
  for (index_t b : {1, 2, 3, 4, 5, 6, 8, 10, 12, 16, 20, 24, 32})
    for (async_ilu::GpuRows rows : {async_ilu::GpuRows::thread, async_ilu::GpuRows::group}) {
      if (rows == async_ilu::GpuRows::thread && b > 8) continue;
      const Row row = measure(b, rows, reps);
      const double gbs = row.bytes / row.seconds * 1e-9;
      std::printf("%6d %7s %10d %10.3f %8.1f %7.0f%%\n", int(b), row.rows.c_str(), int(row.block_rows),
                  row.seconds * 1e3, gbs, 100.0 * gbs / triad_gbs);
      std::fflush(stdout);
      table.push_back(row);
    }
  if (json_path.empty()) return true;
  JsonWriter j;
  j.begin_object();
  j.value("benchmark", "async_ilu_sweep_bandwidth");
  j.value("what",
          "one asynchronous block ILU apply (a forward and a backward sweep) on the GPU over a generated 7-point "
          "block system, per block size and CUDA mapping, against the device STREAM triad");
  write(j, machine);
  j.value("triad_gb_per_s", triad_gbs);
  j.begin_array("rows");
  for (const Row& row : table)
    j.begin_object()
        .value("block_size", int(row.block_size))
        .value("gpu_rows", row.rows)
        .value("block_rows", int(row.block_rows))
        .value("apply_seconds", row.seconds)
        .value("bytes", row.bytes)
        .value("fraction_of_triad", row.bytes / row.seconds * 1e-9 / triad_gbs)
        .end_object();
  j.end_array().end_object();
  j.save(json_path);
  std::printf("\nwrote %s\n", json_path.c_str());
  return true;
}

}  // namespace tb::bench
