#include "case_config.hpp"

#include <toml++/toml.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <sstream>

#include "solvers/core/error.hpp"
#include "solvers/core/input_limit.hpp"
#include "solvers/factory/registry.hpp"
#include "solvers/factory/spec.hpp"
#include "solvers/systems/autopilot_spec.hpp"

namespace tb::harness {

namespace {

std::string type_name(KeyType t) {
  switch (t) {
    case KeyType::integer:
      return "an integer";
    case KeyType::real:
      return "a real number";
    case KeyType::boolean:
      return "true or false";
    case KeyType::text:
      return "a string";
  }
  return {};
}

std::string unknown_key(const CaseSchema& schema, const std::string& key) {
  const std::string near = nearest_name(key, schema.names());
  return "unknown key '" + cut_value(key) + "'" + (near.empty() ? "" : " (did you mean '" + near + "'?)") +
         "; run with --help for every key";
}

// The shortest text that reads back to the same double.
std::string shortest(double v) {
  char buf[32];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, end);
}

// The text of a case file, line by line, to quote a number as it is written.
class SourceLines {
 public:
  explicit SourceLines(std::string_view text) {
    for (std::size_t at = 0; at <= text.size();) {
      const std::size_t end = std::min(text.find('\n', at), text.size());
      lines_.push_back(text.substr(at, end - at));
      at = end + 1;
    }
  }
  // The token that starts at a node's position ("1e-400" of "dt = 1e-400 # ..."), "" when unknown.
  std::string token_at(const toml::source_position& p) const {
    if (p.line == 0 || p.line > lines_.size() || p.column == 0) return {};
    const std::string_view line = lines_[p.line - 1];
    if (p.column > line.size()) return {};
    const std::size_t begin = p.column - 1;
    std::size_t end = begin;
    while (end < line.size() && (std::isalnum(static_cast<unsigned char>(line[end])) || line[end] == '.' ||
                                 line[end] == '_' || line[end] == '+' || line[end] == '-'))
      ++end;
    return std::string(line.substr(begin, end - begin));
  }

 private:
  std::vector<std::string_view> lines_;
};

// A TOML float as it is written, when that text is the number toml++ read or
// no double at all (1e-400, 1e400: toml++ reads 0 and inf, which would be
// refused, or accepted, as values the file does not hold); else its value.
std::string float_text(double value, const std::string& token) {
  std::string t;
  for (char c : token)
    if (c != '_') t.push_back(c);
  if (!t.empty() && t.front() == '+') t.erase(0, 1);
  double parsed = 0.0;
  const auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), parsed);
  if (!t.empty() && p == t.data() + t.size() &&
      (ec == std::errc::result_out_of_range || (ec == std::errc() && parsed == value)))
    return t;
  return shortest(value);
}

// A TOML value node as the text --set would have given.
std::string node_text(const toml::node& n, const SourceLines* source = nullptr) {
  if (auto v = n.as_string()) return v->get();
  if (auto v = n.as_integer()) return std::to_string(v->get());
  if (auto v = n.as_boolean()) return v->get() ? "true" : "false";
  if (auto v = n.as_floating_point())
    return source ? float_text(v->get(), source->token_at(n.source().begin)) : shortest(v->get());
  return {};
}

// What a TOML node is, for a refusal that cannot quote it as a value.
std::string node_kind(const toml::node& n) {
  if (n.is_array()) return "an array";
  if (n.is_table()) return "a table";
  if (n.is_date()) return "a date";
  if (n.is_time()) return "a time";
  if (n.is_date_time()) return "a date-time";
  return "a value of another type";
}

// "solver.<system>.autopilot" -> "solver.<system>"; "" for any other key.
std::string autopilot_table_key(const std::string& key) {
  const std::string suffix = ".autopilot";
  if (key.rfind("solver.", 0) != 0 || key.size() <= suffix.size() ||
      key.compare(key.size() - suffix.size(), suffix.size(), suffix) != 0)
    return {};
  return key.substr(0, key.size() - suffix.size());
}

// A [solver.<system>.autopilot] table written as the autopilot's text form:
//   candidates = ["gmres+bilu0", "gmres+jacobi"]  every = 10
// becomes autopilot(candidates=[gmres+bilu0; gmres+jacobi], every=10); the
// parameters are checked where the text form is (solvers/systems/autopilot_spec.cpp).
std::string autopilot_text(const toml::table& t, const std::string& path) {
  std::string out = "autopilot(";
  for (const auto& [k, node] : t) {
    out += (out.back() == '(' ? "" : ", ") + std::string(k.str()) + "=";
    if (const auto* list = node.as_array()) {
      std::string items;
      for (const auto& item : *list) {
        if (!item.is_string())
          throw ParseError(path, long(item.source().begin.line),
                           "autopilot candidates are strings (solver specifications)");
        items += (items.empty() ? "" : "; ") + node_text(item);
      }
      out += "[" + items + "]";
    } else {
      out += node_text(node);
    }
  }
  return out + ")";
}

// A value as an error message quotes it: text in quotes (cut when long),
// numbers as they are (a canonical number is short).
std::string shown(KeyType t, const std::string& value) { return t == KeyType::text ? quoted_value(value) : value; }

// The double of a canonical real value, or of a numeric bound's operand: from_chars
// reads every double, subnormal ones included (std::stod refuses those).
double read_double(const std::string& text) {
  double v = 0.0;
  const auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || p != text.data() + text.size())
    throw Error("internal: '" + cut_value(text) + "' is not the canonical text of a number");
  return v;
}

std::string shown_names(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + (n.empty() ? std::string("\"\"") : n);
  return out;
}

// An autopilot is checked as its parser and the autopilot's start-up check it:
// its parameters and each candidate's syntax here; a candidate the registry
// cannot build is the autopilot's to refuse (autopilot_slot.cpp).
void check_solver_specification(const std::string& text) {
  if (systems::is_autopilot_spec(text)) {
    for (const auto& candidate : systems::parse_autopilot_spec(text).candidates) parse_spec(candidate);
    return;
  }
  make_solver(text);
}

bool type_matches(KeyType t, const toml::node& n) {
  switch (t) {
    case KeyType::integer:
      return n.is_integer();
    case KeyType::real:
      return n.is_integer() || n.is_floating_point();
    case KeyType::boolean:
      return n.is_boolean();
    case KeyType::text:
      return n.is_string();
  }
  return false;
}

}  // namespace

bool KeyDomain::restricts() const { return min || max || !names.empty() || existing_file || solver; }

std::string KeyDomain::describe() const {
  if (solver) return "a solver specification (--help lists every solver) or autopilot(candidates=[...])";
  if (existing_file) return std::string("an existing regular file") + (empty_allowed ? " or \"\" (none)" : "");
  if (!names.empty()) return "one of " + shown_names(names);
  std::string out;
  if (min) out = (min_open ? "> " : ">= ") + shortest(*min);
  if (max) out += (out.empty() ? "" : " and ") + std::string(max_open ? "< " : "<= ") + shortest(*max);
  return out.empty() ? "any value" : out;
}

KeyDomain at_least(double min) { return {.min = min}; }
KeyDomain greater_than(double min) { return {.min = min, .min_open = true}; }
KeyDomain in_range(double min, double max) { return {.min = min, .max = max}; }
KeyDomain one_of(std::vector<std::string> names) { return {.names = std::move(names)}; }
KeyDomain existing_file(bool empty_allowed) { return {.existing_file = true, .empty_allowed = empty_allowed}; }
KeyDomain solver_specification() { return {.solver = true}; }

void check_domain(const CaseKey& key, const std::string& value, bool files) {
  const KeyDomain& d = key.domain;
  auto refuse = [&](const std::string& why = "") {
    return Error(key.name + ": given " + shown(key.type, value) + ", allowed " + d.describe() +
                 (why.empty() ? "" : " (" + why + ")"));
  };
  if (d.min || d.max) {
    const double v = read_double(value);  // canonical: parses
    if (d.min && (d.min_open ? !(v > *d.min) : !(v >= *d.min))) throw refuse();
    if (d.max && (d.max_open ? !(v < *d.max) : !(v <= *d.max))) throw refuse();
  }
  if (!d.names.empty() && std::find(d.names.begin(), d.names.end(), value) == d.names.end()) throw refuse();
  if (files && d.existing_file && !(value.empty() && d.empty_allowed)) {
    std::error_code ec;
    const auto status = std::filesystem::status(value, ec);
    // A relative path is the working directory's (as SU2 reads them), not the
    // case file's: say which directory was searched.
    if (!std::filesystem::exists(status))
      throw refuse(std::filesystem::path(value).is_relative()
                       ? "no such file in the working directory " + std::filesystem::current_path(ec).string()
                       : "no such file");
    if (!std::filesystem::is_regular_file(status)) throw refuse("not a regular file");
  }
  if (d.solver) try {
      check_solver_specification(value);
    } catch (const Error& e) {
      throw refuse(e.what());
    }
}

void CaseSchema::add(CaseKey key) {
  if (find(key.name)) throw Error("case schema: key '" + key.name + "' declared twice");
  // A bad default is a programming error caught at start-up; files and solvers
  // are checked where a value is given (they depend on the machine).
  const std::string value = canonical_value(key, key.default_value);
  if (!key.domain.existing_file && !key.domain.solver) check_domain(key, value);
  keys_.push_back(std::move(key));
}

const CaseKey* CaseSchema::find(std::string_view name) const {
  for (const auto& k : keys_)
    if (k.name == name) return &k;
  return nullptr;
}

std::vector<std::string> CaseSchema::names() const {
  std::vector<std::string> v;
  for (const auto& k : keys_) v.push_back(k.name);
  return v;
}

std::string CaseSchema::help() const {
  std::ostringstream o;
  std::size_t width = 0;
  for (const auto& k : keys_) width = std::max(width, k.name.size() + canonical_value(k, k.default_value).size() + 3);
  for (const auto& k : keys_) {
    const std::string v = canonical_value(k, k.default_value);
    std::string lhs = k.name + " = " + (k.type == KeyType::text ? "\"" + v + "\"" : v);
    o << "  " << lhs << std::string(width + 4 > lhs.size() ? width + 4 - lhs.size() : 1, ' ') << k.help;
    if (k.domain.restricts() && !k.domain.solver) o << " [allowed: " << k.domain.describe() << "]";
    o << "\n";
  }
  return o.str();
}

std::string canonical_value(const CaseKey& key, std::string_view text) {
  auto bad = [&](const std::string& why = "") {
    return Error(key.name + ": given " + quoted_value(text) + ", allowed " + type_name(key.type) +
                 (why.empty() ? "" : " (" + why + ")"));
  };
  const char* b = text.data();
  const char* e = text.data() + text.size();
  switch (key.type) {
    case KeyType::integer: {
      long v;
      auto [p, ec] = std::from_chars(b, e, v);
      if (ec == std::errc::result_out_of_range && p == e) throw bad("from -2^63 to 2^63 - 1");
      if (ec != std::errc() || p != e) throw bad();
      return std::to_string(v);
    }
    case KeyType::real: {
      double v;
      auto [p, ec] = std::from_chars(b, e, v);
      if (ec == std::errc::result_out_of_range && p == e) {
        // No double: too large, or too small to be told from 0 (strtod says which).
        const double rounded = std::strtod(std::string(text).c_str(), nullptr);
        throw bad(std::abs(rounded) > 1.0 ? "a double: at most 1.8e308 in magnitude"
                                          : "a double: " + std::string(text) +
                                                " is below the smallest positive double, 4.9e-324; write 0 for zero");
      }
      if (ec != std::errc() || p != e) throw bad();
      if (!std::isfinite(v)) throw bad("a finite one");
      return shortest(v);
    }
    case KeyType::boolean:
      if (text == "true" || text == "1") return "true";
      if (text == "false" || text == "0") return "false";
      throw bad();
    case KeyType::text:
      return std::string(text);
  }
  throw bad();
}

CaseConfig::CaseConfig(const CaseSchema& schema) : schema_(schema) {
  // Canonical like every value set later, so that to_toml() reads back to itself ("1e-5" is kept as "1e-05").
  for (const auto& k : schema.keys()) values_[k.name] = canonical_value(k, k.default_value);
}

void CaseConfig::load_toml(const std::string& path) {
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (!std::filesystem::exists(status)) throw Error(path + ": case file not found");
  if (!std::filesystem::is_regular_file(status))
    throw Error(path + ": the case file: given " +
                (std::filesystem::is_directory(status) ? "a directory" : "a file that is not a regular file") +
                ", allowed a regular TOML file");
  // Read with the input limit (a NUL byte refused at its line), then parsed
  // from memory, whose lines quote the numbers as written.
  const std::string text = read_input_file(path, "case file", InputContent::text);
  const SourceLines source(text);
  toml::table root;
  try {
    root = toml::parse(text, path);
  } catch (const toml::parse_error& e) {
    const long line = long(e.source().begin.line);
    if (line == 0) throw Error(path + ": cannot read the case file: " + std::string(e.description()));
    throw ParseError(path, line, std::string(e.description()));
  }
  // Walk nested tables, turning [solver] pressure = ... into "solver.pressure".
  auto walk = [&](auto&& self, const toml::table& t, const std::string& prefix) -> void {
    for (const auto& [k, node] : t) {
      const std::string key = prefix.empty() ? std::string(k.str()) : prefix + "." + std::string(k.str());
      const long line = long(node.source().begin.line);
      if (const auto* sub = node.as_table()) {
        if (const std::string system = autopilot_table_key(key); !system.empty() && schema_.find(system)) {
          const std::string text = autopilot_text(*sub, path);
          try {
            check_domain(*schema_.find(system), text);
          } catch (const Error& e) {
            throw ParseError(path, line, e.what());
          }
          values_[system] = text;
          origins_[system] = path + ":" + std::to_string(line);
          continue;
        }
        self(self, *sub, key);
        continue;
      }
      const CaseKey* spec = schema_.find(key);
      if (!spec) throw ParseError(path, line, unknown_key(schema_, key));
      if (!type_matches(spec->type, node)) {
        const std::string text = node_text(node, &source);
        const std::string given = node.is_string() ? quoted_value(text) : text.empty() ? node_kind(node) : text;
        throw ParseError(path, line,
                         key + ": given " + given + ", allowed " + type_name(spec->type) + " (the key must be " +
                             type_name(spec->type) + ")");
      }
      try {
        const std::string value = canonical_value(*spec, node_text(node, &source));
        check_domain(*spec, value);
        values_[key] = value;
        origins_[key] = path + ":" + std::to_string(line);
      } catch (const Error& e) {
        throw ParseError(path, line, e.what());
      }
    }
  };
  walk(walk, root, "");
}

void CaseConfig::set(const std::string& key, const std::string& value, const std::string& origin) {
  const CaseKey* spec = schema_.find(key);
  if (!spec) throw Error(origin + ": " + unknown_key(schema_, key));
  try {
    const std::string v = canonical_value(*spec, value);
    check_domain(*spec, v);
    values_[key] = v;
    origins_[key] = origin;
  } catch (const Error& e) {
    throw Error(origin + ": " + e.what());
  }
}

void CaseConfig::check_files() const {
  for (const auto& k : schema_.keys()) {
    if (!k.domain.existing_file) continue;
    try {
      check_domain(k, values_.at(k.name), true);
    } catch (const Error& e) {
      const std::string from = origin(k.name);
      throw Error((from.empty() ? "" : from + ": ") + e.what() + (from.empty() ? " (the default)" : ""));
    }
  }
}

std::string CaseConfig::key_and_value(const std::string& key) const {
  const std::string from = origin(key);
  return key + " = " + shown(require(key).type, values_.at(key)) + " (" + (from.empty() ? "the default" : from) + ")";
}

std::string CaseConfig::origin(const std::string& key) const {
  require(key);
  auto it = origins_.find(key);
  return it == origins_.end() ? std::string() : it->second;
}

Error CaseConfig::refusal(const std::string& key, const std::string& allowed) const {
  const std::string from = origin(key);
  return Error((from.empty() ? "" : from + ": ") + key + ": given " + shown(require(key).type, values_.at(key)) +
               (from.empty() ? " (the default)" : "") + ", allowed " + allowed);
}

const CaseKey& CaseConfig::require(const std::string& key) const {
  const CaseKey* spec = schema_.find(key);
  if (!spec) throw Error("internal: the case schema has no key '" + key + "'");
  return *spec;
}

long CaseConfig::integer(const std::string& key) const {
  require(key);
  const std::string& text = values_.at(key);
  long v = 0;
  const auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || p != text.data() + text.size())
    throw Error("internal: " + key + " holds " + quoted_value(text) + ", not an integer");
  return v;
}
double CaseConfig::real(const std::string& key) const {
  require(key);
  return read_double(values_.at(key));
}

bool CaseConfig::differs_from_default(const std::string& key) const {
  const CaseKey& k = require(key);
  return values_.at(key) != canonical_value(k, k.default_value);
}
bool CaseConfig::boolean(const std::string& key) const {
  require(key);
  return values_.at(key) == "true";
}
const std::string& CaseConfig::text(const std::string& key) const {
  require(key);
  return values_.at(key);
}

std::string CaseConfig::to_toml() const {
  // Group by table; keys are written in schema order within a table.
  std::map<std::string, std::vector<const CaseKey*>> tables;
  for (const auto& k : schema_.keys()) {
    const auto dot = k.name.rfind('.');
    tables[dot == std::string::npos ? "" : k.name.substr(0, dot)].push_back(&k);
  }
  std::ostringstream o;
  for (const auto& [table, keys] : tables) {
    if (!table.empty()) o << "\n[" << table << "]\n";
    for (const CaseKey* k : keys) {
      const std::string leaf = k->name.substr(table.empty() ? 0 : table.size() + 1);
      const std::string& v = values_.at(k->name);
      o << leaf << " = ";
      if (k->type == KeyType::text) {
        o << toml::value<std::string>(v);
      } else if (k->type == KeyType::real && v.find_first_of(".eEn") == std::string::npos) {
        o << v << ".0";  // keep it a TOML float
      } else {
        o << v;
      }
      o << "\n";
    }
  }
  return o.str();
}

}  // namespace tb::harness
