#include "autopilot_spec.hpp"

#include <cstdio>
#include <cstdlib>
#include <istream>

#include "solvers/core/error.hpp"

namespace tb::systems {

namespace {

constexpr const char* keys_allowed =
    "candidates, every, backoff, budget, hysteresis, drift, mode, start, progress, tenure, limit_price";

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\n");
  if (b == std::string::npos) return {};
  return s.substr(b, s.find_last_not_of(" \t\n") - b + 1);
}

// Splits at `sep` where no bracket or parenthesis is open.
std::vector<std::string> split_top_level(const std::string& s, char sep) {
  std::vector<std::string> parts(1);
  int depth = 0;
  for (char c : s) {
    if (c == '(' || c == '[') ++depth;
    if (c == ')' || c == ']') --depth;
    if (c == sep && depth == 0) {
      parts.emplace_back();
      continue;
    }
    parts.back() += c;
  }
  return parts;
}

double number(const std::string& text, const std::string& key, const std::string& value, double lo, double hi) {
  std::size_t used = 0;
  double v = 0.0;
  try {
    v = std::stod(value, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != value.size() || used == 0 || !(v >= lo && v <= hi))
    throw Error("'" + text + "': autopilot parameter '" + key + "' = '" + value + "' is not a number in [" +
                std::to_string(lo) + ", " + std::to_string(hi) + "]");
  return v;
}

}  // namespace

std::string exact_text(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%a", v);
  return buf;
}

double read_exact(std::istream& in) {
  std::string t;
  in >> t;
  return std::strtod(t.c_str(), nullptr);  // reads %a exactly, nan and inf included
}

bool is_autopilot_spec(const std::string& text) { return trim(text).rfind("autopilot(", 0) == 0; }

AutopilotSpec parse_autopilot_spec(const std::string& raw) {
  const std::string text = trim(raw);
  if (!is_autopilot_spec(text) || text.back() != ')')
    throw Error("'" + text + "': an autopilot is written autopilot(candidates=[SPEC; SPEC; ...], every=N, ...)");
  AutopilotSpec spec;
  bool have_candidates = false;
  for (const std::string& part : split_top_level(text.substr(10, text.size() - 11), ',')) {
    const auto eq = part.find('=');
    if (eq == std::string::npos)
      throw Error("'" + text + "': expected key=value in the autopilot, not '" + trim(part) + "'");
    const std::string key = trim(part.substr(0, eq)), value = trim(part.substr(eq + 1));
    if (key == "candidates") {
      if (value.size() < 2 || value.front() != '[' || value.back() != ']')
        throw Error("'" + text + "': autopilot candidates are written [SPEC; SPEC; ...]");
      for (const std::string& c : split_top_level(value.substr(1, value.size() - 2), ';'))
        if (!trim(c).empty()) spec.candidates.push_back(trim(c));
      have_candidates = true;
    } else if (key == "every") {
      spec.every = long(number(text, key, value, 1, 1e9));
    } else if (key == "backoff") {
      spec.backoff = long(number(text, key, value, 1, 1024));
    } else if (key == "budget") {
      spec.budget = number(text, key, value, 0, 1);
    } else if (key == "hysteresis") {
      spec.hysteresis = number(text, key, value, 0, 0.99);
    } else if (key == "drift") {
      spec.drift = number(text, key, value, 0, 1e6);
    } else if (key == "start") {
      spec.start = int(number(text, key, value, 1, 1000)) - 1;
    } else if (key == "tenure") {
      spec.tenure = long(number(text, key, value, 0, 1e6));
    } else if (key == "progress") {
      if (value != "on" && value != "off")
        throw Error("'" + text + "': autopilot progress '" + value + "' is not one of on, off");
      spec.progress = value == "on";
    } else if (key == "limit_price") {
      if (value != "tolerance" && value != "as_run")
        throw Error("'" + text + "': autopilot limit_price '" + value + "' is not one of tolerance, as_run");
      spec.price_to_tolerance = value == "tolerance";
    } else if (key == "mode") {
      if (value != "timed" && value != "deterministic")
        throw Error("'" + text + "': autopilot mode '" + value + "' is not one of timed, deterministic");
      spec.deterministic = value == "deterministic";
    } else {
      throw Error("'" + text + "': unknown autopilot parameter '" + key + "' (allowed: " + keys_allowed + ")");
    }
  }
  if (!have_candidates || spec.candidates.size() < 2)
    throw Error("'" + text + "': an autopilot needs candidates=[...] with at least two solver specifications");
  for (const auto& c : spec.candidates)
    if (is_autopilot_spec(c)) throw Error("'" + text + "': an autopilot candidate cannot be an autopilot");
  if (spec.start >= int(spec.candidates.size()))
    throw Error("'" + text + "': autopilot start=" + std::to_string(spec.start + 1) + " but there are " +
                std::to_string(spec.candidates.size()) + " candidates");
  return spec;
}

}  // namespace tb::systems
