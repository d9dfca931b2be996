#pragma once
// Case files: TOML with a schema declared by each miniapp. Every key has a type,
// a default, a help line and a domain (the values it allows); unknown keys,
// wrong types and values outside the domain are errors naming the file, line
// and key (with the nearest valid key), so a typo never silently falls back to
// a default and a nonsensical value never reaches the first step:
//   FILE:LINE: KEY: given VALUE, allowed DOMAIN
//   --set: KEY: given VALUE, allowed DOMAIN
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "solvers/core/error.hpp"

namespace tb::harness {

enum class KeyType { integer, real, boolean, text };

// The values a key allows beyond its type. Checked where a value enters
// (load_toml, set), not on the schema's own defaults.
struct KeyDomain {
  std::optional<double> min = {}, max = {};  // numeric bounds
  bool min_open = false, max_open = false;   // strict bounds (> min, < max)
  std::vector<std::string> names = {};       // the only values allowed (text or integer keys), when not empty
  // A path to an existing regular file (relative: to the working directory),
  // checked by CaseConfig::check_files once every override is in: a case
  // file's path may be replaced by --set.
  bool existing_file = false;
  bool empty_allowed = false;  // with existing_file: "" (no file) is allowed too
  bool solver = false;         // a solver specification the registry builds, or an autopilot
  // "any value" when nothing is declared, else ">= 1", "one of a, b", ...
  std::string describe() const;
  bool restricts() const;
};

// The common domains, by name.
KeyDomain at_least(double min);              // >= min
KeyDomain greater_than(double min);          // > min
KeyDomain in_range(double min, double max);  // min <= v <= max
KeyDomain one_of(std::vector<std::string> names);
KeyDomain existing_file(bool empty_allowed = false);
KeyDomain solver_specification();

struct CaseKey {
  std::string name;  // dotted: "solver.pressure"
  KeyType type;
  std::string default_value;
  std::string help;
  KeyDomain domain = {};  // empty: any value of the type
};

class CaseSchema {
 public:
  void add(CaseKey key);
  const CaseKey* find(std::string_view name) const;
  std::vector<std::string> names() const;
  const std::vector<CaseKey>& keys() const { return keys_; }
  // Every key with its type, default, help and domain, for --help.
  std::string help() const;

 private:
  std::vector<CaseKey> keys_;
};

class CaseConfig {
 public:
  explicit CaseConfig(const CaseSchema& schema);

  // Reads a TOML case file over the current values; tb::ParseError on bad input,
  // tb::Error when the path is no regular file.
  void load_toml(const std::string& path);
  // One "key=value" override; origin names it in errors ("--set", "--steps", a file).
  void set(const std::string& key, const std::string& value, const std::string& origin = "--set");
  // tb::Error in the shape above, naming the place, unless every file key names an existing regular file.
  void check_files() const;
  // Where the key's value came from: "FILE:LINE", "--set", ..., or "" for the default.
  std::string origin(const std::string& key) const;
  // The error of a value outside what the physics allows, in the one shape:
  // "ORIGIN: KEY: given VALUE, allowed WHAT" (a cross-key check names the other keys in WHAT).
  Error refusal(const std::string& key, const std::string& allowed) const;
  // "KEY = VALUE (ORIGIN)", or "(the default)": another key a cross-key refusal names.
  std::string key_and_value(const std::string& key) const;

  // Whether the key's value is other than its default (given or not): a key
  // that a setting ignores is refused only then (a case written by a run
  // holds every key, at its default where nothing set it).
  bool differs_from_default(const std::string& key) const;

  long integer(const std::string& key) const;
  double real(const std::string& key) const;
  bool boolean(const std::string& key) const;
  const std::string& text(const std::string& key) const;

  // The effective configuration as TOML, written beside the results.
  std::string to_toml() const;
  const CaseSchema& schema() const { return schema_; }

 private:
  const CaseKey& require(const std::string& key) const;
  CaseSchema schema_;                           // a copy: a config must not outlive the schema it checks against
  std::map<std::string, std::string> values_;   // canonical text of each value
  std::map<std::string, std::string> origins_;  // where a value that is not the default came from
};

// Text form of a value if it is valid for the type, else throws tb::Error.
std::string canonical_value(const CaseKey& key, std::string_view text);
// Throws tb::Error "KEY: given VALUE, allowed DOMAIN" when the canonical value
// is outside the key's domain; files: also whether a file key names an existing regular file.
void check_domain(const CaseKey& key, const std::string& value, bool files = false);

}  // namespace tb::harness
