#pragma once
// The one place that maps solver names to classes. Each room's names are added
// by a register_<room>() function in this folder; nothing registers itself.
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "solvers/krylov/linear_solver.hpp"
#include "spec.hpp"

namespace tb {

enum class ParamType { integer, real, boolean, choice, text };  // text: any value the spec syntax allows

constexpr double unbounded = std::numeric_limits<double>::infinity();

// The values an integer or real parameter may take: lo..hi, each end open or
// closed, +-unbounded for none. Every numeric parameter declares one that keeps
// memory finite and the method meaningful (docs/solver_parameters.md).
struct ParamDomain {
  double lo = -unbounded;
  double hi = unbounded;
  bool lo_open = false;
  bool hi_open = false;
  bool contains(double x) const { return (lo_open ? x > lo : x >= lo) && (hi_open ? x < hi : x <= hi); }
};

struct ParamInfo {
  std::string name;
  ParamType type;
  std::string default_value;
  std::string help;
  std::vector<std::string> choices;  // for ParamType::choice
  ParamDomain domain{};              // for ParamType::integer and ParamType::real
};

// "an integer in [1, 1000]", "a real number in (0, 2)", "one of host, cuda": the
// 'allowed' part of a refusal and of --help.
std::string describe_domain(const ParamInfo& p);

// The validated parameters of one component: every key the entry declares, with
// the written value or the default.
class ParamValues {
 public:
  int integer(const std::string& key) const;
  double real(const std::string& key) const;
  bool boolean(const std::string& key) const;
  const std::string& text(const std::string& key) const;
  std::map<std::string, std::string> values;
};

struct KrylovEntry {
  std::string name;
  std::string help;
  std::vector<ParamInfo> params;  // the stopping rules and backend are added for every method
  std::function<std::unique_ptr<KrylovMethod>(const ParamValues&, const StopCriteria&)> make;
};

struct PreconditionerEntry {
  std::string name;
  std::string help;
  std::vector<ParamInfo> params;
  std::function<std::unique_ptr<Preconditioner>(const ParamValues&)> make;
};

// A solver that owns its matrix format and iteration (seed 004's bicgstab_dia,
// cg_stencil): written alone, never with '+'.
struct CompleteSolverEntry {
  std::string name;
  std::string help;
  std::vector<ParamInfo> params;  // the stopping rules and backend are added as for Krylov methods
  std::function<std::unique_ptr<CompleteSolver>(const ParamValues&, const StopCriteria&, Backend)> make;
};

class Registry {
 public:
  // The registry with every solver the library was built with.
  static const Registry& builtin();

  void add(KrylovEntry e);
  void add(PreconditionerEntry e);
  void add(CompleteSolverEntry e);
  // Builds the solver a specification names; tb::Error lists what is allowed on
  // an unknown name, parameter or value.
  // Every refusal of a parameter's value reads
  //   spec 'TEXT': COMPONENT.PARAM: given VALUE, allowed DOMAIN
  std::unique_ptr<LinearSolver> make(std::string_view spec) const;
  // The parts of a specification, built alone: a Krylov method from its
  // component (e.g. "fgmres(restart=30)"; its backend in *backend) and a
  // preconditioner from its own (e.g. a Schwarz method's local solver,
  // "async_bilu(build_sweeps=1)"). `spec` is the text quoted in refusals.
  std::unique_ptr<KrylovMethod> make_method(const std::string& spec, const SpecComponent& c, Backend* backend) const;
  std::unique_ptr<Preconditioner> make_preconditioner(const std::string& spec, const SpecComponent& c) const;
  // A preconditioner component's parameters, validated, defaults filled in.
  ParamValues preconditioner_parameters(const std::string& spec, const SpecComponent& c) const;
  // Every name with its parameters and defaults, for --help.
  std::string help() const;
  std::vector<std::string> krylov_names() const;
  std::vector<std::string> preconditioner_names() const;
  std::vector<std::string> complete_solver_names() const;

 private:
  std::unique_ptr<LinearSolver> make_complete(const CompleteSolverEntry& e, const SolverSpec& spec) const;

  std::vector<KrylovEntry> krylov_;
  std::vector<PreconditionerEntry> precond_;
  std::vector<CompleteSolverEntry> complete_;
};

// Registry::builtin().make(spec)
std::unique_ptr<LinearSolver> make_solver(std::string_view spec);

// The closest of the candidates by edit distance, or empty when none is close.
std::string nearest_name(std::string_view word, const std::vector<std::string>& candidates);

void register_krylov(Registry& r);
void register_basic_preconditioners(Registry& r);
void register_fgbilu(Registry& r);
void register_async_ilu(Registry& r);
void register_multicolor(Registry& r);
void register_parilut(Registry& r);
void register_banded(Registry& r);
void register_petsc(Registry& r);
void register_schwarz(Registry& r);
void register_mg(Registry& r);

}  // namespace tb
