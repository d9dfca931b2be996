#include "spec.hpp"

#include <algorithm>
#include <cctype>

namespace tb {

namespace {

class SpecParser {
 public:
  explicit SpecParser(std::string_view text) : text_(text) {}

  SolverSpec parse() {
    SolverSpec spec;
    spec.text = std::string(text_);
    spec.components.push_back(component());
    skip_space();
    while (peek() == '+') {
      ++pos_;
      spec.components.push_back(component());
      skip_space();
    }
    if (pos_ != text_.size()) fail("expected '+' or the end of the specification");
    return spec;
  }

 private:
  SpecComponent component() {
    SpecComponent c;
    c.name = word("a solver name");
    skip_space();
    if (peek() != '(') return c;
    ++pos_;
    skip_space();
    if (peek() == ')') {
      ++pos_;
      return c;
    }
    for (;;) {
      std::string key = word("a parameter name");
      skip_space();
      if (peek() != '=') fail("expected '=' after parameter '" + key + "'");
      ++pos_;
      std::string value = token();
      for (const auto& kv : c.params)
        if (kv.first == key) fail("parameter '" + key + "' given twice");
      c.params.emplace_back(std::move(key), std::move(value));
      skip_space();
      if (peek() == ',') {
        ++pos_;
        continue;
      }
      if (peek() == ')') {
        ++pos_;
        return c;
      }
      fail("expected ',' or ')'");
    }
  }

  // Names: letters, digits and '_', starting with a letter.
  std::string word(const std::string& what) {
    skip_space();
    const std::size_t start = pos_;
    if (!std::isalpha(static_cast<unsigned char>(peek()))) fail("expected " + what);
    while (std::isalnum(static_cast<unsigned char>(peek())) || peek() == '_') ++pos_;
    return std::string(text_.substr(start, pos_ - start));
  }

  // Values: everything up to ',' or ')' (numbers like 1e-1, words like mixed),
  // or a component in parentheses whose commas are its own
  // (local=async_bilu(build_sweeps=1,apply_sweeps=3)).
  std::string token() {
    skip_space();
    const std::size_t start = pos_;
    int depth = 0;
    while (pos_ < text_.size() && !std::isspace(static_cast<unsigned char>(peek()))) {
      if (depth == 0 && (peek() == ',' || peek() == ')')) break;
      if (peek() == '(') ++depth;
      if (peek() == ')') --depth;
      ++pos_;
    }
    if (depth > 0) fail("expected ')' to close the value");
    if (pos_ == start) fail("expected a value");
    return std::string(text_.substr(start, pos_ - start));
  }

  char peek() const { return pos_ < text_.size() ? text_[pos_] : '\0'; }
  void skip_space() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  [[noreturn]] void fail(const std::string& what) const {
    throw Error("spec '" + cut_value(text_) + "', column " + std::to_string(pos_ + 1) + ": " + what);
  }

  std::string_view text_;
  std::size_t pos_ = 0;
};

}  // namespace

SolverSpec parse_spec(std::string_view text) { return SpecParser(text).parse(); }

std::string component_text(const SpecComponent& c) {
  std::string t = c.name;
  for (std::size_t k = 0; k < c.params.size(); ++k)
    t += (k == 0 ? "(" : ",") + c.params[k].first + "=" + c.params[k].second;
  return c.params.empty() ? t : t + ")";
}

std::vector<std::pair<std::string, std::string>>::iterator find_param(SpecComponent& c, std::string_view key) {
  return std::find_if(c.params.begin(), c.params.end(), [&](const auto& kv) { return kv.first == key; });
}

const std::string* param_value(const SpecComponent& c, std::string_view key) {
  for (const auto& [k, v] : c.params)
    if (k == key) return &v;
  return nullptr;
}

bool names_param(const SolverSpec& s, std::string_view key, std::string_view value) {
  for (const SpecComponent& c : s.components)
    if (const std::string* v = param_value(c, key); v && (value.empty() || *v == value)) return true;
  return false;
}

}  // namespace tb
