#pragma once
// Case files: TOML with a schema declared by each miniapp. Every key has a type,
// a default and a help line; unknown keys and wrong types are errors naming the
// file, line and key (with the nearest valid key), so a typo never silently
// falls back to a default.
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace tb::harness {

enum class KeyType { integer, real, boolean, text };

struct CaseKey {
  std::string name;  // dotted: "solver.pressure"
  KeyType type;
  std::string default_value;
  std::string help;
};

class CaseSchema {
 public:
  void add(CaseKey key);
  const CaseKey* find(std::string_view name) const;
  std::vector<std::string> names() const;
  const std::vector<CaseKey>& keys() const { return keys_; }
  // Every key with its type, default and help, for --help.
  std::string help() const;

 private:
  std::vector<CaseKey> keys_;
};

class CaseConfig {
 public:
  explicit CaseConfig(const CaseSchema& schema);

  // Reads a TOML case file over the current values; tb::ParseError on bad input.
  void load_toml(const std::string& path);
  // One "key=value" override; origin names it in errors ("--set", a file).
  void set(const std::string& key, const std::string& value, const std::string& origin = "--set");

  long integer(const std::string& key) const;
  double real(const std::string& key) const;
  bool boolean(const std::string& key) const;
  const std::string& text(const std::string& key) const;

  // The effective configuration as TOML, written beside the results.
  std::string to_toml() const;
  const CaseSchema& schema() const { return schema_; }

 private:
  const CaseKey& require(const std::string& key) const;
  CaseSchema schema_;                          // a copy: a config must not outlive the schema it checks against
  std::map<std::string, std::string> values_;  // canonical text of each value
};

// Text form of a value if it is valid for the type, else throws tb::Error.
std::string canonical_value(const CaseKey& key, std::string_view text);

}  // namespace tb::harness
