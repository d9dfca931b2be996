#pragma once
// The command line every miniapp shares:
//   tb-<app> [CASE.toml] [--out DIR] [--set key=value]... [--steps N]
//            [--ab SPEC]... [--shadow SPEC]... [--restart DIR] [--dump-systems STEPS]
//            [--backend host|cuda]
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tb::harness {

struct RunOptions {
  std::string case_file;
  std::string out_dir;
  std::vector<std::pair<std::string, std::string>> sets;
  std::optional<long> steps;
  std::optional<std::string> backend;  // --backend: run.backend
  std::vector<std::string> ab;         // independent runs, one per spec
  std::vector<std::string> shadow;     // solved beside the driver on identical systems
  std::string restart_dir;
  std::vector<long> dump_steps;
  bool help = false;
};

// Throws tb::Error naming the option on bad usage.
RunOptions parse_command_line(int argc, const char* const* argv);
std::string command_line_usage(const std::string& app);

// "[system=]SPEC": a study spec applies to one named system or, without a
// prefix, to every system of the case.
struct StudySpec {
  std::string system;  // empty: all systems
  std::string spec;
};
StudySpec parse_study_spec(const std::string& text, const std::vector<std::string>& systems);

}  // namespace tb::harness
