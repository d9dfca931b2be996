// tb-bench-async-ilu: seed 001's Tables 1-3 study on this project's
// Jacobians: FGMRES(30) iterations to rtol 1e-2 against build x apply sweeps
// of the asynchronous (block) ILU(0), per ordering, variant and thread count,
// with the sequential BILU(0) in the same ordering as the baseline.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "../common/block_system.hpp"
#include "../common/command_line.hpp"
#include "factor_quality.hpp"
#include "ordering.hpp"
#include "solvers/core/atomic_file.hpp"
#include "solvers/core/backend.hpp"
#include "solvers/core/error.hpp"
#include "solvers/core/json_writer.hpp"
#include "solvers/core/machine.hpp"
#include "solvers/factory/registry.hpp"
#include "solvers/matrix/generate.hpp"
#include "sweep_bandwidth.hpp"

namespace tb::bench {
namespace {

struct Options {
  bool quick = false;
  bool gpu_only = false;
  std::string json_path, md_path;
  bool factor_quality = false;                        // only the Fig. 7/9 measures (factor_quality.hpp)
  bool sweep_bandwidth = false;                       // only the GPU apply sweep against the triad
  std::vector<std::string> systems;                   // MatrixMarket files (block size in the file)
  int stencil_n = 12;                                 // stencil7 grid edge, n = 4 blocks
  int reps = 2;                                       // repetitions of the multi-thread runs
  std::vector<int> sweeps = {1, 2, 3, 5, 10, 20, 0};  // 0 = exact (seed 001 Tables 1-3)
  int chunk = 32;  // OpenMP chunk in block rows: small enough that 2 threads share the rows
  int maxit = 1000;
};

struct System {
  std::string name;
  BsrMatrix a;
};

struct Cell {
  int build = 0, apply = 0;  // 0 = exact
  double mean_iterations = 0;
  double rel_deviation = 0;  // std / mean over the repetitions
  int failures = 0;          // repetitions that did not converge within maxit
  double solve_s = 0;        // mean solve + update seconds
};

std::string sweeps_name(int s) { return s == 0 ? "exact" : std::to_string(s); }

const char* usage =
    "usage: tb-bench-async-ilu [--quick] [--json FILE] [--md FILE] [--system A.mtx]... [--stencil N] [--reps N]\n"
    "                          [--maxit N] [--chunk N] [--factor-quality] [--sweep-bandwidth] [--gpu-only]\n"
    "  --quick           smoke run: a 6^3 stencil7 system, sweeps 1, 3 and exact, 1 repetition\n"
    "  --json FILE       write the results with the machine description as JSON\n"
    "  --md FILE         write the Markdown tables\n"
    "  --system A.mtx    a MatrixMarket system to study (repeat; block size from the file's comment)\n"
    "  --stencil N       edge of the generated stencil7 system, n = 4 (default 12)\n"
    "  --reps N          runs per cell of the asynchronous schedule (default 2)\n"
    "  --maxit N         FGMRES iteration limit (default 1000)\n"
    "  --chunk N         OpenMP chunk in block rows (default 32)\n"
    "  --factor-quality  only the Fig. 7/9 measures of the factors\n"
    "  --sweep-bandwidth only the GPU apply sweep per block size 1..32 and mapping, against the device triad\n"
    "  --gpu-only        skip the host studies (the sequential baseline still runs): GPU time is scarce\n";

Options parse(int argc, char** argv) {
  Options o;
  for (ArgumentList args(argc, argv, usage); args.next();) {
    const std::string& arg = args.flag();
    if (arg == "--quick")
      o.quick = true;
    else if (arg == "--json")
      o.json_path = args.value();
    else if (arg == "--md")
      o.md_path = args.value();
    else if (arg == "--system")
      o.systems.push_back(args.value());
    else if (arg == "--stencil")
      o.stencil_n = int(parse_count(arg, args.value(), 2));
    else if (arg == "--reps")
      o.reps = int(parse_count(arg, args.value(), 1));
    else if (arg == "--maxit")
      o.maxit = int(parse_count(arg, args.value(), 1));
    else if (arg == "--factor-quality")
      o.factor_quality = true;
    else if (arg == "--sweep-bandwidth")
      o.sweep_bandwidth = true;
    else if (arg == "--gpu-only")
      o.gpu_only = true;
    else if (arg == "--chunk")
      o.chunk = int(parse_count(arg, args.value(), 1));
    else
      args.reject();
  }
  if (o.quick) o.stencil_n = 6, o.reps = 1, o.sweeps = {1, 3, 0};
  return o;
}

std::vector<System> load_systems(const Options& o) {
  std::vector<System> out;
  Stencil7Params p;
  p.nx = p.ny = p.nz = o.stencil_n;
  p.block_size = 4;
  p.stretch = 1.3;  // anisotropic cells near the z walls, so that lines exist
  // Large time step and strong convection and coupling: the default system
  // is solved in 3 iterations, too easy to tell sweep counts apart.
  p.dt = 1000.0, p.peclet = 1000.0, p.coupling = 0.95;
  out.push_back({"stencil7-n4-" + std::to_string(o.stencil_n) + "^3", generate_stencil7(p)});
  for (const std::string& path : o.systems) out.push_back({system_name(path), read_block_system(path)});
  return out;
}

// One FGMRES(30) solve to rtol 1e-2 from zero with b = A * ones.
SolveStats solve_once(const std::string& spec, const BsrMatrix& a) {
  auto solver = make_solver(spec);
  solver->setup(a);
  std::vector<double> ones(std::size_t(a.rows()), 1.0), b(ones.size()), x(ones.size(), 0.0);
  spmv_ref(a, ones.data(), b.data());
  SolveStats st = solver->solve(b, x);
  st.solve_seconds += st.setup_seconds;
  return st;
}

std::string krylov(int maxit, const std::string& backend = "host") {
  return "fgmres(restart=30,rtol=1e-2,maxit=" + std::to_string(maxit) + ",stagnation=0,backend=" + backend + ")";
}

Cell measure(const std::string& pre, const BsrMatrix& a, int reps, int maxit, const std::string& backend) {
  Cell c;
  std::vector<double> its;
  double seconds = 0;
  for (int r = 0; r < reps; ++r) {
    SolveStats st;
    try {
      st = solve_once(krylov(maxit, backend) + "+" + pre, a);
    } catch (const Error&) {  // a singular pivot block from too few sweeps counts as a failure
      ++c.failures;
      continue;
    }
    if (!st.converged()) ++c.failures;
    its.push_back(st.iterations);
    seconds += st.solve_seconds;
  }
  if (!its.empty()) {
    double m = 0, v = 0;
    for (double x : its) m += x;
    m /= double(its.size());
    for (double x : its) v += (x - m) * (x - m);
    c.mean_iterations = m;
    c.rel_deviation = m > 0 ? std::sqrt(v / double(its.size())) / m : 0;
    c.solve_s = seconds / double(its.size());
  }
  return c;
}

struct Study {
  std::string system, ordering, variant, backend;
  int threads = 1;  // host: 0 is the synchronous (Jacobi) schedule on 2 threads; cuda: unused
  index_t line_cells = 0;
  std::vector<Cell> cells;
  bool synchronous() const { return backend == "host" && threads == 0; }
};

std::string precond_spec(const std::string& variant, int build, int apply, int chunk, bool sync = false) {
  return variant + "(build_sweeps=" + std::to_string(build) + ",apply_sweeps=" + std::to_string(apply) +
         ",chunk=" + std::to_string(chunk) + (sync ? ",schedule=sync" : "") + ")";
}

// A table cell: the mean iteration count, `-` where a run failed.
std::string cell_text(const Cell& c) {
  if (c.failures > 0) return "-";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g", c.mean_iterations);
  return buf;
}

// Fills st's cells, build-major over the sweep counts; the GPU has no exact
// sweeps (count 0), so its table holds the finite counts only.
void measure_cells(Study& st, const BsrMatrix& a, const std::vector<int>& sweep_counts, int reps, const Options& o) {
  for (int build : sweep_counts)
    for (int apply : sweep_counts) {
      if (st.backend == "cuda" && (build == 0 || apply == 0)) continue;
      Cell c = measure(precond_spec(st.variant, build, apply, o.chunk, st.synchronous()), a, reps, o.maxit, st.backend);
      c.build = build, c.apply = apply;
      st.cells.push_back(c);
    }
}

}  // namespace
}  // namespace tb::bench

int main(int argc, char** argv) {
  using namespace tb;
  using namespace tb::bench;
  try {
    const Options o = parse(argc, argv);
    const Machine machine = describe_machine();
    std::cout << summary(machine) << "\n";
    if (o.sweep_bandwidth) return sweep_bandwidth_study(machine, o.json_path, std::max(o.reps, 5)) ? 0 : 1;
    const std::vector<System> systems = load_systems(o);
    const std::vector<int>& sweep_counts = o.sweeps;
    if (o.factor_quality) {
      std::vector<NamedMatrix> named;
      for (const System& s : systems) named.push_back({s.name, &s.a});
      factor_quality_study(named, o.chunk, machine, o.json_path, o.md_path);
      return 0;
    }
    std::vector<Study> studies;
    struct Baseline {
      std::string system, ordering;
      int iterations;
      bool converged;
      double seconds;
    };
    std::vector<Baseline> baselines;
    const bool gpu = cuda_device_count() > 0;
    for (const System& s : systems) {
      for (const Ordering& ord : study_orderings(s.a)) {
        const BsrMatrix a = permute_symmetric(s.a, ord.permutation);
        set_host_threads(1);
        const SolveStats base = solve_once(krylov(o.maxit) + "+bilu0", a);
        baselines.push_back({s.name, ord.name, base.iterations, base.converged(), base.solve_seconds});
        std::printf("%s %s: sequential BILU(0) %d iterations, %.4f s\n", s.name.c_str(), ord.name.c_str(),
                    base.iterations, base.solve_seconds);
        for (const std::string variant : {"async_bilu", "async_ilu"})
          for (int threads : {1, 2, 0}) {
            if (o.gpu_only || (variant == "async_ilu" && s.a.block_size == 1)) continue;  // b = 1: scalar is block
            set_host_threads(threads == 0 ? 2 : threads);
            Study st{s.name, ord.name, variant, "host", threads, ord.line_cells, {}};
            measure_cells(st, a, sweep_counts, threads == 2 ? o.reps : 1, o);
            studies.push_back(std::move(st));
            std::printf("  %s, %d thread(s): done\n", variant.c_str(), threads);
            std::fflush(stdout);
          }
        if (gpu) {
          Study st{s.name, ord.name, "async_bilu", "cuda", 0, ord.line_cells, {}};
          measure_cells(st, a, sweep_counts, o.reps, o);
          studies.push_back(std::move(st));
        }
      }
    }
    set_host_threads(2);
    if (!o.json_path.empty()) {
      JsonWriter j;
      j.begin_object();
      j.value("benchmark", "async_ilu sweeps study (seed 001 Tables 1-3 stand-in)");
      write(j, machine);
      j.value("krylov", krylov(o.maxit));
      j.value("repetitions_multithread", o.reps);
      j.value("chunk_block_rows", o.chunk);
      j.value("gpu_run", gpu);
      j.begin_array("systems");
      for (const System& s : systems) {
        j.begin_object();
        j.value("name", s.name);
        j.value("block_rows", (long long)s.a.block_rows);
        j.value("block_size", (long long)s.a.block_size);
        j.value("nnz_blocks", (long long)s.a.nnz_blocks());
        j.end_object();
      }
      j.end_array();
      j.begin_array("baselines");
      for (const auto& b : baselines) {
        j.begin_object();
        j.value("system", b.system);
        j.value("ordering", b.ordering);
        j.value("preconditioner", "bilu0 (sequential)");
        j.value("iterations", b.iterations);
        j.value("converged", b.converged);
        j.value("seconds", b.seconds);
        j.end_object();
      }
      j.end_array();
      j.begin_array("studies");
      for (const Study& st : studies) {
        j.begin_object();
        j.value("system", st.system);
        j.value("ordering", st.ordering);
        j.value("variant", st.variant);
        j.value("backend", st.backend);
        if (st.backend == "host") j.value("threads", st.threads == 0 ? 2 : st.threads);
        j.value("schedule", st.synchronous() ? "sync" : "async");
        j.value("line_cells", (long long)st.line_cells);
        j.begin_array("cells");
        for (const Cell& c : st.cells) {
          j.begin_object();
          j.value("build_sweeps", sweeps_name(c.build));
          j.value("apply_sweeps", sweeps_name(c.apply));
          j.value("mean_iterations", c.mean_iterations);
          j.value("relative_deviation", c.rel_deviation);
          j.value("failures", c.failures);
          j.value("seconds", c.solve_s);
          j.end_object();
        }
        j.end_array();
        j.end_object();
      }
      j.end_array();
      j.end_object();
      j.save(o.json_path);
    }
    if (!o.md_path.empty()) {
      std::ostringstream md;
      md << "# Asynchronous (block) ILU(0): FGMRES(30) iterations against sweeps\n\n"
         << "Seed 001 Tables 1-3. The paper's tables are on Jacobians of its compressible solver (inviscid "
            "cylinder, viscous NACA0012) on larger meshes than ours; these rows are on the systems listed "
            "below (tb-comp2d's Jacobians when given with --system), so the trends compare, not the counts.\n\n"
         << "Machine: " << machine.cpu_model << ", " << machine.logical_cpus << " logical CPUs, commit "
         << machine.git_commit << ", " << machine.date_utc
         << ". GPU: " << (gpu ? machine.gpu : std::string("none on this machine; the CUDA variant was not run"))
         << ".\n\n"
         << "Each cell: mean FGMRES(30) iterations to rtol 1e-2 (b = A 1, x0 = 0), 1 thread / 2 threads / "
            "sync (Jacobi sweeps, deterministic: the limit of many threads, like the paper's 62) "
            "(2 threads: mean of "
         << o.reps << " runs); `-` = not converged in " << o.maxit << " iterations (or a singular pivot); OpenMP chunk "
         << o.chunk << " block rows (scalar: " << o.chunk
         << " x b rows); rows: build sweeps, columns: apply sweeps; "
            "`exact` = sequential BILU(0) factors / exact substitution. Baseline: sequential BILU(0) "
            "in the same ordering.\n\n";
      for (const System& s : systems) {
        md << "## " << s.name << " (" << s.a.block_rows << " block rows, b = " << s.a.block_size << ")\n\n";
        for (const auto& b : baselines)
          if (b.system == s.name) {
            for (const std::string variant : {"async_bilu", "async_ilu"}) {
              const Study* st1 = nullptr;
              const Study* st2 = nullptr;
              const Study* st0 = nullptr;
              for (const Study& st : studies)
                if (st.system == s.name && st.ordering == b.ordering && st.variant == variant && st.backend == "host")
                  (st.threads == 1 ? st1 : st.threads == 2 ? st2 : st0) = &st;
              if (!st1 || !st2 || !st0) continue;
              md << "### " << b.ordering << ", " << (variant == "async_bilu" ? "block" : "scalar")
                 << " (BILU(0) baseline: " << b.iterations << " iterations, " << std::setprecision(3) << b.seconds
                 << " s";
              if (st1->line_cells) md << "; " << st1->line_cells << " block rows in lines";
              md << ")\n\n| build \\ apply |";
              for (int ap : sweep_counts) md << " " << sweeps_name(ap) << " |";
              md << "\n|---|";
              for (std::size_t k = 0; k < sweep_counts.size(); ++k) md << "---|";
              md << "\n";
              double worst_dev = 0;
              for (std::size_t bi = 0; bi < sweep_counts.size(); ++bi) {
                md << "| " << sweeps_name(sweep_counts[bi]) << " |";
                for (std::size_t ai = 0; ai < sweep_counts.size(); ++ai) {
                  const Cell& c1 = st1->cells[bi * sweep_counts.size() + ai];
                  const Cell& c2 = st2->cells[bi * sweep_counts.size() + ai];
                  const Cell& c0 = st0->cells[bi * sweep_counts.size() + ai];
                  worst_dev = std::max(worst_dev, c2.rel_deviation);
                  md << " " << cell_text(c1) << " / " << cell_text(c2) << " / " << cell_text(c0) << " |";
                }
                md << "\n";
              }
              char buf[64];
              std::snprintf(buf, sizeof buf, "%.1f%%", 100 * worst_dev);
              md << "\nLargest relative deviation over the 2-thread repetitions: " << buf << ".";
              // The default setting (build 1, apply 3) timed against the
              // sequential BILU(0) solve of the same run (set-up + solve).
              const std::size_t k =
                  std::size_t(std::find(sweep_counts.begin(), sweep_counts.end(), 3) - sweep_counts.begin());
              if (k < sweep_counts.size() && b.seconds > 0 && st1->cells[k].failures == 0 &&
                  st2->cells[k].failures == 0) {
                std::snprintf(buf, sizeof buf, "%.2f / %.2f", st1->cells[k].solve_s / b.seconds,
                              st2->cells[k].solve_s / b.seconds);
                md << " Time of build 1 x apply 3 (set-up + solve) over sequential BILU(0), 1 / 2 threads: " << buf
                   << ".";
              }
              md << "\n\n";
            }
          }
      }
      if (!gpu) md << "CUDA variant: compiled, not run (no GPU on this machine).\n";
      for (const Study& st : studies) {
        if (st.backend != "cuda") continue;
        // The GPU study has no exact cells: the rows and columns are the finite sweep counts.
        std::vector<int> finite;
        for (int c : sweep_counts)
          if (c != 0) finite.push_back(c);
        md << "### " << st.system << ", " << st.ordering << ", block, CUDA (" << machine.gpu
           << "): mean iterations\n\n| build \\ apply |";
        for (int ap : finite) md << " " << ap << " |";
        md << "\n|---|";
        for (std::size_t k = 0; k < finite.size(); ++k) md << "---|";
        md << "\n";
        for (std::size_t bi = 0; bi < finite.size(); ++bi) {
          md << "| " << finite[bi] << " |";
          for (std::size_t ai = 0; ai < finite.size(); ++ai) {
            md << " " << cell_text(st.cells[bi * finite.size() + ai]) << " |";
          }
          md << "\n";
        }
        md << "\n";
      }
      write_file_atomically(o.md_path, md.str());
    }
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "tb-bench-async-ilu: " << e.what() << "\n";
    return 1;
  }
}
