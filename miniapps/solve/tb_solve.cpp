// tb-solve: solve one linear system offline with one or more solver
// specifications, side by side, and compare them.
//
// Sample runs:
//   tb-solve inputs/systems/cdr3d_n4.mtx
//   tb-solve inputs/systems/cdr3d_n4.mtx --solver "gmres(restart=30)+bilu0" --solver "bicgstab+jacobi"
//            --json stats.json
//   tb-solve A.mtx --rhs b.mtx --block-size 5 --solver "fgmres(restart=30,rtol=1e-8)+bilu0" --out x.mtx
//   tb-solve --generate stencil7:nx=32,ny=32,nz=32,n=5,seed=3 --solver "bicgstab+block_jacobi"
//   tb-solve --generate stencil7:nx=10,ny=10,nz=10,n=4 --write-matrix inputs/systems/cdr3d_n4.mtx
//   tb-solve --generate tetbox:nx=20,ny=20,nz=20,n=5 --solver "gmres+multicolor(sweeps=2)"
//   tb-solve --generate anisotropic:nx=159,ny=79 --solver "gmres(restart=50)+parilut" --solver
//   "gmres(restart=50)+bilu0" tb-solve --help
//
// Exit status: 0 when every solve converged, 1 when any did not, 2 for bad
// input or usage (the message starts with "tb-solve: error: ").
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <iostream>
#include <memory>
#include <span>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "solvers/core/atomic_file.hpp"
#include "solvers/core/backend.hpp"
#include "solvers/core/error.hpp"
#include "solvers/core/json.hpp"
#include "solvers/core/output_path.hpp"
#include "solvers/core/threading.hpp"
#include "solvers/core/timer.hpp"
#include "solvers/factory/registry.hpp"
#include "solvers/matrix/bsr.hpp"
#include "solvers/matrix/generator_spec.hpp"
#include "solvers/matrix/matrix_market.hpp"

namespace {

constexpr const char* default_solver = "gmres(restart=30)+bilu0";
constexpr int exit_not_converged = 1;
constexpr int exit_bad_input = 2;

std::string usage_text() {
  return std::string(
             "usage: tb-solve A.mtx [options]\n"
             "       tb-solve --generate GENERATOR:key=value,... [options]\n"
             "\n"
             "Solves A x = b with each solver specification in turn (from the same x0, 0 unless --x0) and\n"
             "prints a comparison table; the relative residual ||b - A x|| / ||b|| is recomputed after\n"
             "each solve, independently of the solver.\n"
             "\n"
             "options:\n"
             "  --rhs b.mtx          right-hand side (MatrixMarket array, or coordinate n x 1); default b = A * ones\n"
             "  --x0 x0.mtx          initial guess (MatrixMarket, e.g. a dumped system's x0.mtx); default 0\n"
             "  --block-size N       block size; default: the file's '% block_size' comment, else 1\n"
             "  --solver SPEC        solver specification; repeat to compare several (default: ") +
         default_solver +
         ")\n"
         "  --generate SPEC      a generated system instead of a file:\n"
         "                         stencil7:nx=,ny=,nz=,n=,seed=,stretch=,peclet=,dt=,coupling=,symmetric=\n"
         "                         tetbox:nx=,ny=,nz=,n=,seed=      (tetrahedral-mesh pattern, seed 002)\n"
         "                         anisotropic:nx=,ny=,eps=,angle=  (2D anisotropic diffusion, seed 003)\n"
         "                         poisson:nx=,ny=,nz=,cluster=,pin=,periodic=  (finite-volume pressure Poisson)\n"
         "  --json FILE          every solve's statistics and residual history, with the system, as JSON\n"
         "  --out x.mtx          the solution of the first solver\n"
         "  --write-matrix FILE  the system matrix as MatrixMarket, with its block size comment\n"
         "  --digits N           significant digits in the files written (default 0: full precision)\n"
         "  --help               this text and every solver name with its parameters\n"
         "\n"
         "Every solver is set up on the system before the first solve: a specification that cannot take it\n"
         "(its size, block size or grid, an option PETSc refuses) is refused before anything is solved or written.\n\n"
         "exit status: 0 every solve converged, 1 some solve did not, 2 bad input or usage\n";
}

struct Options {
  std::string matrix_file;
  std::string generate;
  std::string rhs_file;
  std::string x0_file;
  tb::index_t block_size = 0;  // 0: from the file's comment, else 1
  std::vector<std::string> solvers;
  std::string json_file;
  std::string out_file;
  std::string write_matrix;
  int digits = 0;            // significant digits written; 0 = full precision
  std::string command_line;  // recorded in the files written
  bool help = false;
};

int parse_int(const std::string& option, const std::string& text, int lo, int hi) {
  int v = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || ptr != text.data() + text.size() || v < lo || v > hi)
    throw tb::Error(option + " '" + text + "': expected an integer in " + std::to_string(lo) + ".." +
                    std::to_string(hi));
  return v;
}

// Quoted for a POSIX shell when needed, so a recorded command line can be pasted back.
std::string shell_word(const std::string& arg) {
  const bool plain = !arg.empty() && arg.find_first_not_of(
                                         "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                         "0123456789_./=:,+-@%") == std::string::npos;
  if (plain) return arg;
  std::string q = "'";
  for (char c : arg) {
    if (c == '\'')
      q += "'\\''";
    else
      q += c;
  }
  return q + "'";
}

// Accepts "--key value" and "--key=value".
Options parse_options(int argc, char** argv) {
  const std::vector<std::string> names = {"--rhs", "--x0",       "--block-size",   "--solver", "--json",
                                          "--out", "--generate", "--write-matrix", "--digits", "--help"};
  Options o;
  o.command_line = "tb-solve";
  for (int i = 1; i < argc; ++i) {
    o.command_line += ' ';
    o.command_line += shell_word(argv[i]);
  }
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i], value;
    if (arg == "-h") arg = "--help";
    const bool is_option = arg.size() > 2 && arg.compare(0, 2, "--") == 0;
    if (!is_option) {
      if (!o.matrix_file.empty())
        throw tb::Error("two matrix files given ('" + o.matrix_file + "' and '" + arg + "'); tb-solve reads one");
      o.matrix_file = arg;
      continue;
    }
    if (arg == "--help") {
      o.help = true;
      continue;
    }
    const auto eq = arg.find('=');
    if (eq != std::string::npos) {
      value = arg.substr(eq + 1);
      arg.resize(eq);
    } else if (std::find(names.begin(), names.end(), arg) != names.end()) {
      if (i + 1 >= argc) throw tb::Error("option " + arg + " needs a value");
      value = argv[++i];
    }
    if (value.empty() && std::find(names.begin(), names.end(), arg) != names.end())
      throw tb::Error("option " + arg + " was given an empty value");
    if (arg == "--rhs")
      o.rhs_file = value;
    else if (arg == "--x0")
      o.x0_file = value;
    else if (arg == "--block-size")
      o.block_size = parse_int(arg, value, 1, tb::max_block_size);
    else if (arg == "--digits")
      o.digits = parse_int(arg, value, 0, 17);
    else if (arg == "--solver")
      o.solvers.push_back(value);
    else if (arg == "--json")
      o.json_file = value;
    else if (arg == "--out")
      o.out_file = value;
    else if (arg == "--generate")
      o.generate = value;
    else if (arg == "--write-matrix")
      o.write_matrix = value;
    else {
      const std::string near = tb::nearest_name(arg, names);
      throw tb::Error("unknown option '" + arg + "'" + (near.empty() ? "" : " (did you mean " + near + "?)") +
                      "; see tb-solve --help");
    }
  }
  if (o.help) return o;
  if (o.matrix_file.empty() == o.generate.empty())
    throw tb::Error(o.matrix_file.empty()
                        ? "no system given: name a MatrixMarket file or use --generate; see tb-solve --help"
                        : "give either a matrix file or --generate, not both");
  if (o.solvers.empty()) o.solvers.push_back(default_solver);
  return o;
}

struct System {
  std::string source;        // file name or generator specification
  std::string block_origin;  // where the block size came from
  std::string rhs_source;
  std::string x0_source = "0";
  tb::BsrMatrix a;
  std::vector<double> b;
  double read_seconds = 0.0;     // parsing the files, or generating the system
  double convert_seconds = 0.0;  // CSR to BSR (or regrouping to --block-size)
  std::vector<double> x0;
};

tb::BsrMatrix regroup(const tb::BsrMatrix& a, tb::index_t block_size) {
  if (block_size == a.block_size) return a;
  return tb::csr_to_bsr(tb::bsr_to_csr(a), block_size);
}

System load_system(const Options& o) {
  System s;
  tb::WallTimer read;
  if (!o.generate.empty()) {
    tb::GeneratedSystem g = tb::generate_system(o.generate);
    s.read_seconds = read.seconds();
    s.source = g.description;
    s.a = std::move(g.a);
    s.block_origin = "from the generator";
    if (o.block_size) {
      tb::WallTimer convert;
      s.a = regroup(s.a, o.block_size);
      s.convert_seconds = convert.seconds();
      s.block_origin = "from --block-size";
    }
  } else {
    const tb::MatrixMarketMatrix m = tb::read_matrix_market(o.matrix_file);
    s.read_seconds = read.seconds();
    s.source = o.matrix_file;
    if (m.matrix.rows != m.matrix.cols)
      throw tb::Error(o.matrix_file + ": the matrix is " + std::to_string(m.matrix.rows) + "x" +
                      std::to_string(m.matrix.cols) + "; tb-solve needs a square matrix");
    const tb::index_t bs = o.block_size ? o.block_size : m.block_size ? m.block_size : 1;
    s.block_origin = o.block_size ? "from --block-size" : m.block_size ? "from the file's comment" : "default";
    tb::WallTimer convert;
    s.a = tb::csr_to_bsr(m.matrix, bs);
    s.convert_seconds = convert.seconds();
  }
  if (o.rhs_file.empty()) {
    const std::vector<double> ones(std::size_t(s.a.cols()), 1.0);
    s.b.resize(std::size_t(s.a.rows()));
    tb::spmv_ref(s.a, ones.data(), s.b.data());
    s.rhs_source = "A * ones";
  } else {
    tb::WallTimer rhs;
    s.b = tb::read_matrix_market_vector(o.rhs_file);
    s.read_seconds += rhs.seconds();
    if (s.b.size() != std::size_t(s.a.rows()))
      throw tb::Error(o.rhs_file + ": the right-hand side has " + std::to_string(s.b.size()) + " entries, the matrix " +
                      std::to_string(s.a.rows()) + " rows");
    s.rhs_source = o.rhs_file;
  }
  s.x0.assign(s.b.size(), 0.0);
  if (!o.x0_file.empty()) {
    tb::WallTimer x0;
    s.x0 = tb::read_matrix_market_vector(o.x0_file);
    s.read_seconds += x0.seconds();
    if (s.x0.size() != s.b.size())
      throw tb::Error("--x0 " + o.x0_file + ": the initial guess has " + std::to_string(s.x0.size()) +
                      " entries, the matrix " + std::to_string(s.a.rows()) + " rows");
    s.x0_source = o.x0_file;
  }
  return s;
}

void print_setting(const char* key, const std::string& value) { std::printf("  %-13s %s\n", key, value.c_str()); }

void print_options(const Options& o, const System& s) {
  std::printf("tb-solve\n");
  print_setting("system", s.source);
  print_setting("size", std::to_string(s.a.rows()) + " rows, block size " + std::to_string(s.a.block_size) + " (" +
                            s.block_origin + "), " + std::to_string(s.a.nnz_blocks()) + " blocks, " +
                            std::to_string(std::size_t(s.a.nnz_blocks()) * std::size_t(s.a.block_entries())) +
                            " stored entries");
  print_setting("rhs", s.rhs_source);
  char times[96];
  std::snprintf(times, sizeof times, "read %.3e s, CSR to BSR %.3e s", s.read_seconds, s.convert_seconds);
  print_setting("input", times);
  print_setting("threads", tb::threading::describe());
  for (const auto& spec : o.solvers) print_setting("solver", spec);
  print_setting("x0", s.x0_source);
  if (!o.json_file.empty()) print_setting("json", o.json_file);
  if (!o.out_file.empty()) print_setting("out", o.out_file);
  if (!o.write_matrix.empty()) print_setting("write-matrix", o.write_matrix);
  if (o.digits) print_setting("digits", std::to_string(o.digits));
  std::printf("\n");
}

struct Run {
  tb::SolveStats stats;
  double true_relative_residual = 0.0;
  std::vector<double> x;
  // The set-up split: numeric is a second, numeric-only update on the same
  // values (what a time loop pays per step); symbolic is the rest of set-up.
  double numeric_seconds = std::nan("");
  bool set_up = false;  // set_up succeeded: solve_one updates and solves
  double symbolic_seconds() const { return stats.setup_seconds - numeric_seconds; }
};

double norm2(std::span<const double> v) {
  long double s = 0.0L;
  for (double x : v) s += (long double)x * x;
  return double(std::sqrt(s));
}

// One untimed product starts the OpenMP thread pool, which would otherwise be
// charged to the first solver in the table (milliseconds on a small system).
void warm_up(const System& s) {
  std::vector<double> y(s.b.size());
  tb::spmv(s.a, s.b.data(), y.data());
}

// Every solver is set up on the system before the first solve, so that a
// specification that cannot take it (its shape, block size or grid, an
// option its library refuses: tb::Unsupported) is refused, exit 2, before
// anything is solved or written. A solver that fails otherwise (a zero pivot,
// say) is reported as a failed run, so the other specifications still get
// their turn.
Run set_up(tb::LinearSolver& solver, const System& s) {
  Run r;
  r.x = s.x0;
  try {
    tb::threading::adapt_to_load();
    solver.setup(s.a);
    r.stats.setup_seconds = solver.setup_seconds();
    r.set_up = true;
  } catch (const tb::Unsupported& e) {
    throw tb::Error("spec '" + solver.spec() + "' cannot take the system (" + std::to_string(s.a.block_rows) +
                    " block rows of block size " + std::to_string(s.a.block_size) + "): " + e.what());
  } catch (const tb::Error& e) {
    r.stats.reason = tb::StopReason::not_run;
    r.stats.detail = e.what();
  }
  r.stats.solver = solver.spec();
  return r;
}

// The numeric update and the solve of a solver set up by set_up.
void solve_one(tb::LinearSolver& solver, const System& s, Run& r) {
  if (r.set_up) {
    const double setup_seconds = r.stats.setup_seconds;
    try {
      tb::threading::adapt_to_load();
      solver.update(s.a);
      r.numeric_seconds = solver.setup_seconds();
      r.stats = solver.solve(s.b, r.x);
      r.stats.setup_seconds = setup_seconds;
    } catch (const tb::Error& e) {
      r.stats.solver = solver.spec();
      r.stats.reason = tb::StopReason::not_run;
      r.stats.detail = e.what();
    }
  }
  const double bnorm = norm2(s.b);
  const double rnorm = tb::residual_norm(s.a, r.x, s.b);
  r.true_relative_residual = bnorm > 0.0 ? rnorm / bnorm : rnorm;
}

void print_table(const std::vector<Run>& runs) {
  std::size_t width = 6;
  for (const auto& r : runs) width = std::max(width, r.stats.solver.size());
  const int w = int(width);
  char header[512];
  const int len = std::snprintf(header, sizeof header, "%-*s  %6s  %10s  %10s  %10s  %10s  %-15s  %s", w, "solver",
                                "iters", "setup s", "symbolic s", "numeric s", "solve s", "reason", "||b-Ax||/||b||");
  std::printf("\n%s\n%s\n", header, std::string(std::size_t(std::max(len, 0)), '-').c_str());
  for (const auto& r : runs) {
    const auto& st = r.stats;
    std::printf("%-*s  %6d  %10.3e  %10.3e  %10.3e  %10.3e  %-15s  %.3e\n", w, st.solver.c_str(), st.iterations,
                st.setup_seconds, r.symbolic_seconds(), r.numeric_seconds, st.solve_seconds,
                std::string(tb::to_string(st.reason)).c_str(), r.true_relative_residual);
  }
}

std::string json_document(const System& s, const std::vector<Run>& runs) {
  std::ostringstream o;
  o << "{\n  \"tool\": \"tb-solve\",\n  \"system\": {\"source\": " << tb::json::quote(s.source)
    << ", \"rhs\": " << tb::json::quote(s.rhs_source) << ", \"x0\": " << tb::json::quote(s.x0_source)
    << ", \"rows\": " << s.a.rows() << ", \"block_size\": " << s.a.block_size << ", \"block_rows\": " << s.a.block_rows
    << ", \"nnz_blocks\": " << s.a.nnz_blocks()
    << ", \"nnz\": " << std::size_t(s.a.nnz_blocks()) * std::size_t(s.a.block_entries()) << "},\n"
    << "  \"read_seconds\": " << tb::json::number(s.read_seconds)
    << ", \"convert_seconds\": " << tb::json::number(s.convert_seconds) << ",\n  \"solves\": [";
  for (std::size_t i = 0; i < runs.size(); ++i)
    o << (i ? ",\n" : "\n") << "    {\"true_relative_residual\": " << tb::json::number(runs[i].true_relative_residual)
      << ", \"symbolic_seconds\": " << tb::json::number(runs[i].symbolic_seconds())
      << ", \"numeric_seconds\": " << tb::json::number(runs[i].numeric_seconds)
      << ", \"stats\": " << runs[i].stats.json() << "}";
  o << "\n  ]\n}\n";
  return o.str();
}

void write_system_matrix(const Options& o, const System& s) {
  std::string comment = "written by: " + o.command_line + "\nsystem: " + s.source;
  if (o.digits) comment += "\nvalues rounded to " + std::to_string(o.digits) + " significant digits";
  comment += "\nright-hand side: none stored; tb-solve uses b = A * ones";
  tb::write_matrix_market(o.write_matrix, s.a, comment, o.digits);
}

// Every file tb-solve will write is checked (tb::check_output_file) before
// any input is read, so a typo in --out does not cost the solves.
void check_output_paths(const Options& o) {
  const std::pair<const char*, const std::string*> outputs[] = {
      {"--json", &o.json_file}, {"--out", &o.out_file}, {"--write-matrix", &o.write_matrix}};
  for (const auto& [option, path] : outputs)
    if (!path->empty()) tb::check_output_file(option, *path);
}

// Every specification is made (and so checked) before the system is read, so a
// typo in the last one does not cost the time of reading and solving; one on
// the cuda backend is refused here on a machine without a usable GPU.
std::vector<std::unique_ptr<tb::LinearSolver>> make_solvers(const Options& o) {
  std::vector<std::unique_ptr<tb::LinearSolver>> solvers;
  for (const auto& spec : o.solvers) {
    solvers.push_back(tb::make_solver(spec));
    if (solvers.back()->backend() == tb::Backend::cuda) {
      const std::string why = tb::cuda_unavailable_reason();
      if (!why.empty()) throw tb::Error("spec '" + spec + "': backend=cuda, but no GPU can be used: " + why);
    }
  }
  return solvers;
}

int run(int argc, char** argv) {
  const Options o = parse_options(argc, argv);
  if (o.help) {
    std::printf("%s\n%s", usage_text().c_str(), tb::Registry::builtin().help().c_str());
    return 0;
  }
  std::vector<std::unique_ptr<tb::LinearSolver>> solvers = make_solvers(o);
  check_output_paths(o);

  const System s = load_system(o);
  print_options(o, s);
  warm_up(s);
  std::vector<Run> runs;
  for (auto& solver : solvers) runs.push_back(set_up(*solver, s));
  if (!o.write_matrix.empty()) write_system_matrix(o, s);
  for (std::size_t k = 0; k < solvers.size(); ++k) {
    solve_one(*solvers[k], s, runs[k]);
    std::printf("%s\n", runs[k].stats.line().c_str());
    std::fflush(stdout);
  }
  print_table(runs);

  if (!o.json_file.empty()) tb::write_file_atomically(o.json_file, json_document(s, runs));
  if (!o.out_file.empty())
    tb::write_matrix_market_vector(o.out_file, runs.front().x,
                                   "solution by " + runs.front().stats.solver + "\nwritten by: " + o.command_line,
                                   o.digits);

  bool all_converged = true;
  for (const auto& r : runs) all_converged = all_converged && r.stats.converged();
  return all_converged ? 0 : exit_not_converged;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const tb::Error& e) {
    std::fprintf(stderr, "tb-solve: error: %s\n", e.what());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tb-solve: error: %s\n", e.what());
  }
  return exit_bad_input;
}
