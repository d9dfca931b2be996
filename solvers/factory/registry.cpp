#include "registry.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <sstream>

namespace tb {

namespace {

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
  return s;
}

// The iteration limits' cap (maxit, stagnation), see common_krylov_params.
constexpr double max_iterations = 1e6;

// Parameters every Krylov method takes: the stopping rules and the backend.
// maxit bounds the residual history (8 bytes an iteration) at 8 MB; rtol = 0
// leaves the stop to atol, eps or maxit (a fixed iteration count); dtol = 1
// would call any rise above ||r0|| divergence, which BiCGStab's residual does
// on the way to converging.
std::vector<ParamInfo> common_krylov_params() {
  return {
      {"rtol",
       ParamType::real,
       "1e-8",
       "stop when ||r|| <= rtol ||r0|| (or rtol ||b||: relative_to)",
       {},
       {0, 1, false, true}},
      {"relative_to",
       ParamType::choice,
       "r0",
       "the norm rtol multiplies: r0 = ||b - A x0||, b = ||b|| (PETSc's default; a warm start near a steady state then "
       "stops early)",
       {"r0", "b"}},
      {"atol", ParamType::real, "0", "stop when ||r|| <= atol", {}, {0, unbounded, false, true}},
      {"maxit", ParamType::integer, "1000", "iteration limit", {}, {1, max_iterations}},
      {"dtol", ParamType::real, "1e8", "divergence when ||r|| > dtol ||r0||", {}, {1, unbounded, true, true}},
      {"stagnation",
       ParamType::integer,
       "200",
       "stop when this many iterations bring no 0.1% gain; 0 = never",
       {},
       {0, max_iterations}},
      {"backend", ParamType::choice, "host", "where vectors and kernels live", {"host", "cuda"}},
  };
}

std::string number_text(double x, ParamType type) {
  if (type == ParamType::integer) return std::to_string(static_cast<long long>(x));
  char buf[32];
  const auto r = std::to_chars(buf, buf + sizeof buf, x);
  return std::string(buf, r.ptr);
}

// The value as the parameter's type reads it; false when it does not parse.
bool parse_number(const ParamInfo& p, const std::string& v, double& x) {
  const char* b = v.data();
  const char* e = v.data() + v.size();
  if (p.type == ParamType::integer) {
    long long i = 0;
    auto [ptr, ec] = std::from_chars(b, e, i);
    x = double(i);
    return ec == std::errc() && ptr == e;
  }
  auto [ptr, ec] = std::from_chars(b, e, x);
  return ec == std::errc() && ptr == e && std::isfinite(x);
}

bool valid_value(const ParamInfo& p, const std::string& v) {
  switch (p.type) {
    case ParamType::integer:
    case ParamType::real: {
      double x = 0;
      return parse_number(p, v, x) && p.domain.contains(x);
    }
    case ParamType::boolean:
      return v == "true" || v == "false" || v == "1" || v == "0";
    case ParamType::choice:
      return std::find(p.choices.begin(), p.choices.end(), v) != p.choices.end();
    case ParamType::text:
      return true;  // the component that reads it checks it
  }
  return false;
}

[[noreturn]] void refuse(const std::string& spec, const std::string& who, const std::string& key,
                         const std::string& given, const std::string& allowed) {
  throw Error("spec '" + cut_value(spec) + "': " + who + "." + key + ": given " + cut_value(given) + ", allowed " +
              allowed);
}

ParamValues validate(const std::string& spec, const std::string& who, const std::vector<ParamInfo>& info,
                     const SpecComponent& c) {
  ParamValues out;
  for (const auto& p : info) out.values[p.name] = p.default_value;
  std::vector<std::string> names;
  for (const auto& p : info) names.push_back(p.name);
  for (const auto& [key, value] : c.params) {
    auto it = std::find_if(info.begin(), info.end(), [&key = key](const ParamInfo& p) { return p.name == key; });
    if (it == info.end()) {
      const std::string near = nearest_name(key, names);
      throw Error("spec '" + cut_value(spec) + "': " + who + " has no parameter '" + cut_value(key) + "'" +
                  (near.empty() ? "" : " (did you mean '" + near + "'?)") +
                  "; allowed: " + (names.empty() ? "none" : join(names)));
    }
    if (!valid_value(*it, value)) refuse(spec, who, key, value, describe_domain(*it));
    out.values[key] = value;
  }
  return out;
}

template <class Entry>
const Entry* find_entry(const std::vector<Entry>& entries, const std::string& name) {
  for (const auto& e : entries)
    if (e.name == name) return &e;
  return nullptr;
}

template <class Entry>
std::vector<std::string> names_of(const std::vector<Entry>& entries) {
  std::vector<std::string> v;
  for (const auto& e : entries) v.push_back(e.name);
  return v;
}

std::string unknown(const std::string& kind, const std::string& name, const std::vector<std::string>& allowed) {
  const std::string near = nearest_name(name, allowed);
  return "unknown " + kind + " '" + cut_value(name) + "'" + (near.empty() ? "" : " (did you mean '" + near + "'?)") +
         "; allowed: " + join(allowed);
}

void describe_params(std::ostringstream& o, const std::vector<ParamInfo>& params) {
  for (const auto& p : params) {
    o << "      " << p.name << "=" << p.default_value << "  " << p.help;
    if (p.type != ParamType::text) o << " [" << describe_domain(p) << "]";
    o << "\n";
  }
}

// Each default lies in its parameter's domain: a registration error, found
// when the registry is built.
void check_defaults(const std::string& who, const std::vector<ParamInfo>& params) {
  for (const auto& p : params)
    if (!valid_value(p, p.default_value))
      throw Error("internal: " + who + "." + p.name + " has the default " + p.default_value + " outside " +
                  describe_domain(p));
}

// A component's own refusal (a grid past the index range, no cuda kernel),
// quoted with the specification it came from.
template <class Make>
auto building(const std::string& spec, Make make) -> decltype(make()) {
  try {
    return make();
  } catch (const Error& e) {
    throw Error("spec '" + cut_value(spec) + "': " + e.what());
  }
}

StopCriteria stop_criteria(const ParamValues& p) {
  StopCriteria stop;
  stop.rtol = p.real("rtol");
  stop.relative_to = p.text("relative_to") == "b" ? RtolReference::rhs : RtolReference::initial_residual;
  stop.atol = p.real("atol");
  stop.maxit = p.integer("maxit");
  stop.dtol = p.real("dtol");
  stop.stagnation_window = p.integer("stagnation");
  return stop;
}

}  // namespace

std::string describe_domain(const ParamInfo& p) {
  switch (p.type) {
    case ParamType::boolean:
      return "true or false";
    case ParamType::choice:
      return "one of " + join(p.choices);
    case ParamType::text:
      return "text";
    case ParamType::integer:
    case ParamType::real:
      break;
  }
  const ParamDomain& d = p.domain;
  const std::string kind = p.type == ParamType::integer ? "an integer" : "a finite real number";
  if (std::isinf(d.lo) && std::isinf(d.hi)) return kind;
  if (std::isinf(d.hi)) return kind + (d.lo_open ? " > " : " >= ") + number_text(d.lo, p.type);
  if (std::isinf(d.lo)) return kind + (d.hi_open ? " < " : " <= ") + number_text(d.hi, p.type);
  return kind + " in " + (d.lo_open ? "(" : "[") + number_text(d.lo, p.type) + ", " + number_text(d.hi, p.type) +
         (d.hi_open ? ")" : "]");
}

int ParamValues::integer(const std::string& key) const { return std::stoi(values.at(key)); }
double ParamValues::real(const std::string& key) const { return std::stod(values.at(key)); }
bool ParamValues::boolean(const std::string& key) const {
  const auto& v = values.at(key);
  return v == "true" || v == "1";
}
const std::string& ParamValues::text(const std::string& key) const { return values.at(key); }

void Registry::add(KrylovEntry e) {
  check_defaults(e.name, e.params);
  auto common = common_krylov_params();
  e.params.insert(e.params.end(), common.begin(), common.end());
  check_defaults(e.name, e.params);
  krylov_.push_back(std::move(e));
}

void Registry::add(PreconditionerEntry e) {
  check_defaults(e.name, e.params);
  precond_.push_back(std::move(e));
}

void Registry::add(CompleteSolverEntry e) {
  auto common = common_krylov_params();
  e.params.insert(e.params.end(), common.begin(), common.end());
  check_defaults(e.name, e.params);
  complete_.push_back(std::move(e));
}

std::vector<std::string> Registry::krylov_names() const { return names_of(krylov_); }
std::vector<std::string> Registry::preconditioner_names() const { return names_of(precond_); }
std::vector<std::string> Registry::complete_solver_names() const { return names_of(complete_); }

std::unique_ptr<LinearSolver> Registry::make(std::string_view text) const {
  const SolverSpec spec = parse_spec(text);
  if (spec.components.size() > 2)
    throw Error("spec '" + cut_value(spec.text) + "': at most one '+' (a Krylov method + a preconditioner)");
  const SpecComponent& kc = spec.components[0];
  if (const CompleteSolverEntry* ce = find_entry(complete_, kc.name)) return make_complete(*ce, spec);
  const KrylovEntry* ke = find_entry(krylov_, kc.name);
  if (!ke) {
    std::vector<std::string> solvers = krylov_names();
    for (const auto& c : complete_) solvers.push_back(c.name);
    std::string msg = unknown("Krylov method", kc.name, solvers);
    if (find_entry(precond_, kc.name))
      msg += "; '" + kc.name + "' is a preconditioner: write e.g. richardson+" + kc.name;
    throw Error("spec '" + cut_value(spec.text) + "': " + msg);
  }
  const ParamValues kp = validate(spec.text, ke->name, ke->params, kc);
  const StopCriteria stop = stop_criteria(kp);

  const PreconditionerEntry* pe = find_entry(precond_, std::string("identity"));
  ParamValues pp;
  if (spec.components.size() == 2) {
    const SpecComponent& pc = spec.components[1];
    pe = find_entry(precond_, pc.name);
    if (!pe)
      throw Error("spec '" + cut_value(spec.text) + "': " + unknown("preconditioner", pc.name, preconditioner_names()));
    pp = validate(spec.text, pe->name, pe->params, pc);
  }
  auto method = building(spec.text, [&] { return ke->make(kp, stop); });
  auto precond = building(spec.text, [&] { return pe->make(pp); });
  return std::make_unique<LinearSolver>(spec.text, std::move(method), std::move(precond),
                                        parse_backend(kp.text("backend")));
}

std::unique_ptr<KrylovMethod> Registry::make_method(const std::string& spec, const SpecComponent& c,
                                                    Backend* backend) const {
  const KrylovEntry* ke = find_entry(krylov_, c.name);
  if (!ke) throw Error("spec '" + cut_value(spec) + "': " + unknown("Krylov method", c.name, krylov_names()));
  const ParamValues kp = validate(spec, ke->name, ke->params, c);
  if (backend) *backend = parse_backend(kp.text("backend"));
  return building(spec, [&] { return ke->make(kp, stop_criteria(kp)); });
}

ParamValues Registry::preconditioner_parameters(const std::string& spec, const SpecComponent& c) const {
  const PreconditionerEntry* pe = find_entry(precond_, c.name);
  if (!pe) throw Error("spec '" + cut_value(spec) + "': " + unknown("preconditioner", c.name, preconditioner_names()));
  return validate(spec, pe->name, pe->params, c);
}

std::unique_ptr<Preconditioner> Registry::make_preconditioner(const std::string& spec, const SpecComponent& c) const {
  const ParamValues pp = preconditioner_parameters(spec, c);
  return building(spec, [&] { return find_entry(precond_, c.name)->make(pp); });
}

std::unique_ptr<LinearSolver> Registry::make_complete(const CompleteSolverEntry& e, const SolverSpec& spec) const {
  if (spec.components.size() > 1)
    throw Error("spec '" + cut_value(spec.text) + "': " + e.name +
                " is a complete solver with its own preconditioner; write it without '+'");
  const ParamValues p = validate(spec.text, e.name, e.params, spec.components[0]);
  const Backend backend = parse_backend(p.text("backend"));
  auto solver = building(spec.text, [&] { return e.make(p, stop_criteria(p), backend); });
  return std::make_unique<LinearSolver>(spec.text, std::move(solver), backend);
}

std::string Registry::help() const {
  std::ostringstream o;
  o << "Solver specification: KRYLOV[(key=value,...)][+PRECONDITIONER[(key=value,...)]]\n"
       "  e.g. fgmres(restart=30,rtol=1e-1,maxit=60)+bilu0\n"
       "  Each parameter is listed as name=default, what it does and [the values allowed].\n"
       "  Krylov methods:\n";
  for (const auto& e : krylov_) {
    o << "    " << e.name << "  " << e.help << "\n";
    describe_params(o, e.params);
  }
  o << "  Complete solvers (no '+'):\n";
  for (const auto& e : complete_) {
    o << "    " << e.name << "  " << e.help << "\n";
    describe_params(o, e.params);
  }
  o << "  Preconditioners:\n";
  for (const auto& e : precond_) {
    o << "    " << e.name << "  " << e.help << "\n";
    describe_params(o, e.params);
  }
  return o.str();
}

const Registry& Registry::builtin() {
  static const Registry r = [] {
    Registry reg;
    register_krylov(reg);
    register_basic_preconditioners(reg);
    register_fgbilu(reg);
    register_async_ilu(reg);
    register_multicolor(reg);
    register_parilut(reg);
    register_banded(reg);
    register_petsc(reg);
    register_schwarz(reg);
    register_mg(reg);
    return reg;
  }();
  return r;
}

std::unique_ptr<LinearSolver> make_solver(std::string_view spec) { return Registry::builtin().make(spec); }

std::string nearest_name(std::string_view word, const std::vector<std::string>& candidates) {
  std::string best;
  std::size_t best_d = std::max<std::size_t>(2, word.size() / 3) + 1;
  for (const auto& c : candidates) {
    // The distance is at least the difference of the lengths: a word far
    // longer than a name (a 50 MB value) is compared with none.
    if ((word.size() > c.size() ? word.size() - c.size() : c.size() - word.size()) >= best_d) continue;
    std::vector<std::size_t> prev(c.size() + 1), cur(c.size() + 1);
    for (std::size_t j = 0; j <= c.size(); ++j) prev[j] = j;
    for (std::size_t i = 1; i <= word.size(); ++i) {
      cur[0] = i;
      for (std::size_t j = 1; j <= c.size(); ++j)
        cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (word[i - 1] != c[j - 1])});
      std::swap(prev, cur);
    }
    if (prev[c.size()] < best_d) best_d = prev[c.size()], best = c;
  }
  return best;
}

}  // namespace tb
