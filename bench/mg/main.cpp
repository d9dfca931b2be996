// tb-bench-mg: the multigrid cycle's kernels against the memory bandwidth, on
// the host or a GPU: the finest level's steps (residual, Chebyshev/Jacobi
// step, a red-black Gauss-Seidel sweep, restriction, prolongation) as
// fractions of the STREAM triad; per smoother one cycle (the preconditioner's
// apply) and a CG solve to 1e-9 from zero (set-up seconds, iterations, solve
// seconds), against CG + BiLU(0) on the same system. The system is the pinned, tanh-clustered finite-volume
// Poisson matrix of an N^3 grid: the pressure of tb-incomp's 3D cavity.
//
//   build/bin/tb-bench-mg --grid 128 [--cluster 1] [--reps 10] [--solve-reps 3] [--backend host|cuda]
//                         [--json FILE]
//
// Bytes are the least each kernel must move per fine cell, 8 per double: the
// residual reads 7 coefficients, b and x and writes r (10); the polynomial
// step reads 7 coefficients, 1/diagonal, b, x and d and writes d and x (13);
// a Gauss-Seidel sweep over both colours reads 7 coefficients, 1/diagonal, b
// and x and writes x (11); the restriction reads r and writes an eighth of a
// vector, the prolongation reads x and an eighth of a vector and writes x.
#include <cmath>
#include <iostream>
#include <string>
#include <vector>

#include "../common/command_line.hpp"
#include "../common/cuda/gpu_baseline.hpp"
#include "../common/stream_triad.hpp"
#include "../common/timing.hpp"
#include "solvers/core/cuda_call.hpp"
#include "solvers/core/json_writer.hpp"
#include "solvers/core/machine.hpp"
#include "solvers/factory/registry.hpp"
#include "solvers/matrix/poisson.hpp"
#include "solvers/mg/multigrid.hpp"

namespace tb {
namespace {

const char* usage =
    "usage: tb-bench-mg [--grid N] [--cluster BETA] [--reps R] [--solve-reps S] [--backend host|cuda]\n"
    "                   [--json FILE]\n"
    "  --grid N       the N^3 grid (default 128)\n"
    "  --cluster B    tanh clustering towards the walls (default 1, tb-incomp's cavity)\n"
    "  --reps R       best of R timed calls after one untimed (default 10)\n"
    "  --solve-reps S best of S timed solves per solver (default 3)\n"
    "  --backend B    host (OpenMP) or cuda (default host)\n"
    "  --json FILE    the results with the machine description\n";

struct Options {
  index_t grid = 128;
  double cluster = 1.0;
  int reps = 10;
  int solve_reps = 3;
  Backend backend = Backend::host;
  std::string json_path;
};

// One solver of the smoother study: a CG solve from zero to 1e-9 of ||b||.
struct Solve {
  std::string spec;
  double setup_s = 0.0, solve_s = 0.0;
  int iterations = 0;
  bool converged = false;
};

struct Row {
  std::string name;
  double seconds = 0.0;
  double bytes = 0.0;  // 0 for a whole cycle
};

template <class T>
Array<T> copy_to(Backend b, const std::vector<T>& v) {
  return Array<T>(b, std::span<const T>(v));
}

// Waits for the device so that a timing covers the kernels it launched.
void finish(Backend b) {
  if (b == Backend::cuda) TB_CUDA_CALL(bench::gpu::synchronize());
}

int run(int argc, char** argv) {
  Options o;
  for (bench::ArgumentList args(argc, argv, usage); args.next();) {
    if (args.flag() == "--grid")
      o.grid = index_t(bench::parse_count("--grid", args.value(), 4));
    else if (args.flag() == "--cluster")
      o.cluster = std::stod(args.value());
    else if (args.flag() == "--reps")
      o.reps = int(bench::parse_count("--reps", args.value(), 1));
    else if (args.flag() == "--solve-reps")
      o.solve_reps = int(bench::parse_count("--solve-reps", args.value(), 1));
    else if (args.flag() == "--backend")
      o.backend = parse_backend(args.value());
    else if (args.flag() == "--json")
      o.json_path = args.value();
    else
      args.reject();
  }
  const Backend be = o.backend;
  PoissonParams p;
  p.nx = p.ny = p.nz = o.grid;
  p.cluster[0] = p.cluster[1] = p.cluster[2] = o.cluster;
  p.pin = true;
  const BsrMatrix a = generate_poisson(p);
  const index_t n = a.block_rows;
  const double cells = double(n);

  const double triad_n = 1 << 25;
  const double triad_s = be == Backend::cuda ? TB_CUDA_CALL(bench::gpu::triad_seconds(std::size_t(triad_n), o.reps))
                                             : bench::host_triad_seconds(std::size_t(triad_n), o.reps);
  const double triad_gbs = bench::triad_bytes(std::size_t(triad_n)) / triad_s * 1e-9;

  // The finest level and its transfer, on the backend.
  mg::Hierarchy h;
  h.build(a, nullptr, mg::HierarchyOptions{});
  mg::StencilView fine = h.view(0);
  mg::TransferView t = h.transfer(0);
  Array<double> coef = copy_to(be, h.finest().coef), dinv = copy_to(be, h.level(0).dinv), w[3];
  fine.coef = coef.data();
  fine.dinv = dinv.data();
  for (int d = 0; d < 3; ++d)
    if (t.coarsened[d]) {
      w[d] = copy_to(be, h.level(0).weight[d]);
      t.weight[d] = w[d].data();
    }
  const index_t pad = mg::padding(fine.grid), nc = t.coarse.cells();
  std::vector<double> host_x(std::size_t(n + 2 * pad), 0.0), host_b(static_cast<std::size_t>(n));
  for (index_t i = 0; i < n; ++i) {
    host_x[std::size_t(pad + i)] = std::sin(0.37 * i);
    host_b[std::size_t(i)] = std::cos(0.11 * i);
  }
  Array<double> x = copy_to(be, host_x), x2 = copy_to(be, host_x), b = copy_to(be, host_b), r(be, std::size_t(n)),
                d(be, std::size_t(n)), bc(be, std::size_t(nc)), xc(be, std::size_t(nc));
  d.set_zero();
  xc.set_zero();

  std::vector<Row> rows;
  auto time = [&](const std::string& name, double bytes_per_cell, auto&& f) {
    const double s = bench::best_seconds(o.reps, [&] {
      f();
      finish(be);
    });
    rows.push_back({name, s, bytes_per_cell * cells});
  };
  time("residual", 80.0, [&] { mg::kernels::residual(be, fine, b.data(), x.data() + pad, r.data()); });
  time("polynomial_step", 104.0,
       [&] { mg::kernels::polynomial_step(be, fine, 0.3, 0.7, b.data(), x.data() + pad, d.data(), x2.data() + pad); });
  time("gauss_seidel_sweep", 88.0, [&] {
    mg::kernels::colour_sweep(be, fine, 0, b.data(), x.data() + pad);
    mg::kernels::colour_sweep(be, fine, 1, b.data(), x.data() + pad);
  });
  time("restrict", 8.0 + 8.0 / 8.0, [&] { mg::kernels::restrict_residual(be, t, r.data(), bc.data()); });
  time("prolong", 16.0 + 8.0 / 8.0, [&] { mg::kernels::prolong_add(be, t, xc.data(), x.data() + pad); });

  // Per smoother one cycle (the preconditioner's apply) and a CG solve, through
  // the registry; CG + BiLU(0) is the baseline of the solves.
  Vector rv(be, std::size_t(n)), zv(be, std::size_t(n));
  rv.copy_from_host(host_b);
  std::vector<double> xs(static_cast<std::size_t>(n));
  std::vector<Solve> solves;
  const std::string backend_arg = be == Backend::cuda ? ",backend=cuda" : "";
  for (const char* pc_spec :
       {"bilu0", "mg", "mg(degree=2)", "mg(degree=4)", "mg(smoother=jacobi)", "mg(smoother=jacobi,sweeps=2)",
        "mg(smoother=gauss_seidel)", "mg(smoother=gauss_seidel,sweeps=2)", "mg(smoother=fgbilu)",
        "mg(smoother=async_ilu)", "mg(cycle=w)", "mg(graph=false)"}) {
    const std::string pc(pc_spec);
    if (be == Backend::host && pc == "mg(graph=false)") continue;
    Solve s{"cg(rtol=1e-9,maxit=5000" + backend_arg + ")+" + pc};
    auto solver = make_solver(s.spec);
    WallTimer setup_timer;
    solver->setup(a);
    finish(be);
    s.setup_s = setup_timer.seconds();
    if (pc != "bilu0") time("cycle " + pc, 0.0, [&] { solver->preconditioner().apply(rv, zv); });
    s.solve_s = bench::best_seconds(o.solve_reps, [&] {
      std::fill(xs.begin(), xs.end(), 0.0);
      const SolveStats st = solver->solve(host_b, xs);
      s.iterations = st.iterations;
      s.converged = is_converged(st.reason);
    });
    solves.push_back(s);
  }

  std::cout << "tb-bench-mg: " << o.grid << "^3 cells, cluster " << o.cluster << ", " << to_string(be) << ", triad "
            << triad_gbs << " GB/s\n";
  for (const Row& row : rows) {
    std::cout << "  " << row.name << ": " << row.seconds * 1e3 << " ms";
    if (row.bytes > 0.0)
      std::cout << ", " << row.bytes / row.seconds * 1e-9 << " GB/s, " << row.bytes / row.seconds * 1e-9 / triad_gbs
                << " of the triad";
    std::cout << "\n";
  }
  for (const Solve& s : solves)
    std::cout << "  " << s.spec << ": set-up " << s.setup_s << " s, " << s.iterations << " iterations"
              << (s.converged ? "" : " (not converged)") << ", solve " << s.solve_s << " s, "
              << solves.front().solve_s / s.solve_s << "x CG + BiLU(0)'s speed\n";
  if (!o.json_path.empty()) {
    JsonWriter j;
    j.begin_object().value("benchmark", "tb-bench-mg");
    write(j, describe_machine());
    j.begin_object("config")
        .value("grid", o.grid)
        .value("cluster", o.cluster)
        .value("reps", o.reps)
        .value("backend", to_string(be))
        .value("problem", "poisson (finite volumes, Neumann, cell 0 fixed, tanh clustering) on an N^3 grid")
        .value("solve_reps", o.solve_reps)
        .value("timing", "kernels and cycles: best of reps after one untimed call; solves: best of solve_reps")
        .end_object();
    j.value("stream_triad_gbs", triad_gbs);
    j.begin_array("kernels");
    for (const Row& row : rows) {
      j.begin_object().value("name", row.name).value("seconds", row.seconds);
      if (row.bytes > 0.0)
        j.value("bytes", row.bytes).value("fraction_of_triad", row.bytes / row.seconds * 1e-9 / triad_gbs);
      j.end_object();
    }
    j.end_array();
    j.begin_array("solves");
    for (const Solve& s : solves)
      j.begin_object()
          .value("solver", s.spec)
          .value("setup_s", s.setup_s)
          .value("iterations", s.iterations)
          .value("converged", s.converged)
          .value("solve_s", s.solve_s)
          .end_object();
    j.end_array().end_object();
    j.save(o.json_path);
    std::cout << "wrote " << o.json_path << "\n";
  }
  return 0;
}

}  // namespace
}  // namespace tb

int main(int argc, char** argv) { return tb::bench::guarded_main("tb-bench-mg", argc, argv, tb::run); }
