#include <mpi.h>

#include <optional>

#include "distributed_solver.hpp"
#include "partitioned_solver.hpp"
#include "registry.hpp"
#include "solver_communicator.hpp"
#include "solvers/dist/mpi_communicator.hpp"

namespace tb {

namespace {

// The distribution of each rank's block rows, rank after rank (collective).
dist::RowDistribution rows_over_ranks(const dist::MpiCommunicator& comm, const BsrMatrix& my_rows) {
  const index_t mine = my_rows.block_rows;
  return dist::RowDistribution::from_counts(comm.allgather(std::span<const index_t>(&mine, 1)));
}

// A DistributedSolver as a LinearSolver's complete solver: the row
// distribution comes from every rank's row count (one MPI_Allgather per pattern).
// A new pattern (a moving body's) gets a fresh distributed solver: its halo
// and subdomains belong to one pattern.
class PartitionedSolver final : public CompleteSolver {
 public:
  PartitionedSolver(std::unique_ptr<dist::DistributedSolver> solver, std::shared_ptr<const dist::MpiCommunicator> comm)
      : solver_(std::move(solver)), comm_(std::move(comm)) {}

  void setup(const BsrMatrix& a) override {
    if (set_up_) {
      const std::optional<Backend> resident =
          solver_->resident() ? std::optional<Backend>(solver_->backend()) : std::nullopt;
      solver_ = make_distributed_solver(solver_->spec(), comm_, resident);
      solver_->recompute_final_residual(recompute_);
    }
    set_up_ = true;
    const dist::RowDistribution rows = rows_over_ranks(*comm_, a);
    // A local solver that refuses its subdomain (a zero pivot) throws on its
    // rank alone, after the set-up's collective calls.
    comm::agreed(*comm_, [&] {
      if (off_.blocks)
        solver_->setup(a, off_, rows);
      else
        solver_->setup(a, rows);
    });
  }
  // Split rows from the next set-up on (take_split_rows).
  void take_split_rows(dist::OffRankRows off) { off_ = off; }
  void update(const BsrMatrix& a) override {
    comm::agreed(*comm_, [&] { solver_->update(a); });
  }
  // Resident block Jacobi over split rows whose off-rank values are on its backend.
  bool updates_in_place() const override { return off_.readable_on_backend() && solver_->updates_in_place(); }
  void update_in_place(const BsrView& a) override {
    comm::agreed(*comm_, [&] { solver_->update_in_place(a); });
  }
  void attach_in_place(const BsrView& a) override { solver_->attach_in_place(a); }
  SolveStats solve(std::span<const double> b, std::span<double> x) override { return solver_->solve(b, x); }
  // A resident solve takes vectors of its backend where they are.
  bool solves_on(Backend b) const override { return solver_->resident() && b == solver_->backend(); }
  SolveStats solve_on_backend(const Vector& b, Vector& x) override { return solver_->solve(b, x); }
  // A new pattern's solver starts unlimited: LinearSolver callers set the limit per solve (SolverSlot).
  bool limit(SolveLimit l) override { return solver_->limit(l); }
  int max_iterations() const override { return solver_->max_iterations(); }
  // The distributed solver checks the shapes and reduces its finiteness test over the ranks.
  bool spans_ranks() const override { return true; }
  void recompute_final_residual(bool on) override {
    recompute_ = on;
    solver_->recompute_final_residual(on);
  }

 private:
  std::unique_ptr<dist::DistributedSolver> solver_;
  std::shared_ptr<const dist::MpiCommunicator> comm_;
  dist::OffRankRows off_;  // the off-rank part of split rows; no blocks: rows in global columns
  bool set_up_ = false;
  bool recompute_ = true;  // carried to a new pattern's solver
};

// A complete solver over each rank's own rows in global columns (seed 004's
// bicgstab_dia, OwnedRowsDia) behind a physics that assembles its rows split:
// it joins them into global columns (a copy, refilled at each update without
// allocating) and hands them on. Rows in global columns pass through. It
// calls the complete solver itself: the LinearSolver around this one checks
// the rows and times the solves once.
class JoinedRowsSolver final : public CompleteSolver {
 public:
  JoinedRowsSolver(std::unique_ptr<LinearSolver> owner, std::shared_ptr<const dist::MpiCommunicator> comm)
      : owner_(std::move(owner)), inner_(*owner_->complete()), comm_(std::move(comm)) {}

  void setup(const BsrMatrix& a) override {
    if (off_.blocks) {
      const dist::RowDistribution rows = rows_over_ranks(*comm_, a);
      first_ = rows.first(comm_->rank());
      n_ = rows.n();
    }
    const BsrMatrix& rows = joined(a);
    rows.validate();  // the off-rank part too: the LinearSolver around this one checked `a` alone
    inner_.setup(rows);
  }
  void update(const BsrMatrix& a) override { inner_.update(joined(a)); }
  SolveStats solve(std::span<const double> b, std::span<double> x) override { return inner_.solve(b, x); }
  bool limit(SolveLimit l) override { return inner_.limit(l); }
  int max_iterations() const override { return inner_.max_iterations(); }
  bool spans_ranks() const override { return true; }
  void take_split_rows(dist::OffRankRows off) { off_ = off; }

 private:
  const BsrMatrix& joined(const BsrMatrix& a) {
    if (!off_.blocks) return a;
    dist::join_rank_rows(a, off_, first_, n_, joined_);
    return joined_;
  }

  std::unique_ptr<LinearSolver> owner_;  // the registry's, which holds inner_
  CompleteSolver& inner_;
  std::shared_ptr<const dist::MpiCommunicator> comm_;
  dist::OffRankRows off_;
  BsrMatrix joined_;
  index_t first_ = 0, n_ = 0;
};

}  // namespace

std::unique_ptr<LinearSolver> make_partitioned_solver(std::string_view spec, std::optional<Backend> resident) {
  if (solver_communicator()->size() == 1) return make_solver(spec);
  // A complete solver that can take each rank's own rows (bicgstab_dia) does so.
  auto comm = std::dynamic_pointer_cast<const dist::MpiCommunicator>(solver_communicator());
  if (!comm) throw Error("internal: a partitioned solver without MPI ranks");
  const SolverSpec parsed = parse_spec(spec);
  for (const std::string& name : Registry::builtin().complete_solver_names())
    if (parsed.components[0].name == name) {
      auto solver = make_solver(spec);
      if (solver->complete()->take_own_rows()) {
        const std::string text = solver->spec();
        const Backend backend = solver->backend();
        return std::make_unique<LinearSolver>(text, std::make_unique<JoinedRowsSolver>(std::move(solver), comm),
                                              backend);
      }
    }
  auto solver = make_distributed_solver(spec, comm, resident);
  const std::string text = solver->spec();
  const Backend backend = solver->backend();
  return std::make_unique<LinearSolver>(text, std::make_unique<PartitionedSolver>(std::move(solver), std::move(comm)),
                                        backend);
}

bool take_split_rows(LinearSolver& solver, dist::OffRankRows off) {
  if (auto* partitioned = dynamic_cast<PartitionedSolver*>(solver.complete())) {
    partitioned->take_split_rows(off);
    return true;
  }
  if (auto* joining = dynamic_cast<JoinedRowsSolver*>(solver.complete())) {
    joining->take_split_rows(off);
    return true;
  }
  return false;
}

std::unique_ptr<dist::DistributedSolver> make_distributed_solver(std::string_view text,
                                                                 std::shared_ptr<const comm::Communicator> comm,
                                                                 std::optional<Backend> resident) {
  const Registry& reg = Registry::builtin();
  const SolverSpec spec = parse_spec(text);
  const std::string& s = spec.text;
  if (spec.components.size() > 2) throw Error("spec '" + s + "': at most one '+' (a Krylov method + a preconditioner)");
  const SpecComponent& kc = spec.components[0];
  for (const std::string& name : reg.complete_solver_names())
    if (kc.name == name)
      throw Error("spec '" + s + "': " + name +
                  " shares its solves over the ranks by its own slabs of the whole matrix; a distributed matrix "
                  "takes bicgstab_dia or a Krylov method + bjacobi(local=...) or asm(overlap=1,local=...)");
  // The method's backend=cuda: the whole solve resident on each rank's
  // device, block Jacobi's local solver set up there (not behind host
  // vectors, so a Schwarz method's own backend= is moot and dropped).
  Backend backend = Backend::host;
  auto method = reg.make_method(s, kc, &backend);
  if (!resident && backend != Backend::host) resident = backend;

  SpecComponent pc{"identity", {}};
  if (spec.components.size() == 2) pc = spec.components[1];
  if (resident) std::erase_if(pc.params, [](const auto& kv) { return kv.first == "backend"; });
  int overlap = 0;
  std::unique_ptr<Preconditioner> local;
  if (pc.name == "bjacobi" || pc.name == "asm" || rank_independent_preconditioner(pc.name)) {
    local = reg.make_preconditioner(s, pc);  // bjacobi and asm make their local solver
    if (pc.name == "asm") overlap = reg.preconditioner_parameters(s, pc).integer("overlap");
  } else {
    throw Error("spec '" + s + "': " + pc.name + " needs the whole matrix; over ranks write bjacobi(local=" +
                component_text(pc) + ") or asm(overlap=1,local=" + component_text(pc) + ")");
  }
  return std::make_unique<dist::DistributedSolver>(s, std::move(method), std::move(local), overlap,
                                                   comm ? std::move(comm) : solver_communicator(), resident);
}

}  // namespace tb
