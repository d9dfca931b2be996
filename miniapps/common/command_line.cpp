#include "command_line.hpp"

#include <cctype>
#include <charconv>

#include "solvers/core/error.hpp"

namespace tb::harness {

namespace {

// A step count or number: an integer >= min ("--steps: given -1, allowed an integer >= 1").
long parse_count(const std::string& option, const std::string& text, long min) {
  long v = -1;
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || p != text.data() + text.size() || v < min)
    throw Error(option + ": given '" + cut_value(text) + "', allowed an integer >= " + std::to_string(min));
  return v;
}

}  // namespace

RunOptions parse_command_line(int argc, const char* const* argv) {
  RunOptions o;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw Error(arg + " needs a value");
      std::string v = argv[++i];
      if (v.empty()) throw Error(arg + ": given \"\", allowed a value (" + arg + " with an empty value does nothing)");
      return v;
    };
    if (arg == "-h" || arg == "--help") {
      o.help = true;
    } else if (arg == "--out") {
      o.out_dir = value();
    } else if (arg == "--set") {
      const std::string kv = value();
      const auto eq = kv.find('=');
      if (eq == std::string::npos || eq == 0) throw Error("--set expects key=value, got '" + cut_value(kv) + "'");
      o.sets.emplace_back(kv.substr(0, eq), kv.substr(eq + 1));
    } else if (arg == "--steps") {
      o.steps = parse_count("--steps", value(), 1);  // run.steps's domain
    } else if (arg == "--backend") {
      o.backend = value();  // run.backend's domain is checked as the key's
    } else if (arg == "--ab") {
      o.ab.push_back(value());
    } else if (arg == "--shadow") {
      o.shadow.push_back(value());
    } else if (arg == "--restart") {
      o.restart_dir = value();
    } else if (arg == "--dump-systems") {
      const std::string list = value();
      std::size_t start = 0;
      while (start <= list.size()) {
        const auto comma = list.find(',', start);
        o.dump_steps.push_back(
            parse_count("--dump-systems", list.substr(start, comma - start), 1));  // steps count from 1
        if (comma == std::string::npos) break;
        start = comma + 1;
      }
    } else if (!arg.empty() && arg[0] == '-') {
      throw Error("unknown option '" + cut_value(arg) + "'; run with --help");
    } else if (arg.empty()) {
      throw Error("an empty argument where a case file may stand; give a case file or none");
    } else if (o.case_file.empty()) {
      o.case_file = arg;
    } else {
      throw Error("a second case file '" + cut_value(arg) + "' (the first is '" + cut_value(o.case_file) + "')");
    }
  }
  if (!o.ab.empty() && !o.restart_dir.empty()) throw Error("--ab and --restart cannot be combined");
  // A restart continues its own run, in its folder and with its case (DIR/case.toml): anything else would be ignored.
  if (!o.restart_dir.empty() && !o.out_dir.empty())
    throw Error("--out and --restart cannot be combined: a restart continues in its own folder, " + o.restart_dir);
  if (!o.restart_dir.empty() && !o.case_file.empty())
    throw Error("a case file ('" + cut_value(o.case_file) + "') and --restart cannot be combined: a restart reads " +
                o.restart_dir +
                "/case.toml, the case of the run it continues (--set and --steps may change "
                "run.steps, run.progress, run.output_every and run.checkpoint_every)");
  return o;
}

std::string command_line_usage(const std::string& app) {
  return "usage: " + app +
         " [CASE.toml] [options]\n"
         "  CASE.toml            case file (TOML); without one the built-in default case runs\n"
         "  --out DIR            output folder (default out/" +
         app +
         ")\n"
         "  --set key=value      override one case key (repeatable)\n"
         "  --steps N            number of time steps (same as --set run.steps=N)\n"
         "  --backend host|cuda  where every linear system is solved (same as --set run.backend=...);\n"
         "                       cuda: the miniapp's GPU specifications where the case gives none\n"
         "  --ab [SYSTEM=]SPEC   independent A/B run: SPEC drives its own simulation (repeatable)\n"
         "  --shadow [SYSTEM=]SPEC  solve every system of the run also with SPEC, without\n"
         "                       touching the trajectory (repeatable)\n"
         "  --restart DIR        continue the run in DIR from its last checkpoint\n"
         "  --dump-systems S,..  write the linear systems of these steps as MatrixMarket\n"
         "  -h, --help           this text, every case key with its default, every solver\n";
}

StudySpec parse_study_spec(const std::string& text, const std::vector<std::string>& systems) {
  const auto eq = text.find('=');
  const auto paren = text.find('(');
  if (eq != std::string::npos && (paren == std::string::npos || eq < paren)) {
    const std::string name = text.substr(0, eq);
    bool identifier = !name.empty();
    for (char c : name) identifier = identifier && (std::isalnum(static_cast<unsigned char>(c)) || c == '_');
    if (identifier) {
      for (const auto& s : systems)
        if (s == name) return {name, text.substr(eq + 1)};
      std::string all;
      for (const auto& s : systems) all += (all.empty() ? "" : ", ") + s;
      throw Error("'" + text + "': this case has no linear system '" + name + "' (systems: " + all + ")");
    }
  }
  return {"", text};
}

}  // namespace tb::harness
