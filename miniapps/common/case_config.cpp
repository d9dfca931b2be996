#include "case_config.hpp"

#include <toml++/toml.h>

#include <charconv>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "solvers/core/error.hpp"
#include "solvers/factory/registry.hpp"

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
  return "unknown key '" + key + "'" + (near.empty() ? "" : " (did you mean '" + near + "'?)") +
         "; run with --help for every key";
}

// The shortest text that reads back to the same double.
std::string shortest(double v) {
  char buf[32];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, end);
}

// A TOML value node as the text --set would have given.
std::string node_text(const toml::node& n) {
  if (auto v = n.as_string()) return v->get();
  if (auto v = n.as_integer()) return std::to_string(v->get());
  if (auto v = n.as_boolean()) return v->get() ? "true" : "false";
  if (auto v = n.as_floating_point()) return shortest(v->get());
  return {};
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
// parameters are checked where the text form is (miniapps/common/autopilot.cpp).
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

void CaseSchema::add(CaseKey key) {
  if (find(key.name)) throw Error("case schema: key '" + key.name + "' declared twice");
  canonical_value(key, key.default_value);  // a bad default is a programming error caught at start-up
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
  for (const auto& k : keys_) width = std::max(width, k.name.size() + k.default_value.size() + 3);
  for (const auto& k : keys_) {
    std::string lhs = k.name + " = " + (k.type == KeyType::text ? "\"" + k.default_value + "\"" : k.default_value);
    o << "  " << lhs << std::string(width + 4 > lhs.size() ? width + 4 - lhs.size() : 1, ' ') << k.help << "\n";
  }
  return o.str();
}

std::string canonical_value(const CaseKey& key, std::string_view text) {
  auto bad = [&] {
    return Error("key '" + key.name + "': value '" + std::string(text) + "' is not " + type_name(key.type));
  };
  const char* b = text.data();
  const char* e = text.data() + text.size();
  switch (key.type) {
    case KeyType::integer: {
      long v;
      auto [p, ec] = std::from_chars(b, e, v);
      if (ec != std::errc() || p != e) throw bad();
      return std::to_string(v);
    }
    case KeyType::real: {
      double v;
      auto [p, ec] = std::from_chars(b, e, v);
      if (ec != std::errc() || p != e || !std::isfinite(v)) throw bad();
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
  toml::table root;
  try {
    root = toml::parse_file(path);
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
          values_[system] = autopilot_text(*sub, path);
          continue;
        }
        self(self, *sub, key);
        continue;
      }
      const CaseKey* spec = schema_.find(key);
      if (!spec) throw ParseError(path, line, unknown_key(schema_, key));
      if (!type_matches(spec->type, node))
        throw ParseError(path, line, "key '" + key + "' must be " + type_name(spec->type));
      try {
        values_[key] = canonical_value(*spec, node_text(node));
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
    values_[key] = canonical_value(*spec, value);
  } catch (const Error& e) {
    throw Error(origin + ": " + e.what());
  }
}

const CaseKey& CaseConfig::require(const std::string& key) const {
  const CaseKey* spec = schema_.find(key);
  if (!spec) throw Error("internal: the case schema has no key '" + key + "'");
  return *spec;
}

long CaseConfig::integer(const std::string& key) const {
  require(key);
  return std::stol(values_.at(key));
}
double CaseConfig::real(const std::string& key) const {
  require(key);
  return std::stod(values_.at(key));
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
