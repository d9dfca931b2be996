// tb-bench-fgbilu: seed 000's Fig. 9, Fig. 10 and Tables 3-4. Per-point times
// t_p = T / (I J K) of the factorisation (Eq. 1), one triangular solve (both
// sweeps) and the residual (Algorithm 7) for each FGBILU variant, against the
// sequential natural-order baseline measured in the same run:
//   cubes 15^3 .. 65^3 at n = 6 (Fig. 9, Table 3), and n = 1..32 at roughly
//   constant n^2 I J K (Fig. 10).
// On a GPU also acc and cl on CUDA (cl with one launch per hyperplane and with
// one launch per sweep, each also with its solve replayed as a CUDA graph), the
// device launches of one solve, the cuSPARSE bsrilu02 + bsrsv2 baseline, the
// target ratio (cl factorisation + both sweeps against cuSPARSE), and the
// residual kernel's bandwidth against the device's STREAM triad.
// Run with --help; docs/fgbilu.md explains the figures.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "../common/command_line.hpp"
#include "../common/cuda/gpu_baseline.hpp"
#include "../common/stream_triad.hpp"
#include "../common/timing.hpp"
#include "cuda/cusparse_bilu0.hpp"
#include "solvers/core/array.hpp"
#include "solvers/core/cuda_call.hpp"
#include "solvers/core/device_launches.hpp"
#include "solvers/core/error.hpp"
#include "solvers/core/json_writer.hpp"
#include "solvers/core/machine.hpp"
#include "solvers/fgbilu/fgbilu.hpp"
#include "solvers/matrix/generate.hpp"

namespace tb::bench {
namespace {

using fgbilu::Variant;

struct Options {
  bool quick = false;
  int reps = 3;
  std::vector<int> cubes = {15, 25, 35, 45, 55, 65};
  std::vector<int> block_sizes = {1, 2, 3, 4, 5, 6, 8, 10, 12, 16, 20, 24, 28, 32};
  double sweep_entries = 2.0e6;  // n^2 I J K of the block-size sweep (the paper: 1.8e7 on a 3 GB GPU)
  std::string json_path, md_path;
};

const char* usage =
    "usage: tb-bench-fgbilu [--quick] [--json FILE] [--md FILE] [--reps N] [--cubes 15,25,..]\n"
    "                       [--block-sizes 1,2,..] [--sweep-entries N]\n"
    "  --quick            smoke run: cubes 8,12 and block sizes 1,6,32 on tiny grids, 1 repetition\n"
    "  --json FILE        write the results with the machine description as JSON\n"
    "  --md FILE          write the Markdown tables beside the paper's numbers\n"
    "  --reps N           timed repetitions, best reported (default 3)\n"
    "  --cubes L          edge lengths of the n = 6 cubes (default 15,25,35,45,55,65)\n"
    "  --block-sizes L    block sizes of the sweep (default 1,2,3,4,5,6,8,10,12,16,20,24,28,32)\n"
    "  --sweep-entries N  n^2 I J K of each sweep grid (default 2e6)\n"
    "OpenMP threads come from OMP_NUM_THREADS.\n";

std::vector<int> parse_ints(const std::string& flag, const std::string& text, long long lo, long long hi) {
  std::vector<int> out;
  for (long long v : parse_count_list(flag, text, lo, hi)) out.push_back(int(v));
  return out;
}

Options parse_options(int argc, char** argv) {
  Options o;
  for (ArgumentList args(argc, argv, usage); args.next();) {
    const std::string& arg = args.flag();
    if (arg == "--quick") {
      o.quick = true;
      o.reps = 1;
      o.cubes = {8, 12};
      o.block_sizes = {1, 6, 32};
      o.sweep_entries = 2.0e4;
    } else if (arg == "--json") {
      o.json_path = args.value();
    } else if (arg == "--md") {
      o.md_path = args.value();
    } else if (arg == "--reps") {
      o.reps = int(parse_count_list(arg, args.value(), 1, 1000).front());
    } else if (arg == "--cubes") {
      o.cubes = parse_ints(arg, args.value(), 2, 400);
    } else if (arg == "--block-sizes") {
      o.block_sizes = parse_ints(arg, args.value(), 1, 32);
    } else if (arg == "--sweep-entries") {
      o.sweep_entries = double(parse_count_list(arg, args.value(), 1000, 2'000'000'000).front());
    } else {
      args.reject();
    }
  }
  return o;
}

// Per-point microseconds of the three FGBILU components; NaN when not run.
struct PointTimes {
  double factor = NAN, solve = NAN, residual = NAN;
};

struct Row {
  // "seq", "omp", "acc-host", "acc-cuda", "cl-cuda", "cl-sweep-cuda", "cl-cuda-graph", "cl-sweep-cuda-graph",
  // "cusparse"
  std::string name;
  PointTimes t;
  double solve_launches = NAN;  // device launches of one solve (both sweeps); a graph's replay counts 1
};

struct Case {
  int ni, nj, nk, n;
  std::vector<Row> rows;
  double residual_gbytes_per_s = NAN;  // cl-cuda residual, Table 2's byte count
};

BsrMatrix make_matrix(int ni, int nj, int nk, int n) {
  Stencil7Params p;
  p.nx = ni, p.ny = nj, p.nz = nk, p.block_size = n, p.seed = 1;
  return generate_stencil7(p);
}

Row time_variant(std::string name, const BsrMatrix& a, Variant v, Backend backend, int reps,
                 fgbilu::Launch launch = fgbilu::Launch::plane, fgbilu::Apply apply = fgbilu::Apply::launches) {
  fgbilu::Factorization f(v, backend, launch, apply);
  f.setup(a);
  const std::size_t rows = std::size_t(a.rows());
  std::vector<double> host_b(rows);
  for (std::size_t i = 0; i < rows; ++i) host_b[i] = std::sin(0.1 * double(i)) + 1.0;
  Vector b(backend, std::span<const double>(host_b)), x(backend, rows), r(backend, rows);
  x.set_zero();
  const bool gpu = backend == Backend::cuda;
  auto sync = [&] {
    if (gpu) TB_CUDA_CALL(gpu::synchronize());
  };
  const double cells = double(a.block_rows) * 1e-6;  // microseconds per point
  Row row{std::move(name), {}, NAN};
  f.solve(b.data(), x.data());  // apply = graph: records the graph, which the timed solves replay
  sync();
  const long launches = device_launches();
  f.solve(b.data(), x.data());
  row.solve_launches = double(device_launches() - launches);
  PointTimes& t = row.t;
  t.factor = best_seconds(reps, [&] { f.factor(); }) / cells;
  t.solve = best_seconds(reps,
                         [&] {
                           f.solve(b.data(), x.data());
                           sync();
                         }) /
            cells;
  t.residual = best_seconds(reps,
                            [&] {
                              f.residual(b.data(), x.data(), r.data());
                              sync();
                            }) /
               cells;
  return row;
}

const Row* find_row(const Case& c, std::string_view name) {
  for (const Row& r : c.rows)
    if (r.name == name) return &r;
  return nullptr;
}

// The GPU target's ratio: cuSPARSE's factorisation + solve time over the row's; NaN without cuSPARSE.
double factor_solve_vs_cusparse(const Case& c, const Row& r) {
  const Row* cs = find_row(c, "cusparse");
  return cs ? (cs->t.factor + cs->t.solve) / (r.t.factor + r.t.solve) : NAN;
}

Case run_case(int ni, int nj, int nk, int n, int reps, bool gpu) {
  Case c{ni, nj, nk, n, {}, NAN};
  const BsrMatrix a = make_matrix(ni, nj, nk, n);
  using fgbilu::Apply;
  using fgbilu::Launch;
  c.rows.push_back(time_variant("seq", a, Variant::seq, Backend::host, reps));
  c.rows.push_back(time_variant("omp", a, Variant::omp, Backend::host, reps));
  c.rows.push_back(time_variant("acc-host", a, Variant::acc, Backend::host, reps));
  if (gpu) {
    c.rows.push_back(time_variant("acc-cuda", a, Variant::acc, Backend::cuda, reps));
    c.rows.push_back(time_variant("cl-cuda", a, Variant::cl, Backend::cuda, reps));
    c.rows.push_back(time_variant("cl-sweep-cuda", a, Variant::cl, Backend::cuda, reps, Launch::sweep));
    c.rows.push_back(time_variant("cl-cuda-graph", a, Variant::cl, Backend::cuda, reps, Launch::plane, Apply::graph));
    c.rows.push_back(
        time_variant("cl-sweep-cuda-graph", a, Variant::cl, Backend::cuda, reps, Launch::sweep, Apply::graph));
    const auto cs = TB_CUDA_CALL(gpu::cusparse_bilu0_seconds(a, reps));
    const double cells = double(a.block_rows) * 1e-6;
    c.rows.push_back({"cusparse", {cs.factor / cells, cs.solve / cells, NAN}, NAN});
    // Table 2: the residual reads 7 n^2 matrix and 3 n vector doubles per point.
    const double bytes = 8.0 * (7.0 * n * n + 3.0 * n) * a.block_rows;
    c.residual_gbytes_per_s = bytes / (find_row(c, "cl-cuda")->t.residual * cells) * 1e-9;
  }
  std::fprintf(stderr, "%dx%dx%d n=%d:", ni, nj, nk, n);
  for (const Row& r : c.rows)
    std::fprintf(stderr, " %s %.3g/%.3g/%.3g", r.name.c_str(), r.t.factor, r.t.solve, r.t.residual);
  std::fprintf(stderr, " us/pt\n");
  return c;
}

void write_times(JsonWriter& json, const PointTimes& t) {
  json.value("factor_us_per_point", t.factor)
      .value("solve_us_per_point", t.solve)
      .value("residual_us_per_point", t.residual);
}

void write_cases(JsonWriter& json, std::string_view key, const std::vector<Case>& cases) {
  json.begin_array(key);
  for (const Case& c : cases) {
    json.begin_object().value("ni", c.ni).value("nj", c.nj).value("nk", c.nk).value("n", c.n);
    json.value("residual_gbytes_per_s", c.residual_gbytes_per_s);
    json.begin_array("variants");
    for (const Row& r : c.rows) {
      json.begin_object().value("variant", r.name);
      write_times(json, r.t);
      json.value("solve_launches", r.solve_launches);
      json.value("speedup_factor_vs_seq", c.rows[0].t.factor / r.t.factor)
          .value("speedup_solve_vs_seq", c.rows[0].t.solve / r.t.solve)
          .value("speedup_residual_vs_seq", c.rows[0].t.residual / r.t.residual)
          .value("speedup_factor_solve_vs_cusparse", factor_solve_vs_cusparse(c, r));
      json.end_object();
    }
    json.end_array().end_object();
  }
  json.end_array();
}

std::string fmt(double v, const char* f = "%.3g") {
  if (std::isnan(v)) return "-";
  char buf[32];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

// Spinning barriers (libgomp's default) collapse when another process holds a
// core, so the policy is part of the result.
std::string wait_policy() {
  const char* p = std::getenv("OMP_WAIT_POLICY");
  return p ? p : "unset";
}

std::string markdown(const Options& o, const Machine& m, const std::vector<Case>& cubes, const std::vector<Case>& sweep,
                     double gpu_triad) {
  std::string s = "# tb-bench-fgbilu (seed 000: Fig. 9, Fig. 10, Tables 3-4)\n\n";
  s += "Machine: " + m.cpu_model + ", " + std::to_string(m.host_threads) +
       " OpenMP threads, GPU: " + (m.gpu.empty() ? std::string("none") : m.gpu) + ", commit " + m.git_commit + ", " +
       m.date_utc + ".\n";
  s += "OMP_WAIT_POLICY=" + wait_policy() + ", 1-minute load average at start " + fmt(m.load_average, "%.2f") + ".\n";
  s += "t_p in microseconds per grid point (best of " + std::to_string(o.reps) +
       "); ratio = seq t_p / variant t_p, measured in the same run.\n\n";
  s += "## Fig. 9 / Table 3: cubes, n = 6\n\n";
  s += "| grid | variant | factor t_p | solve t_p | residual t_p | factor ratio | solve ratio | residual ratio | "
       "launches per solve |\n";
  s += "|---|---|---|---|---|---|---|---|---|\n";
  for (const Case& c : cubes)
    for (const Row& r : c.rows)
      s += "| " + std::to_string(c.ni) + "^3 | " + r.name + " | " + fmt(r.t.factor) + " | " + fmt(r.t.solve) + " | " +
           fmt(r.t.residual) + " | " + fmt(c.rows[0].t.factor / r.t.factor, "%.2f") + " | " +
           fmt(c.rows[0].t.solve / r.t.solve, "%.2f") + " | " + fmt(c.rows[0].t.residual / r.t.residual, "%.2f") +
           " | " + fmt(r.solve_launches, "%.0f") + " |\n";
  s += "\nThe paper (Table 3, n = 6, largest cube 65^3): sequential CPU (Xeon E5645, one core) factor 3.48, "
       "solve 0.84, residual 0.51 us; CUDA FGBILU (M2050) 0.122, 0.0604, 0.0324 us: 29x, 14x, 16x. "
       "Fig. 9 gives only curves: sequential t_p is flat in the grid size, the 6-core OpenMP wavefront is slower than "
       "sequential on small grids and gains with size.\n\n";
  if (!cubes.empty() && find_row(cubes.front(), "cusparse")) {
    s += "## GPU target: cl factorisation + both sweeps against cuSPARSE bsrilu02 + bsrsv2 (n = 6; goal >= 3x at "
         "65^3)\n\n| grid | cl, launch per plane | cl, launch per sweep | cl, plane, graph | cl, sweep, graph "
         "|\n|---|---|---|---|---|\n";
    for (const Case& c : cubes) {
      s += "| " + std::to_string(c.ni) + "^3";
      for (const char* name : {"cl-cuda", "cl-sweep-cuda", "cl-cuda-graph", "cl-sweep-cuda-graph"})
        s += " | " + fmt(factor_solve_vs_cusparse(c, *find_row(c, name)), "%.2f") + "x";
      s += " |\n";
    }
    s += "\n";
  }
  s += "## Fig. 10: block size n at about constant n^2 IJK\n\n";
  s += "| n | grid | variant | factor t_p | solve t_p | residual t_p | factor t_p / n^2 | factor ratio | solve ratio "
       "|\n";
  s += "|---|---|---|---|---|---|---|---|---|\n";
  for (const Case& c : sweep)
    for (const Row& r : c.rows)
      s += "| " + std::to_string(c.n) + " | " + std::to_string(c.ni) + "^3 | " + r.name + " | " + fmt(r.t.factor) +
           " | " + fmt(r.t.solve) + " | " + fmt(r.t.residual) + " | " + fmt(r.t.factor / (c.n * c.n), "%.3g") + " | " +
           fmt(c.rows[0].t.factor / r.t.factor, "%.2f") + " | " + fmt(c.rows[0].t.solve / r.t.solve, "%.2f") + " |\n";
  s += "\nThe paper (Fig. 10, curves only): t_p of every component grows like n^2 for large n; the wavefront variants "
       "fall short of n^2 scaling at small n.\n\n";
  if (!std::isnan(gpu_triad))
    s += "Device STREAM triad: " + fmt(gpu_triad) + " GB/s.\n";
  else
    s += "No GPU on this machine: the acc-cuda, cl-cuda, cl-sweep-cuda, the two graph rows and cuSPARSE and the "
         "residual bandwidth against the device triad (Table 4) were not run.\n";
  return s;
}

int run(int argc, char** argv) {
  const Options o = parse_options(argc, argv);
  const Machine m = describe_machine();
  const bool gpu = cuda_device_count() > 0;
  double gpu_triad = NAN;
  if (gpu)
    gpu_triad =
        triad_bytes(std::size_t(1) << 26) / TB_CUDA_CALL(gpu::triad_seconds(std::size_t(1) << 26, o.reps)) * 1e-9;
  std::vector<Case> cubes, sweep;
  for (int e : o.cubes) cubes.push_back(run_case(e, e, e, 6, o.reps, gpu));
  for (int n : o.block_sizes) {
    const int edge = std::max(4, int(std::lround(std::cbrt(o.sweep_entries / (double(n) * n)))));
    sweep.push_back(run_case(edge, edge, edge, n, o.reps, gpu));
  }
  if (!o.json_path.empty()) {
    JsonWriter json;
    json.begin_object().value("benchmark", "tb-bench-fgbilu");
    write(json, m);
    json.begin_object("config")
        .value("reps", o.reps)
        .value("sweep_entries", o.sweep_entries)
        .value("omp_wait_policy", wait_policy())
        .end_object();
    json.value("gpu_triad_gbytes_per_s", gpu_triad);
    write_cases(json, "cubes_n6", cubes);
    write_cases(json, "block_size_sweep", sweep);
    json.end_object();
    json.save(o.json_path);
  }
  const std::string md = markdown(o, m, cubes, sweep, gpu_triad);
  if (!o.md_path.empty()) {
    std::ofstream f(o.md_path);
    if (!(f << md)) throw Error("cannot write " + o.md_path);
  } else {
    std::cout << md;
  }
  return 0;
}

}  // namespace
}  // namespace tb::bench

int main(int argc, char** argv) { return tb::bench::guarded_main("tb-bench-fgbilu", argc, argv, tb::bench::run); }
