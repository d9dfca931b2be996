#include "run_report.hpp"

#include <cmath>
#include <cstdio>
#include <sstream>

#include "solvers/core/atomic_file.hpp"
#include "solvers/core/json_writer.hpp"
#include "solvers/core/machine.hpp"
#include "solvers/core/threading.hpp"
#include "step_table.hpp"

namespace tb::harness {

namespace {

void write_totals(JsonWriter& w, std::string_view key, const SolverTotals& t) {
  w.begin_object(key)
      .value("solves", (long long)t.solves)
      .value("iterations", (long long)t.iterations)
      .value("failures", (long long)t.failures)
      .value("setup_seconds", t.setup_seconds)
      .value("solve_seconds", t.solve_seconds)
      .end_object();
}

}  // namespace

void write_summary(const std::filesystem::path& out_dir, const LoopSettings& s, const CaseConfig& config,
                   const RunResult& r) {
  JsonWriter w;
  w.begin_object().value("app", s.app);
  write(w, describe_machine());
  w.value("steps", (long long)r.last_step)
      .value("steady_state_reached", r.steady)
      .value("converged", !r.unconverged && r.stop_reason.empty())
      .value("stop_reason", r.stop_reason)
      .value("wall_seconds", r.wall_seconds)
      .value("threads", threading::describe());
  // Where the time of this run's steps went (seconds, summed over its steps).
  w.begin_object("time_split")
      .value("steps", r.split.steps)
      .value("linear_setup", r.split.linear_setup)
      .value("linear_solve", r.split.linear_solve)
      .value("shadow_solvers", r.split.shadow)
      .value("physics", r.split.physics())
      .value("harness", r.split.harness)
      .value("output", r.split.output)
      .end_object();
  w.begin_object("solvers");
  for (const auto& [system, spec] : s.driver_specs) w.value(system, spec);
  w.end_object().begin_array("shadows");
  for (const auto& sh : s.shadows) w.value("", sh.system.empty() ? sh.spec : sh.system + "=" + sh.spec);
  w.end_array().begin_object("totals");
  for (const auto& [name, t] : r.totals) write_totals(w, name, t);
  w.end_object().begin_object("figures_of_merit");
  for (const auto& [name, value] : r.figures_of_merit) w.value(name, value);
  w.end_object().value("case", config.to_toml()).end_object();
  w.save((out_dir / "summary.json").string());
}

void write_ab_report(const std::filesystem::path& dir, const std::string& mode, const std::vector<StudyRow>& rows) {
  std::ostringstream md, csv;
  JsonWriter js;
  md << "# Solver study (" << mode << ")\n\n"
     << "| label | solver | solves | iterations | failures | setup s | solve s | steps | steady | wall s |\n"
     << "|---|---|---:|---:|---:|---:|---:|---:|---|---:|\n";
  csv << "label,solver,solves,iterations,failures,setup_s,solve_s,steps,steady,wall_s\n";
  js.begin_object().value("mode", mode).begin_array("rows");
  for (const StudyRow& r : rows) {
    const SolverTotals& t = r.totals;
    char wall[32] = "-";
    if (!std::isnan(r.wall_seconds)) std::snprintf(wall, sizeof wall, "%.4g", r.wall_seconds);
    char numbers[256];
    std::snprintf(numbers, sizeof numbers, "%ld | %ld | %ld | %.4g | %.4g | %ld | %s | %s", t.solves, t.iterations,
                  t.failures, t.setup_seconds, t.solve_seconds, r.steps, r.steady ? "yes" : "no", wall);
    md << "| " << r.label << " | `" << r.spec << "` | " << numbers << " |\n";
    csv << csv_field(r.label) << "," << csv_field(r.spec) << "," << t.solves << "," << t.iterations << "," << t.failures
        << "," << format_number(t.setup_seconds) << "," << format_number(t.solve_seconds) << "," << r.steps << ","
        << (r.steady ? "true" : "false") << "," << format_number(r.wall_seconds) << "\n";
    js.begin_object().value("label", r.label).value("solver", r.spec);
    write_totals(js, "totals", t);
    js.value("steps", (long long)r.steps).value("steady", r.steady).value("wall_seconds", r.wall_seconds).end_object();
  }
  js.end_array().end_object();
  write_file_atomically((dir / "ab_report.md").string(), md.str());
  write_file_atomically((dir / "ab_report.csv").string(), csv.str());
  js.save((dir / "ab_report.json").string());
}

}  // namespace tb::harness
