#include "run_report.hpp"

#include <cmath>
#include <fstream>
#include <sstream>
#include <unistd.h>

#include "solvers/core/atomic_file.hpp"
#include "solvers/core/backend.hpp"
#include "solvers/core/json.hpp"
#include "step_table.hpp"

#ifndef TB_GIT_COMMIT
#define TB_GIT_COMMIT "unknown"
#endif

namespace tb::harness {

namespace {

std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("model name", 0) == 0) return line.substr(line.find(':') + 2);
  return "unknown";
}

std::string totals_json(const SolverTotals& t) {
  std::ostringstream o;
  o << "{\"solves\": " << t.solves << ", \"iterations\": " << t.iterations << ", \"failures\": " << t.failures
    << ", \"setup_seconds\": " << json::number(t.setup_seconds) << ", \"solve_seconds\": " << json::number(t.solve_seconds)
    << "}";
  return o.str();
}

}  // namespace

std::string machine_json() {
  char host[256] = {};
  ::gethostname(host, sizeof host - 1);
  std::ostringstream o;
  o << "{\"hostname\": " << json::quote(host) << ", \"cpu\": " << json::quote(cpu_model())
    << ", \"threads\": " << host_threads() << ", \"gpu\": " << json::quote(cuda_device_name()) << "}";
  return o.str();
}

void write_summary(const std::filesystem::path& out_dir, const LoopSettings& s, const CaseConfig& config,
                   const RunResult& r) {
  std::ostringstream o;
  o << "{\n  \"app\": " << json::quote(s.app) << ",\n  \"git_commit\": " << json::quote(TB_GIT_COMMIT)
    << ",\n  \"machine\": " << machine_json() << ",\n  \"steps\": " << r.last_step
    << ",\n  \"steady_state_reached\": " << (r.steady ? "true" : "false")
    << ",\n  \"wall_seconds\": " << json::number(r.wall_seconds) << ",\n  \"solvers\": {";
  bool first = true;
  for (const auto& [system, spec] : s.driver_specs) {
    o << (first ? "" : ", ") << json::quote(system) << ": " << json::quote(spec);
    first = false;
  }
  o << "},\n  \"shadows\": [";
  for (std::size_t i = 0; i < s.shadows.size(); ++i)
    o << (i ? ", " : "") << json::quote((s.shadows[i].system.empty() ? "" : s.shadows[i].system + "=") + s.shadows[i].spec);
  o << "],\n  \"totals\": {";
  first = true;
  for (const auto& [name, t] : r.totals) {
    o << (first ? "\n    " : ",\n    ") << json::quote(name) << ": " << totals_json(t);
    first = false;
  }
  o << "\n  },\n  \"figures_of_merit\": {";
  for (std::size_t i = 0; i < r.figures_of_merit.size(); ++i)
    o << (i ? ", " : "") << json::quote(r.figures_of_merit[i].first) << ": " << json::number(r.figures_of_merit[i].second);
  o << "},\n  \"case\": " << json::quote(config.to_toml()) << "\n}\n";
  write_file_atomically((out_dir / "summary.json").string(), o.str());
}

void write_ab_report(const std::filesystem::path& dir, const std::string& mode, const std::vector<StudyRow>& rows) {
  std::ostringstream md, csv, js;
  md << "# Solver study (" << mode << ")\n\n"
     << "| label | solver | solves | iterations | failures | setup s | solve s | steps | steady | wall s |\n"
     << "|---|---|---:|---:|---:|---:|---:|---:|---|---:|\n";
  csv << "label,solver,solves,iterations,failures,setup_s,solve_s,steps,steady,wall_s\n";
  js << "{\"mode\": " << json::quote(mode) << ", \"rows\": [";
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const StudyRow& r = rows[i];
    const SolverTotals& t = r.totals;
    char line[512];
    std::snprintf(line, sizeof line, "| %s | `%s` | %ld | %ld | %ld | %.4g | %.4g | %ld | %s | %s |\n", r.label.c_str(),
                  r.spec.c_str(), t.solves, t.iterations, t.failures, t.setup_seconds, t.solve_seconds, r.steps,
                  r.steady ? "yes" : "no", std::isnan(r.wall_seconds) ? "-" : format_number(r.wall_seconds).c_str());
    md << line;
    csv << csv_field(r.label) << "," << csv_field(r.spec) << "," << t.solves << "," << t.iterations << "," << t.failures
        << "," << format_number(t.setup_seconds) << "," << format_number(t.solve_seconds) << "," << r.steps << ","
        << (r.steady ? "true" : "false") << "," << format_number(r.wall_seconds) << "\n";
    js << (i ? ", " : "") << "{\"label\": " << json::quote(r.label) << ", \"solver\": " << json::quote(r.spec)
       << ", \"totals\": " << totals_json(t) << ", \"steps\": " << r.steps
       << ", \"steady\": " << (r.steady ? "true" : "false") << ", \"wall_seconds\": " << json::number(r.wall_seconds)
       << "}";
  }
  js << "]}\n";
  write_file_atomically((dir / "ab_report.md").string(), md.str());
  write_file_atomically((dir / "ab_report.csv").string(), csv.str());
  write_file_atomically((dir / "ab_report.json").string(), js.str());
}

}  // namespace tb::harness
