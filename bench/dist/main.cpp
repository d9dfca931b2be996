// tb-bench-dist: distributed BSR solves (docs/distributed.md) on the ranks of mpiexec.
// Every rank reads or generates the whole system and computes the same METIS
// partition of its block graph (deterministic), renumbers the block rows part
// by part and keeps its own: the distribution a partitioned mesh gives. For
// each specification: iterations, set-up and solve seconds (the slowest
// rank's; solves best of --reps), the ghost columns and subdomain rows per
// rank, and the bytes of this rank's matrix parts. Run it on 1, 2, ... ranks
// and compare (strong scaling); iteration counts do not depend on the machine,
// so oversubscribed runs (-n 16 on 2 cores) measure their growth with the
// number of subdomains.
//   mpiexec -n 2 build/bin/tb-bench-dist --json OUT.json
// With --triad N it solves nothing: every rank runs the STREAM triad over N
// doubles at the same time, and the sum of their bandwidths over P times one
// rank's (a run on one rank) is what a bandwidth-bound loop can gain on P
// ranks of this machine: the ceiling of its parallel efficiency.
//   for p in 1 2 4 8 16; do mpiexec -n $p build/bin/tb-bench-dist --triad 33554432; done
#include <algorithm>
#include <cmath>
#include <iostream>
#include <string>
#include <vector>

#include "../async_ilu/ordering.hpp"
#include "../common/block_system.hpp"
#include "../common/command_line.hpp"
#include "../common/stream_triad.hpp"
#include "mesh/partition.hpp"
#include "solvers/core/json_writer.hpp"
#include "solvers/core/machine.hpp"
#include "solvers/core/timer.hpp"
#include "solvers/dist/dist_bsr_operator.hpp"
#include "solvers/dist/mpi_communicator.hpp"
#include "solvers/factory/distributed_solver.hpp"
#include "solvers/factory/solver_communicator.hpp"
#include "solvers/matrix/generator_spec.hpp"
#include "solvers/matrix/matrix_market.hpp"

namespace tb::bench {
namespace {

struct Options {
  std::string system_file, rhs_file;
  std::string generate = "stencil7:nx=24,ny=24,nz=24,n=4";
  std::vector<std::string> solvers;
  std::string partition = "metis";
  int reps = 3;
  int threads = 1;
  std::string json_path;
  std::size_t triad = 0;  // --triad N: the concurrent STREAM triad over N doubles a rank instead of solves
  int exchanges = 0;      // --exchanges N: N halo exchanges of the product per transport instead of solves
};

const char* usage =
    "tb-bench-dist [--system A.mtx [--rhs b.mtx] | --generate SPEC] [--solver SPEC]... [--partition metis|rows]\n"
    "              [--reps N] [--threads N] [--json FILE]\n"
    "tb-bench-dist --triad N [--reps N] [--threads N] [--json FILE]\n"
    "tb-bench-dist [--system A.mtx | --generate SPEC] --exchanges N [--reps N] [--json FILE]\n"
    "Distributed solves of one system on the ranks of mpiexec (docs/distributed.md).\n"
    "  --system FILE    a block system written by a miniapp's --dump-systems\n"
    "  --rhs FILE       its right-hand side (default b_i = sin(0.37 i) + 0.5)\n"
    "  --generate SPEC  a generated system (default stencil7:nx=24,ny=24,nz=24,n=4)\n"
    "  --solver SPEC    a distributed specification, repeatable (default: fgmres(restart=30,rtol=1e-8,\n"
    "                   maxit=2000) with bjacobi(local=bilu0), asm(overlap=1,local=bilu0) and jacobi)\n"
    "  --partition P    metis (default: METIS k-way parts of the block graph) or rows (contiguous rows)\n"
    "  --reps N         solves per specification, the best is kept (default 3)\n"
    "  --threads N      OpenMP threads per rank (default 1)\n"
    "  --json FILE      write the runs with the machine description\n"
    "  --triad N        no solves: every rank runs the STREAM triad over N doubles at once (best of --reps);\n"
    "                   the ranks' bandwidths summed, their least and most\n"
    "  --exchanges N    no solves: N exchanges of the product's ghosts with each halo transport (persistent\n"
    "                   requests, the neighbourhood all-to-all), alternated --reps times; microseconds an\n"
    "                   exchange, the slowest rank's, and the local product's for scale\n";

Options parse(int argc, char** argv) {
  Options o;
  for (ArgumentList args(argc, argv, usage); args.next();) {
    const std::string& f = args.flag();
    if (f == "--system")
      o.system_file = args.value();
    else if (f == "--rhs")
      o.rhs_file = args.value();
    else if (f == "--generate")
      o.generate = args.value();
    else if (f == "--solver")
      o.solvers.push_back(args.value());
    else if (f == "--partition") {
      o.partition = args.value();
      if (o.partition != "metis" && o.partition != "rows")
        throw Error("--partition: given " + o.partition + ", allowed metis or rows");
    } else if (f == "--reps")
      o.reps = int(parse_count(f, args.value(), 1));
    else if (f == "--threads")
      o.threads = int(parse_count(f, args.value(), 1));
    else if (f == "--json")
      o.json_path = args.value();
    else if (f == "--triad")
      o.triad = std::size_t(parse_count(f, args.value(), 1));
    else if (f == "--exchanges")
      o.exchanges = int(parse_count(f, args.value(), 1));
    else
      args.reject();
  }
  if (o.solvers.empty())
    for (const char* p : {"bjacobi(local=bilu0)", "asm(overlap=1,local=bilu0)", "jacobi"})
      o.solvers.push_back(std::string("fgmres(restart=30,rtol=1e-8,maxit=2000)+") + p);
  return o;
}

struct Run {
  std::string solver, reason;
  std::string halo;  // the product's halo transport (persistent, neighbourhood; resident: staged, cuda_aware)
  int iterations = 0;
  bool converged = false;
  double setup_s = 0.0, solve_s = 0.0;  // the slowest rank's
  long long ghosts_max = 0, subdomain_rows_max = 0, owned_max = 0;
  double relative_residual = 0.0;
};

double max_over(const comm::Communicator& c, double v) {
  c.space().reduce(nullptr, 0, &v, 1);
  return v;
}

Run run_one(const std::string& spec, const BsrMatrix& mine, const dist::RowDistribution& rows,
            const std::vector<double>& b, int reps, const std::shared_ptr<const comm::Communicator>& world) {
  Run r;
  r.solver = spec;
  auto solver = make_distributed_solver(spec, world);
  solver->setup(mine, rows);
  r.halo = solver->halo_transport();
  r.setup_s = max_over(*world, solver->setup_seconds());
  r.solve_s = 1e300;
  // One untimed solve first: the first touch of the work vectors and of the
  // neighbourhood communicator's buffers is no part of a time step's solve.
  for (int k = -1; k < reps; ++k) {
    std::vector<double> x(b.size(), 0.0);
    const SolveStats st = solver->solve(b, x);
    const double seconds = max_over(*world, st.solve_seconds);
    if (k >= 0) r.solve_s = std::min(r.solve_s, seconds);
    r.iterations = st.iterations;
    r.converged = st.converged();
    r.reason = std::string(to_string(st.reason));
    r.relative_residual = st.final_residual / st.initial_residual;
  }
  r.ghosts_max = (long long)max_over(*world, double(solver->ghost_columns()));
  r.subdomain_rows_max = (long long)max_over(*world, double(solver->subdomain_rows()));
  r.owned_max = (long long)max_over(*world, double(mine.block_rows));
  return r;
}

// Every rank's triad at once: a reduction first, so that they start together.
int run_triad(const Options& o, const comm::Communicator& world) {
  double start = 0.0;
  world.space().reduce(nullptr, 0, &start, 1);
  const double gbs = triad_bytes(o.triad) / host_triad_seconds(o.triad, o.reps) / 1e9;
  double sum = gbs, extremes[2] = {-gbs, gbs};  // the least (negated) and the most
  world.space().reduce(&sum, 1, extremes, 2);
  const double least = extremes[0], most = extremes[1];
  if (world.rank() != 0) return 0;
  const Machine m = describe_machine();
  std::cout << summary(m) << "\ntriad over " << o.triad << " doubles on each of " << world.size() << " rank(s), "
            << o.threads << " thread(s) a rank: " << sum << " GB/s in all, " << -least << " to " << most
            << " GB/s a rank\n";
  if (o.json_path.empty()) return 0;
  JsonWriter j;
  j.begin_object().value("benchmark", "tb-bench-dist --triad");
  write(j, m);
  j.value("ranks", world.size())
      .value("threads_per_rank", o.threads)
      .value("doubles_per_rank", (long long)o.triad)
      .value("reps", o.reps)
      .value("triad_gbs_sum", sum)
      .value("triad_gbs_least_rank", -least)
      .value("triad_gbs_most_rank", most)
      .end_object();
  j.save(o.json_path);
  std::cout << "wrote " << o.json_path << "\n";
  return 0;
}

// The product's ghost exchange alone, each transport in turn, --reps rounds:
// a reduction before each batch starts the ranks together, and a batch's
// time is its slowest rank's. The local product of the same rows, for scale.
int run_exchanges(const Options& o, const BsrMatrix& mine, const dist::RowDistribution& rows,
                  const std::string& description, const comm::Communicator& world) {
  const auto* mpi = dynamic_cast<const dist::MpiCommunicator*>(&world);
  if (!mpi) throw Error("--exchanges: needs mpiexec (more than one rank)");
  const dist::RankBlocks blocks = dist::RankBlocks::from_rows(mine, rows, world.rank());
  const HaloPlan plan = dist::matrix_halo_plan(mpi->comm(), rows, blocks.ghost_columns);
  const std::vector<dist::HaloTransport> transports{dist::HaloTransport::persistent,
                                                    dist::HaloTransport::neighbourhood};
  std::vector<std::unique_ptr<dist::HaloExchange>> halos;
  for (auto t : transports)
    halos.push_back(std::make_unique<dist::HaloExchange>(mpi->comm(), plan, mine.block_size, t));
  const std::size_t local_size = std::size_t(mine.rows()) + blocks.ghost_columns.size() * std::size_t(mine.block_size);
  std::vector<double> x(local_size, 1.0), y(std::size_t(mine.rows()));
  std::vector<std::vector<double>> micros(transports.size());
  std::vector<double> spmv_micros;
  for (int rep = 0; rep < o.reps; ++rep) {
    for (std::size_t k = 0; k < transports.size(); ++k) {
      double t0 = 0.0;
      world.space().reduce(nullptr, 0, &t0, 1);  // start together
      WallTimer t;
      for (int e = 0; e < o.exchanges; ++e) halos[k]->exchange(x.data());
      micros[k].push_back(max_over(world, t.seconds()) / o.exchanges * 1e6);
    }
    WallTimer t;
    for (int e = 0; e < o.exchanges; ++e) spmv(blocks.local, x.data(), y.data());
    spmv_micros.push_back(max_over(world, t.seconds()) / o.exchanges * 1e6);
  }
  long long ghosts = (long long)blocks.ghost_columns.size(), neighbours = plan.neighbour_count();
  double most[2] = {double(ghosts), double(neighbours)};
  world.space().reduce(nullptr, 0, most, 2);
  if (world.rank() != 0) return 0;
  const auto median = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
  };
  const Machine m = describe_machine();
  std::cout << summary(m) << "\nsystem " << description << " on " << world.size()
            << " ranks: ghost block columns <= " << most[0] << ", neighbours <= " << most[1] << "; " << o.exchanges
            << " exchanges x " << o.reps << " rounds\n";
  for (std::size_t k = 0; k < transports.size(); ++k)
    std::cout << "  " << dist::to_string(transports[k]) << ": " << median(micros[k]) << " us an exchange (median)\n";
  std::cout << "  local product: " << median(spmv_micros) << " us\n";
  if (o.json_path.empty()) return 0;
  JsonWriter j;
  j.begin_object().value("benchmark", "tb-bench-dist --exchanges");
  write(j, m);
  j.value("system", description)
      .value("ranks", world.size())
      .value("block_size", (long long)mine.block_size)
      .value("ghost_block_columns_max", most[0])
      .value("neighbours_max", most[1])
      .value("exchanges_per_round", o.exchanges)
      .value("rounds", o.reps)
      .value("timing", "per round, each transport's batch then the local product, the slowest rank's time");
  j.begin_array("transports");
  for (std::size_t k = 0; k < transports.size(); ++k) {
    j.begin_object().value("transport", dist::to_string(transports[k])).value("median_us", median(micros[k]));
    j.begin_array("rounds_us");
    for (double v : micros[k]) j.value(std::string_view{}, v);
    j.end_array().end_object();
  }
  j.end_array().value("local_product_median_us", median(spmv_micros)).end_object();
  j.save(o.json_path);
  std::cout << "wrote " << o.json_path << "\n";
  return 0;
}

int run(int argc, char** argv) {
  DistributedSession session(argc, argv);
  const Options o = parse(argc, argv);
  set_host_threads(o.threads);
  const auto world = solver_communicator();
  if (o.triad > 0) return run_triad(o, *world);
  const int me = world->rank(), ranks = world->size();
  const bool root = me == 0;

  std::string description;
  BsrMatrix a;
  if (!o.system_file.empty()) {
    a = read_block_system(o.system_file);
    description = o.system_file;
  } else {
    GeneratedSystem g = generate_system(o.generate);
    a = std::move(g.a);
    description = g.description;
  }
  // The partition, the same on every rank, and the renumbering that makes each part contiguous.
  std::vector<double> b_whole(std::size_t(a.rows()));
  for (std::size_t i = 0; i < b_whole.size(); ++i) b_whole[i] = std::sin(0.37 * double(i)) + 0.5;
  if (!o.rhs_file.empty()) {
    b_whole = read_matrix_market_vector(o.rhs_file);
    if (b_whole.size() != std::size_t(a.rows()))
      throw Error(o.rhs_file + ": " + std::to_string(b_whole.size()) + " entries for " + std::to_string(a.rows()) +
                  " rows");
  }
  std::vector<index_t> counts(std::size_t(ranks), 0);
  std::vector<index_t> new_to_old;
  BsrMatrix ordered;
  if (o.partition == "metis" && ranks > 1) {
    const Graph g = graph_from_pattern(a.block_rows, a.row_ptr.data(), a.col_idx.data());
    const std::vector<index_t> part = partition_graph(g, ranks);
    for (index_t p : part) ++counts[std::size_t(p)];
    const Permutation order = partition_ordering(part, ranks);
    ordered = permute_symmetric(a, order);
    new_to_old = order.new_to_old;
  } else {
    ordered = a;
    const auto even = dist::RowDistribution::balanced(a.block_rows, ranks);
    for (int q = 0; q < ranks; ++q) counts[std::size_t(q)] = even.owned(q);
  }
  const auto rows = dist::RowDistribution::from_counts(counts);
  const BsrMatrix mine = dist::rows_of(ordered, rows, me);
  // This rank's entries of b, in the original numbering of its block rows.
  std::vector<double> b(std::size_t(mine.rows()));
  const std::size_t bs = std::size_t(a.block_size);
  for (index_t i = 0; i < mine.block_rows; ++i) {
    const index_t global = rows.first(me) + i;
    const std::size_t old = std::size_t(new_to_old.empty() ? global : new_to_old[std::size_t(global)]);
    for (std::size_t c = 0; c < bs; ++c) b[std::size_t(i) * bs + c] = b_whole[old * bs + c];
  }

  if (o.exchanges > 0) return run_exchanges(o, mine, rows, description, *world);
  const Machine m = describe_machine();
  if (root)
    std::cout << summary(m) << "\nsystem " << description << ": " << a.block_rows << " block rows of " << a.block_size
              << ", " << ranks << " rank(s), partition " << o.partition << ", " << o.threads << " thread(s) a rank\n";
  std::vector<Run> runs;
  for (const std::string& spec : o.solvers) {
    runs.push_back(run_one(spec, mine, rows, b, o.reps, world));
    const Run& r = runs.back();
    if (root)
      std::cout << "  " << r.solver << ": " << r.iterations << " its"
                << " (" << r.reason << ")"
                << ", setup " << r.setup_s << " s, solve " << r.solve_s << " s, owned <= " << r.owned_max
                << ", ghosts <= " << r.ghosts_max << ", subdomain <= " << r.subdomain_rows_max << " block rows, halo "
                << r.halo << "\n";
  }
  if (!root || o.json_path.empty()) return 0;
  JsonWriter j;
  j.begin_object().value("benchmark", "tb-bench-dist");
  write(j, m);
  j.begin_object("config")
      .value("system", description)
      .value("block_rows", (long long)a.block_rows)
      .value("block_size", (long long)a.block_size)
      .value("ranks", ranks)
      .value("threads_per_rank", o.threads)
      .value("partition", o.partition)
      .value("reps", o.reps)
      .value("rhs", o.rhs_file.empty() ? std::string("b_i = sin(0.37 i) + 0.5, x0 = 0") : o.rhs_file + ", x0 = 0")
      .value("timing", "set-up once, solve best of reps after one untimed solve; each the slowest rank's")
      .end_object();
  j.begin_array("runs");
  for (const Run& r : runs)
    j.begin_object()
        .value("solver", r.solver)
        .value("iterations", r.iterations)
        .value("converged", r.converged)
        .value("stop_reason", r.reason)
        .value("relative_residual", r.relative_residual)
        .value("setup_seconds", r.setup_s)
        .value("solve_seconds", r.solve_s)
        .value("owned_block_rows_max", r.owned_max)
        .value("ghost_columns_max", r.ghosts_max)
        .value("subdomain_block_rows_max", r.subdomain_rows_max)
        .value("halo", r.halo)
        .end_object();
  j.end_array().end_object();
  j.save(o.json_path);
  std::cout << "wrote " << o.json_path << "\n";
  return 0;
}

}  // namespace
}  // namespace tb::bench

int main(int argc, char** argv) { return tb::bench::guarded_main("tb-bench-dist", argc, argv, tb::bench::run); }
