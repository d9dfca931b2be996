// tb-bench-multicolor: seed 002's study (Tables II-IV, Fig. 14) on our kernels:
// the time of one sweep of the multicolour point-implicit solver over
// tetrahedral-mesh block matrices of the paper's sizes, for a range of block
// sizes, with the sequential reference, the OpenMP kernel (1 and all threads),
// and on a GPU the tuned kernels, their one-thread-per-row twin, the fused
// one-launch sweep and the cuSPARSE bsrmv + cuBLAS trsmBatched baseline, with
// the ratio (library fp64 time over each CUDA kernel's). The matrices:
// Kuhn-triangulated boxes of about the paper's sizes (the default), the node
// graphs of Gmsh tetrahedral meshes (--mesh), and miniapp Jacobians (--system).
//
//   build/bin/tb-bench-multicolor --quick
//   build/bin/tb-bench-multicolor --json bench/results/host-multicolor.json
//   build/bin/tb-bench-multicolor --sizes 983633 --block-sizes 5 --reps 5
//   scripts/make-meshes.sh tet && build/bin/tb-bench-multicolor --mesh inputs/meshes/generated/tet_sphere_6k.msh
//   build/bin/tb-comp2d --steps 200 --dump-systems 200 --out /tmp/cyl &&
//     build/bin/tb-bench-multicolor --system /tmp/cyl/systems/step200-flow-A.mtx
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "../common/block_system.hpp"
#include "../common/command_line.hpp"
#include "../common/cuda/gpu_baseline.hpp"
#include "../common/stream_triad.hpp"
#include "../common/timing.hpp"
#include "mesh/graph/colouring.hpp"
#include "mesh/graph/permutation.hpp"
#include "mesh/graph/rcm.hpp"
#include "mesh/io/gmsh_reader.hpp"
#include "mesh/mesh_graph.hpp"
#include "solvers/core/array.hpp"
#include "solvers/core/backend.hpp"
#include "solvers/core/cuda_call.hpp"
#include "solvers/core/json_writer.hpp"
#include "solvers/core/machine.hpp"
#include "solvers/matrix/dominant_blocks.hpp"
#include "solvers/matrix/tetrahedral_box.hpp"
#include "solvers/multicolor/device_split.hpp"
#include "solvers/multicolor/point_implicit.hpp"

namespace tb::bench {
namespace {

using multicolor::Kernel;
using multicolor::Precision;

struct Options {
  bool quick = false;
  int reps = 5;
  std::vector<long long> sizes = {6309, 103178, 394745, 983633};  // Table II's n
  bool sizes_set = false;
  std::vector<long long> block_sizes;  // empty: Table II's range per size
  std::vector<std::string> meshes;     // Gmsh tetrahedral meshes
  bool mesh_rcm = true;                // renumber their nodes by RCM first, as FUN3D does (seed 002 §II)
  std::vector<std::string> systems;    // MatrixMarket block systems
  long long triad_doubles = 1LL << 25;
  std::string json_path;
  bool gpu_only = false;  // skip the host rows (most of a large case's time)
};

const char* usage =
    "usage: tb-bench-multicolor [--quick] [--gpu-only] [--json FILE] [--reps N] [--sizes N,N,...] [--block-sizes L]\n"
    "                           [--mesh FILE.msh]... [--mesh-order rcm|none] [--system A.mtx]...\n"
    "  --quick          smoke run: n = 6309, nb = 1,4,5, 2 repetitions\n"
    "  --gpu-only       only the CUDA rows (refused without a device)\n"
    "  --json FILE      also write the results with machine information as JSON\n"
    "  --reps N         timed sweeps per case, the best is reported (default 5)\n"
    "  --sizes L        target block rows (default Table II: 6309,103178,394745,983633)\n"
    "  --block-sizes L  block sizes 1..64 for every size (default Table II's range: 1-10,16,17,32,64\n"
    "                   for the smallest size, 1-10 up to 400k rows, 1-6 above)\n"
    "  --mesh FILE.msh  the node graph of a Gmsh tetrahedral mesh with random values (repeat;\n"
    "                   scripts/make-meshes.sh tet makes spheres of Table II's sizes)\n"
    "  --mesh-order O   the meshes' node order: rcm (default; FUN3D's, seed 002 §II) or none (Gmsh's)\n"
    "  --system A.mtx   a miniapp's Jacobian at its own block size (repeat; tb-comp2d --dump-systems)\n"
    "  With --mesh or --system the generated boxes run only when --sizes is given.\n";

Options parse_options(int argc, char** argv) {
  Options o;
  bool reps_set = false;
  for (ArgumentList args(argc, argv, usage); args.next();) {
    const std::string& arg = args.flag();
    if (arg == "--quick") {
      o.quick = true;
    } else if (arg == "--gpu-only") {
      o.gpu_only = true;
    } else if (arg == "--json") {
      o.json_path = args.value();
    } else if (arg == "--reps") {
      o.reps = int(parse_count(arg, args.value(), 1));
      reps_set = true;
    } else if (arg == "--sizes") {
      o.sizes = parse_count_list(arg, args.value(), 8, 20'000'000);
      o.sizes_set = true;
    } else if (arg == "--mesh") {
      o.meshes.push_back(args.value());
    } else if (arg == "--mesh-order") {
      const std::string order = args.value();
      if (order != "rcm" && order != "none") throw Error("--mesh-order: expected rcm or none, got '" + order + "'");
      o.mesh_rcm = order == "rcm";
    } else if (arg == "--system") {
      o.systems.push_back(args.value());
    } else if (arg == "--block-sizes") {
      o.block_sizes = parse_count_list(arg, args.value(), 1, max_block_size);
    } else {
      args.reject();
    }
  }
  if ((!o.meshes.empty() || !o.systems.empty()) && !o.sizes_set) o.sizes.clear();
  if (o.quick) {
    if (!o.sizes.empty()) o.sizes = {6309};
    if (o.block_sizes.empty()) o.block_sizes = {1, 4, 5};
    if (!reps_set) o.reps = 2;
    o.triad_doubles = 1 << 22;
  }
  return o;
}

std::vector<long long> default_block_sizes(long long n) {
  if (n < 50'000) return {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 16, 17, 32, 64};
  if (n < 500'000) return {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
  return {1, 2, 3, 4, 5, 6};
}

// A box of about n nodes, as close to a cube as whole numbers allow.
TetrahedralBoxParams box_for(long long n, long long nb) {
  TetrahedralBoxParams p;
  p.nx = p.ny = index_t(std::llround(std::cbrt(double(n))));
  p.nz = index_t(std::max(1LL, std::llround(double(n) / (double(p.nx) * p.ny))));
  p.block_size = index_t(nb);
  return p;
}

// One block pattern of the study and the block sizes put on it.
struct MatrixSource {
  std::string label;  // "tetbox", the mesh's or the system's file name
  std::vector<long long> block_sizes;
  std::function<BsrMatrix(long long nb)> make;
};

std::vector<long long> block_sizes_for(const Options& o, long long n) {
  return o.block_sizes.empty() ? default_block_sizes(n) : o.block_sizes;
}

std::vector<MatrixSource> matrix_sources(const Options& o) {
  std::vector<MatrixSource> out;
  for (long long n : o.sizes)
    out.push_back(
        {"tetbox", block_sizes_for(o, n), [n](long long nb) { return generate_tetrahedral_box(box_for(n, nb)); }});
  for (const std::string& path : o.meshes) {
    // Read once; the pattern is the same for every block size.
    Graph g = node_graph(read_gmsh_tetrahedra(path));
    if (o.mesh_rcm) g = permute(g, rcm_ordering(g));
    auto graph = std::make_shared<const Graph>(std::move(g));
    out.push_back(
        {system_name(path) + (o.mesh_rcm ? "-rcm" : ""), block_sizes_for(o, graph->size()),
         [graph](long long nb) { return dominant_block_matrix(graph->row_ptr, graph->col_idx, index_t(nb), 1); }});
  }
  for (const std::string& path : o.systems) {
    auto a = std::make_shared<const BsrMatrix>(read_block_system(path));
    out.push_back({system_name(path), {a->block_size}, [a](long long) { return *a; }});
  }
  return out;
}

// Bytes the block SpMV of step 1 must move at least: O's values and indices,
// three vectors once (b and x read, q written; re-reads of x assumed to hit cache).
double matvec_bytes(const multicolor::ColourPattern& p, Precision precision) {
  const double bb = double(p.block_size) * p.block_size, nnz = double(p.ja.size()), rows = p.block_rows;
  return nnz * bb * (precision == Precision::mixed ? 4.0 : 8.0) + nnz * 4.0 + (rows + 1) * 4.0 +
         3.0 * rows * p.block_size * 8.0;
}

// Bytes one sweep must move at least: those of step 1 (b, x read and x
// written standing for its three vectors) and D once.
double sweep_bytes(const multicolor::ColourPattern& p, Precision precision) {
  return matvec_bytes(p, precision) + double(p.block_rows) * p.block_size * p.block_size * 8.0;
}

struct Row {
  std::string kernel;  // "ref", "tuned 1t", "tuned 2t", "cuda tuned", ...
  std::string precision;
  double seconds = NAN;
  double gbytes_per_s = NAN;
  double fraction_of_triad = NAN;
};

struct ColourSizes {
  long long colours = 0, largest = 0, smallest = 0;
};

ColourSizes colour_sizes(const std::vector<index_t>& sizes) {
  return {(long long)sizes.size(), *std::max_element(sizes.begin(), sizes.end()),
          *std::min_element(sizes.begin(), sizes.end())};
}

struct Case {
  std::string matrix;
  long long n = 0, nb = 0, nnz = 0, nnz_o = 0;  // nnz: blocks with the diagonal, Table II's nmz
  ColourSizes balanced;                         // the colouring the solver uses
  ColourSizes greedy;                           // plain first-fit, as in Table II
  std::vector<Row> rows;
};

const char* name(Precision p) { return p == Precision::mixed ? "mixed" : "double"; }

double host_sweep_seconds(const multicolor::ColourPattern& p, const multicolor::SplitValues& v, Kernel k, int reps) {
  std::vector<double> b(std::size_t(p.block_rows) * p.block_size, 1.0), x(b.size(), 0.0);
  return best_seconds(reps, [&] { multicolor::point_implicit_sweeps(p, v, k, 1, b.data(), x.data()); });
}

// Step 1 alone over every colour (the Table I block SpMV), on the device copy
// the preconditioner would make; x = 0, which reads as much as any x.
double device_matvec_seconds(const multicolor::ColourPattern& p, const multicolor::SplitValues& v, Precision precision,
                             int reps) {
  multicolor::Options o;
  o.precision = precision, o.kernel = Kernel::tuned;
  multicolor::DeviceSplit split(p, o);
  split.upload_values(v);
  return best_seconds(reps, [&] {
    split.matvec_only(p);
    TB_CUDA_CALL(gpu::synchronize());
  });
}

// One sweep through the preconditioner on the device (its gather and scatter
// of r and z, 2 x rows x nb doubles, are included).
double device_sweep_seconds(const BsrMatrix& a, Kernel k, Precision precision, int reps) {
  multicolor::Options o;
  o.kernel = k, o.precision = precision;
  auto m = multicolor::make_preconditioner(o);
  m->setup(a, Backend::cuda);
  Vector r(Backend::cuda, std::size_t(a.rows())), z(Backend::cuda, std::size_t(a.rows()));
  r.set_zero();
  return best_seconds(reps, [&] {
    m->apply(r, z);
    TB_CUDA_CALL(gpu::synchronize());
  });
}

Case run_case(const MatrixSource& source, long long nb, const Options& o, double host_triad, double gpu_triad) {
  const BsrMatrix a = source.make(nb);
  const multicolor::ColourPattern p = multicolor::build_colour_pattern(a, true);
  Case c;
  c.matrix = source.label;
  c.n = a.block_rows, c.nb = a.block_size, c.nnz = a.nnz_blocks(), c.nnz_o = (long long)p.ja.size();
  std::vector<index_t> sizes;
  for (index_t k = 0; k < p.num_colours(); ++k) sizes.push_back(p.colour_size(k));
  c.balanced = colour_sizes(sizes);
  c.greedy =
      colour_sizes(greedy_colouring(graph_from_pattern(a.block_rows, a.row_ptr.data(), a.col_idx.data())).sizes());
  const int all_threads = host_threads();
  for (Precision precision : {Precision::mixed, Precision::fp64}) {
    multicolor::SplitValues v = multicolor::allocate_split_values(p, precision);
    multicolor::fill_split_values(p, a, v);
    const double bytes = sweep_bytes(p, precision);
    auto add = [&](std::string kernel, double s, double triad) {
      c.rows.push_back({std::move(kernel), name(precision), s, bytes / s * 1e-9, bytes / s / triad});
    };
    if (!o.gpu_only) {
      add("ref", host_sweep_seconds(p, v, Kernel::ref, o.reps), host_triad);
      set_host_threads(1);
      add("tuned 1t", host_sweep_seconds(p, v, Kernel::tuned, o.reps), host_triad);
      set_host_threads(all_threads);
      if (all_threads > 1)
        add("tuned " + std::to_string(all_threads) + "t", host_sweep_seconds(p, v, Kernel::tuned, o.reps), host_triad);
    }
    if (cuda_device_count() == 0) continue;
    add("cuda ref", device_sweep_seconds(a, Kernel::ref, precision, o.reps), gpu_triad);
    add("cuda tuned", device_sweep_seconds(a, Kernel::tuned, precision, o.reps), gpu_triad);
    if (p.block_size <= multicolor::fused_max_block_size)
      add("cuda fused", device_sweep_seconds(a, Kernel::fused, precision, o.reps), gpu_triad);
    {
      const double s = device_matvec_seconds(p, v, precision, o.reps), mb = matvec_bytes(p, precision);
      c.rows.push_back({"cuda spmv only", name(precision), s, mb / s * 1e-9, mb / s / gpu_triad});
    }
    if (precision == Precision::fp64)
      add("cuda library", device_sweep_seconds(a, Kernel::library, precision, o.reps), gpu_triad);
  }
  return c;
}

// The target's ratio: the library baseline's time (fp64, its only precision) over the row's; NaN without it.
double library_over(const Case& c, const Row& r) {
  for (const Row& l : c.rows)
    if (l.kernel == "cuda library")
      return r.kernel.starts_with("cuda") && r.kernel != "cuda spmv only" ? l.seconds / r.seconds : NAN;
  return NAN;
}

void print_case(const Case& c) {
  std::printf(
      "%s, n = %lld, nb = %lld: nnz = %lld blocks, %lld colours of %lld .. %lld block rows"
      " (greedy: %lld of %lld .. %lld)\n",
      c.matrix.c_str(), c.n, c.nb, c.nnz, c.balanced.colours, c.balanced.smallest, c.balanced.largest, c.greedy.colours,
      c.greedy.smallest, c.greedy.largest);
  for (const Row& r : c.rows) {
    std::printf("  %-14s %-7s %10.3f ms  %7.2f GB/s  %5.1f %% of triad", r.kernel.c_str(), r.precision.c_str(),
                r.seconds * 1e3, r.gbytes_per_s, 100.0 * r.fraction_of_triad);
    if (const double l = library_over(c, r); !std::isnan(l)) std::printf("  library/this %.2fx", l);
    std::printf("\n");
  }
}

void write_json(const Options& o, const Machine& m, double host_triad, double gpu_triad,
                const std::vector<Case>& cases) {
  JsonWriter json;
  json.begin_object();
  json.value("benchmark", "tb-bench-multicolor");
  write(json, m);
  json.begin_object("config");
  json.value("quick", o.quick)
      .value("gpu_only", o.gpu_only)
      .value("reps", o.reps)
      .value("timing", "best of reps, one sweep over all colours");
  json.value("matrix",
             "per case: tetbox = tetrahedral box (Kuhn triangulation); a mesh's name = its Gmsh tetrahedra's node "
             "graph (-rcm: renumbered by RCM first); a system's name = that MatrixMarket file. Balanced greedy "
             "colouring");
  json.end_object();
  json.begin_object("triad_gbytes_per_s").value("host", host_triad * 1e-9);
  if (gpu_triad > 0) json.value("cuda", gpu_triad * 1e-9);
  json.end_object();
  json.begin_array("cases");
  for (const Case& c : cases) {
    json.begin_object().value("matrix", c.matrix).value("n", c.n).value("nb", c.nb).value("nnz", c.nnz);
    json.value("nnz_o", c.nnz_o).value("colours", c.balanced.colours);
    json.value("max_colour_rows", c.balanced.largest).value("min_colour_rows", c.balanced.smallest);
    json.value("greedy_colours", c.greedy.colours)
        .value("greedy_max_colour_rows", c.greedy.largest)
        .value("greedy_min_colour_rows", c.greedy.smallest);
    json.begin_array("runs");
    for (const Row& r : c.rows)
      json.begin_object()
          .value("kernel", r.kernel)
          .value("precision", r.precision)
          .value("seconds", r.seconds)
          .value("gbytes_per_s", r.gbytes_per_s)
          .value("fraction_of_triad", r.fraction_of_triad)
          .value("library_fp64_over_this", library_over(c, r))
          .end_object();
    json.end_array().end_object();
  }
  json.end_array().end_object();
  json.save(o.json_path);
}

int run(int argc, char** argv) {
  const Options o = parse_options(argc, argv);
  if (o.gpu_only && cuda_device_count() == 0)
    throw Error("--gpu-only: no CUDA device (" + cuda_unavailable_reason() + ")");
  const Machine m = describe_machine();
  std::cout << summary(m);
  const std::size_t triad_n = std::size_t(o.triad_doubles);
  const double host_triad = triad_bytes(triad_n) / host_triad_seconds(triad_n, o.reps);
  double gpu_triad = 0.0;
  if (cuda_device_count() > 0) gpu_triad = triad_bytes(triad_n) / TB_CUDA_CALL(gpu::triad_seconds(triad_n, o.reps));
  std::printf("STREAM triad: host %.1f GB/s", host_triad * 1e-9);
  if (gpu_triad > 0) std::printf(", cuda %.1f GB/s", gpu_triad * 1e-9);
  std::printf("\n\n");
  std::vector<Case> cases;
  for (const MatrixSource& source : matrix_sources(o))
    for (long long nb : source.block_sizes) {
      cases.push_back(run_case(source, nb, o, host_triad, gpu_triad));
      print_case(cases.back());
      std::fflush(stdout);
      // Rewritten after every case, so a run stopped by a time limit keeps what it measured.
      if (!o.json_path.empty()) write_json(o, m, host_triad, gpu_triad, cases);
    }
  if (!o.json_path.empty()) std::cout << "\nwrote " << o.json_path << "\n";
  return 0;
}

}  // namespace
}  // namespace tb::bench

int main(int argc, char** argv) { return tb::bench::guarded_main("tb-bench-multicolor", argc, argv, tb::bench::run); }
