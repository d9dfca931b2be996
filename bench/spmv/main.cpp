// tb-bench-spmv: how close BSR SpMV comes to the machine's memory bandwidth.
// STREAM triad first (host OpenMP, and the GPU's own when a device is
// present), then BSR SpMV on 7-point structured block matrices for several
// block sizes, then BILU(0) factor and apply on the same matrices.
// Run with --help; bench/README.md explains the figures.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "../common/command_line.hpp"
#include "../common/cuda/gpu_baseline.hpp"
#include "../common/stream_triad.hpp"
#include "../common/timing.hpp"
#include "solvers/core/array.hpp"
#include "solvers/core/cuda_call.hpp"
#include "solvers/core/error.hpp"
#include "solvers/core/json_writer.hpp"
#include "solvers/core/machine.hpp"
#include "solvers/matrix/bsr_operator.hpp"
#include "solvers/matrix/cuda/kernels.hpp"
#include "solvers/matrix/generate.hpp"
#include "solvers/precond/bilu0.hpp"
#include "solvers/precond/kernels.hpp"

namespace tb::bench {
namespace {

struct Options {
  bool quick = false;
  bool bilu0 = true;
  int reps = 10;
  long long rows = 2'000'000;           // target scalar rows per matrix
  long long triad_doubles = 1LL << 25;  // 256 MiB per array
  std::vector<int> block_sizes = {1, 4, 5, 6, 8};
  std::string json_path;
};

const char* usage =
    "usage: tb-bench-spmv [--quick] [--json FILE] [--reps N] [--rows N] [--triad-doubles N]\n"
    "                     [--block-sizes 1,4,5,6,8] [--no-bilu0]\n"
    "  --quick            small smoke run (about 2e4 rows, 3 repetitions)\n"
    "  --json FILE        also write the results with machine information as JSON\n"
    "  --reps N           timed repetitions; the best is reported (default 10)\n"
    "  --rows N           target scalar rows of each matrix (default 2000000)\n"
    "  --triad-doubles N  length of each STREAM triad array (default 33554432)\n"
    "  --block-sizes L    comma-separated block sizes 1..64 (default 1,4,5,6,8)\n"
    "  --no-bilu0         skip the BILU(0) factor and apply timings\n";

std::vector<int> parse_block_sizes(const std::string& text) {
  std::vector<int> out;
  for (long long bs : parse_count_list("--block-sizes", text, 1, max_block_size)) out.push_back(int(bs));
  return out;
}

Options parse_options(int argc, char** argv) {
  Options o;
  bool rows_set = false, reps_set = false, triad_set = false;
  for (ArgumentList args(argc, argv, usage); args.next();) {
    const std::string& arg = args.flag();
    if (arg == "--quick") {
      o.quick = true;
    } else if (arg == "--no-bilu0") {
      o.bilu0 = false;
    } else if (arg == "--json") {
      o.json_path = args.value();
    } else if (arg == "--reps") {
      o.reps = int(parse_count(arg, args.value(), 1));
      reps_set = true;
    } else if (arg == "--rows") {
      o.rows = parse_count(arg, args.value(), 1);
      rows_set = true;
    } else if (arg == "--triad-doubles") {
      o.triad_doubles = parse_count(arg, args.value(), 1);
      triad_set = true;
    } else if (arg == "--block-sizes") {
      o.block_sizes = parse_block_sizes(args.value());
    } else {
      args.reject();
    }
  }
  if (o.quick) {
    if (!rows_set) o.rows = 20'000;
    if (!reps_set) o.reps = 3;
    if (!triad_set) o.triad_doubles = 1 << 20;
  }
  return o;
}

// Bytes an SpMV must move at least: every value and index once, x read once,
// y written once (x re-reads are assumed to hit cache).
double spmv_bytes(const BsrMatrix& a) {
  const double nnzb = a.nnz_blocks();
  return nnzb * a.block_entries() * 8.0 + nnzb * 4.0 + (a.block_rows + 1.0) * 4.0 + 2.0 * 8.0 * a.rows();
}

double gbytes_per_s(double bytes, double seconds) { return bytes / seconds * 1e-9; }

double max_relative_difference(const std::vector<double>& got, const std::vector<double>& want) {
  double diff = 0.0, scale = 0.0;
  for (std::size_t i = 0; i < want.size(); ++i) {
    diff = std::max(diff, std::abs(got[i] - want[i]));
    scale = std::max(scale, std::abs(want[i]));
  }
  return scale > 0.0 ? diff / scale : diff;
}

struct Timed {
  double seconds = NAN;
  double gbytes_per_s = NAN;
  double fraction_of_triad = NAN;
  double max_rel_diff = NAN;  // against the host reference product
};

void write(JsonWriter& json, std::string_view key, const Timed& t) {
  if (std::isnan(t.seconds)) {
    json.null(key);
    return;
  }
  json.begin_object(key)
      .value("best_seconds", t.seconds)
      .value("gbytes_per_s", t.gbytes_per_s)
      .value("fraction_of_triad", t.fraction_of_triad)
      .value("max_rel_diff_vs_host_ref", t.max_rel_diff)
      .end_object();
}

struct SpmvCase {
  int block_size = 0;
  index_t grid = 0;  // grid x grid x grid cells
  index_t rows = 0;
  index_t nnz_blocks = 0;
  double bytes = 0.0;
  Timed host, host_ref, cuda, cuda_ref, cuda_flat;  // cuda_flat: block sizes <= 8 only
  bool has_bilu0 = false;
  double bilu0_symbolic_seconds = NAN, bilu0_factor_seconds = NAN, bilu0_apply_seconds = NAN;
};

Timed timed(double seconds, double bytes, double triad_gbs, double diff) {
  Timed t;
  t.seconds = seconds;
  t.gbytes_per_s = gbytes_per_s(bytes, seconds);
  t.fraction_of_triad = t.gbytes_per_s / triad_gbs;
  t.max_rel_diff = diff;
  return t;
}

// Applications per timed batch on the GPU: one SpMV of the default size lasts
// tens of microseconds on an H100, comparable to launch and timer overheads.
constexpr int gpu_batch = 20;

void time_on_gpu(const BsrMatrix& a, const std::vector<double>& hx, const std::vector<double>& want, int reps,
                 double gpu_triad_gbs, SpmvCase& c) {
  const BsrOperator op(a, Backend::cuda);
  const Vector x(Backend::cuda, std::span<const double>(hx));
  Vector y(Backend::cuda, hx.size());
  auto batch_seconds = [&](auto&& apply_once) {
    return best_seconds(reps,
                        [&] {
                          for (int b = 0; b < gpu_batch; ++b) apply_once();
                          TB_CUDA_CALL(gpu::synchronize());
                        }) /
           gpu_batch;
  };
  const double tuned = batch_seconds([&] { op.apply(x, y); });
  c.cuda = timed(tuned, c.bytes, gpu_triad_gbs, max_relative_difference(y.to_host(), want));
  const double simple =
      batch_seconds([&] { TB_CUDA_CALL(kernels::cuda::bsr_spmv_ref(op.view(), x.data(), y.data())); });
  c.cuda_ref = timed(simple, c.bytes, gpu_triad_gbs, max_relative_difference(y.to_host(), want));
  if (a.block_size <= 8) {
    const double flat =
        batch_seconds([&] { TB_CUDA_CALL(kernels::cuda::bsr_spmv_flat(op.view(), x.data(), y.data())); });
    c.cuda_flat = timed(flat, c.bytes, gpu_triad_gbs, max_relative_difference(y.to_host(), want));
  }
}

void time_bilu0(const BsrMatrix& a, const std::vector<double>& r, int reps, SpmvCase& c) {
  WallTimer t;
  Bilu0Factors f = bilu0_symbolic(a);
  c.bilu0_symbolic_seconds = t.seconds();
  c.bilu0_factor_seconds = best_seconds(std::min(reps, 3), [&] { precond::kernels::ref::bilu0_factor(a, f); });
  std::vector<double> z(r.size());
  c.bilu0_apply_seconds = best_seconds(reps, [&] { precond::kernels::ref::bilu0_apply(f, r.data(), z.data()); });
  c.has_bilu0 = true;
}

SpmvCase run_case(int bs, const Options& o, double host_triad_gbs, double gpu_triad_gbs) {
  SpmvCase c;
  c.block_size = bs;
  c.grid = std::max<index_t>(2, index_t(std::lround(std::cbrt(double(o.rows) / bs))));
  Stencil7Params p;
  p.nx = p.ny = p.nz = c.grid;
  p.block_size = bs;
  const BsrMatrix a = generate_stencil7(p);
  c.rows = a.rows();
  c.nnz_blocks = a.nnz_blocks();
  c.bytes = spmv_bytes(a);

  std::vector<double> x(std::size_t(a.rows())), want(x.size()), y(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = std::sin(0.37 * double(i)) + 0.5;
  const double ref_seconds = best_seconds(std::max(1, o.reps / 3), [&] { spmv_ref(a, x.data(), want.data()); });
  c.host_ref = timed(ref_seconds, c.bytes, host_triad_gbs, 0.0);
  const double host_seconds = best_seconds(o.reps, [&] { spmv(a, x.data(), y.data()); });
  c.host = timed(host_seconds, c.bytes, host_triad_gbs, max_relative_difference(y, want));

  if (gpu_triad_gbs > 0.0) time_on_gpu(a, x, want, o.reps, gpu_triad_gbs, c);
  if (o.bilu0) time_bilu0(a, x, o.reps, c);
  return c;
}

std::string fixed(double v, int width, int precision) {
  if (std::isnan(v)) return std::string(std::size_t(width - 1), ' ') + "-";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%*.*f", width, precision, v);
  return buf;
}

void print_spmv_table(const std::vector<SpmvCase>& cases) {
  std::cout << "\nBSR SpMV, stencil7 (GB/s = bytes of values, col_idx, row_ptr, x, y once / best time)\n"
            << "  bs  grid      rows  nnz_blocks    MB | host GB/s  %triad  ref GB/s | cuda GB/s  %triad  ref GB/s "
               "flat GB/s\n";
  for (const SpmvCase& c : cases) {
    std::printf("%4d %5d %9d %11d %6.0f | %9s %7s %9s | %9s %7s %9s %9s\n", c.block_size, c.grid, c.rows, c.nnz_blocks,
                c.bytes * 1e-6, fixed(c.host.gbytes_per_s, 9, 2).c_str(),
                fixed(100.0 * c.host.fraction_of_triad, 7, 1).c_str(), fixed(c.host_ref.gbytes_per_s, 9, 2).c_str(),
                fixed(c.cuda.gbytes_per_s, 9, 1).c_str(), fixed(100.0 * c.cuda.fraction_of_triad, 7, 1).c_str(),
                fixed(c.cuda_ref.gbytes_per_s, 9, 1).c_str(), fixed(c.cuda_flat.gbytes_per_s, 9, 1).c_str());
  }
  // Round-off of a sum of at most 7 * 64 products sits far below this.
  constexpr double suspicious = 1e-10;
  for (const SpmvCase& c : cases)
    for (const Timed* t : {&c.host, &c.cuda, &c.cuda_ref, &c.cuda_flat})
      if (t->max_rel_diff > suspicious)
        std::printf("WARNING: block size %d: a product differs from spmv_ref by %.3g (relative)\n", c.block_size,
                    t->max_rel_diff);
}

void print_bilu0_table(const std::vector<SpmvCase>& cases) {
  std::cout << "\nSequential BILU(0) (host, natural order), same matrices\n"
            << "  bs  symbolic s  factor s   apply s  apply/spmv(host)  apply/spmv_ref\n";
  for (const SpmvCase& c : cases) {
    if (!c.has_bilu0) continue;
    std::printf("%4d %11.4f %9.4f %9.5f %17.2f %15.2f\n", c.block_size, c.bilu0_symbolic_seconds,
                c.bilu0_factor_seconds, c.bilu0_apply_seconds, c.bilu0_apply_seconds / c.host.seconds,
                c.bilu0_apply_seconds / c.host_ref.seconds);
  }
}

void write_json(const Options& o, const Machine& m, double host_triad_s, double gpu_triad_s,
                const std::vector<SpmvCase>& cases) {
  JsonWriter json;
  json.begin_object().value("benchmark", "tb-bench-spmv");
  write(json, m);
  json.begin_object("config")
      .value("quick", o.quick)
      .value("reps", o.reps)
      .value("target_rows", o.rows)
      .value("triad_doubles", o.triad_doubles)
      .value("matrix", "stencil7 (generate_stencil7 defaults), grid^3 cells")
      .end_object();
  const double bytes = triad_bytes(std::size_t(o.triad_doubles));
  json.begin_object("triad").value("bytes", (long long)bytes);
  json.begin_object("host")
      .value("best_seconds", host_triad_s)
      .value("gbytes_per_s", gbytes_per_s(bytes, host_triad_s))
      .end_object();
  if (gpu_triad_s > 0.0)
    json.begin_object("cuda")
        .value("best_seconds", gpu_triad_s)
        .value("gbytes_per_s", gbytes_per_s(bytes, gpu_triad_s))
        .end_object();
  else
    json.null("cuda");
  json.end_object();
  json.begin_array("spmv");
  for (const SpmvCase& c : cases) {
    json.begin_object()
        .value("block_size", c.block_size)
        .value("grid", c.grid)
        .value("rows", c.rows)
        .value("nnz_blocks", c.nnz_blocks)
        .value("bytes", (long long)c.bytes);
    write(json, "host", c.host);
    write(json, "host_ref", c.host_ref);
    write(json, "cuda", c.cuda);
    write(json, "cuda_ref", c.cuda_ref);
    write(json, "cuda_flat", c.cuda_flat);
    if (c.has_bilu0) {
      json.begin_object("bilu0")
          .value("symbolic_seconds", c.bilu0_symbolic_seconds)
          .value("factor_seconds", c.bilu0_factor_seconds)
          .value("apply_seconds", c.bilu0_apply_seconds)
          .value("apply_over_spmv_host", c.bilu0_apply_seconds / c.host.seconds)
          .value("apply_over_spmv_host_ref", c.bilu0_apply_seconds / c.host_ref.seconds)
          .end_object();
    } else {
      json.null("bilu0");
    }
    json.end_object();
  }
  json.end_array().end_object();
  json.save(o.json_path);
}

int run(int argc, char** argv) {
  const Options o = parse_options(argc, argv);
  const Machine m = describe_machine();
  std::cout << summary(m);

  const std::size_t n = std::size_t(o.triad_doubles);
  const double bytes = triad_bytes(n);
  const double host_triad_s = host_triad_seconds(n, o.reps);
  const double host_triad_gbs = gbytes_per_s(bytes, host_triad_s);
  std::printf("\nSTREAM triad, %lld doubles per array (%.0f MB moved)\n  host  %8.2f GB/s\n", o.triad_doubles,
              bytes * 1e-6, host_triad_gbs);
  double gpu_triad_s = 0.0, gpu_triad_gbs = 0.0;
  if (!m.gpu.empty()) {
    gpu_triad_s = TB_CUDA_CALL(gpu::triad_seconds(n, o.reps));
    gpu_triad_gbs = gbytes_per_s(bytes, gpu_triad_s);
    std::printf("  cuda  %8.1f GB/s\n", gpu_triad_gbs);
  }

  std::vector<SpmvCase> cases;
  for (int bs : o.block_sizes) cases.push_back(run_case(bs, o, host_triad_gbs, gpu_triad_gbs));
  print_spmv_table(cases);
  if (o.bilu0) print_bilu0_table(cases);
  if (!o.json_path.empty()) {
    write_json(o, m, host_triad_s, gpu_triad_s, cases);
    std::cout << "\nwrote " << o.json_path << "\n";
  }
  return 0;
}

}  // namespace
}  // namespace tb::bench

int main(int argc, char** argv) { return tb::bench::guarded_main("tb-bench-spmv", argc, argv, tb::bench::run); }
