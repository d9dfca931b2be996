#include "run_report.hpp"

#include <algorithm>
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
      .value("accepted_at_limit", (long long)t.at_limit)
      .value("setup_seconds", t.setup_seconds)
      .value("solve_seconds", t.solve_seconds)
      .end_object();
}

double lookup(const std::vector<std::pair<std::string, double>>& v, const std::string& key) {
  for (const auto& [k, x] : v)
    if (k == key) return x;
  return std::nan("");
}

std::string short_number(double v) {
  if (std::isnan(v)) return "-";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g", v);
  return buf;
}

std::string signed_number(double v) {
  if (std::isnan(v)) return "-";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%+.3g", v);
  return buf;
}

// The physics each driving run ended with: the report's second table. A
// figure's difference from the first run (the baseline) is in brackets.
void write_outcome_table(std::ostringstream& md, const std::vector<StudyRow>& rows,
                         const std::vector<Outcome>& outcomes, const std::vector<std::string>& residual_names,
                         const std::vector<std::string>& figure_names, const Outcome* baseline) {
  if (!baseline) return;
  md << "\n## Nonlinear outcome (figures: value (minus the baseline's))\n\n| label | steps | wall s | linear s |";
  for (const auto& n : residual_names) md << " final " << n << " |";
  for (const auto& n : figure_names) md << " " << n << " |";
  md << "\n|---|---:|---:|---:|";
  for (std::size_t k = 0; k < residual_names.size() + figure_names.size(); ++k) md << "---:|";
  md << "\n";
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const Outcome& o = outcomes[i];
    if (!o.found) continue;
    md << "| " << rows[i].label << " | " << rows[i].steps << " | " << short_number(rows[i].wall_seconds) << " | "
       << short_number(o.linear_seconds) << " |";
    for (const auto& n : residual_names) md << " " << short_number(lookup(o.residuals, n)) << " |";
    for (const auto& n : figure_names) {
      const double v = lookup(o.figures, n);
      md << " " << short_number(v);
      if (&o != baseline) md << " (" << signed_number(v - lookup(baseline->figures, n)) << ")";
      md << " |";
    }
    md << "\n";
  }
}

// Per autopilot system: its candidates, the refused ones, the calibration, every
// probe (step, candidate, cost, iterations) and every switch.
void write_autopilots(JsonWriter& w, const std::vector<AutopilotReport>& reports) {
  if (reports.empty()) return;
  w.begin_object("autopilot");
  for (const AutopilotReport& a : reports) {
    w.begin_object(a.system)
        .value("mode", a.spec.deterministic ? "deterministic" : "timed")
        .value("every", (long long)a.spec.every)
        .value("backoff", (long long)a.spec.backoff)
        .value("budget", a.spec.budget)
        .value("budget_share", a.budget_share)
        .value("hysteresis", a.spec.hysteresis)
        .value("drift", a.spec.drift)
        .value("probe_seconds", a.probe_seconds)
        .value("fallbacks", (long long)a.fallbacks)
        .value("fallbacks_from_probes", (long long)a.fallbacks_from_probes)
        .value("krylov_mib", a.krylov_mib)
        .begin_array("candidates");
    for (const auto& c : a.spec.candidates) w.value("", c);
    w.end_array().begin_array("refused");
    for (const auto& c : a.refused) w.value("", c);
    w.end_array();
    if (a.spec.deterministic) {
      w.begin_array("calibration");
      for (std::size_t k = 0; k < a.per_iteration.size(); ++k)
        w.begin_object()
            .value("per_iteration_s", a.per_iteration[k])
            .value("per_update_s", a.per_update[k])
            .value("per_setup_s", a.per_setup[k])
            .end_object();
      w.end_array();
    }
    w.begin_array("probes");
    for (const auto& p : a.probes)
      w.begin_object()
          .value("step", (long long)p.step)
          .value("candidate", (long long)p.candidate + 1)
          .value("cost_s", p.cost)
          .value("iterations", (long long)p.iterations)
          .value("failed", p.failed)
          .value("cut", p.cut)
          .value("missed", p.missed)
          .value("progress", p.progress)
          .value("weight", p.weight)
          .end_object();
    w.end_array().begin_array("switches");
    for (const auto& s : a.switches)
      w.begin_object()
          .value("step", (long long)s.step)
          .value("from", (long long)s.from + 1)
          .value("to", (long long)s.to + 1)
          .value("reason", s.reason)
          .end_object();
    w.end_array().end_object();
  }
  w.end_object();
}

}  // namespace

void write_summary(const std::filesystem::path& out_dir, const LoopSettings& s, const CaseConfig& config,
                   const RunResult& r) {
  JsonWriter w;
  w.begin_object().value("app", s.app);
  // The machine's host_threads as the steps' most, not the count of the
  // moment the summary is written (the team follows the load).
  Machine machine = describe_machine();
  if (r.threads_most > 0) machine.host_threads = r.threads_most;
  write(w, machine);
  w.value("steps", (long long)r.last_step)
      .value("steady_state_reached", r.steady)
      .value("converged", !r.unconverged && r.stop_reason.empty())
      .value("stop_reason", r.stop_reason)
      .value("wall_seconds", r.wall_seconds)
      .value("threads", threading::describe());
  // The host threads the steps ran on, least and most (the policy follows the load).
  w.begin_array("threads_in_steps")
      .value("", (long long)r.threads_least)
      .value("", (long long)r.threads_most)
      .end_array();
  // Where the time of this run's steps went (seconds, summed over its steps).
  w.begin_object("time_split");
  for (const auto& [key, seconds] : r.split.entries()) w.value(key, seconds);
  w.end_object();
  // The copies between host and device memory in the steps, each way (their
  // seconds are time_split's host_to_device and device_to_host).
  w.begin_object("transfers");
  for (const auto& [key, t] : {std::pair{"host_to_device", r.split.accounts.transfers.to_device},
                               std::pair{"device_to_host", r.split.accounts.transfers.to_host}})
    w.begin_object(key)
        .value("copies", (long long)t.copies)
        .value("bytes", (long long)t.bytes)
        .value("seconds", t.seconds)
        .end_object();
  w.end_object();
  // Decomposed: each entry's least and largest over the ranks (the time split above is rank 0's).
  if (!r.split_over_ranks.empty()) {
    w.begin_object("time_split_over_ranks");
    for (const SplitOverRanks& e : r.split_over_ranks)
      w.begin_array(e.entry).value("", e.least).value("", e.largest).end_array();
    w.end_object();
  }
  // This process's memory (rank 0's under mpiexec), MiB: at the start of main()
  // (shared libraries and runtimes), its peak at the end of the steps and at the end.
  w.begin_object("memory")
      .value("ranks", (long long)s.ranks)
      .value("rss_at_start_mib", s.rss_at_start_mib)
      .value("peak_rss_in_steps_mib", r.peak_rss_loop_mib)
      .value("peak_rss_mib", r.peak_rss_mib)
      .end_object();
  w.begin_object("solvers");
  for (const auto& [system, spec] : s.driver_specs) w.value(system, spec);
  w.end_object().begin_array("shadows");
  for (const auto& sh : s.shadows) w.value("", sh.system.empty() ? sh.spec : sh.system + "=" + sh.spec);
  w.end_array().begin_object("totals");
  for (const auto& [name, t] : r.totals) write_totals(w, name, t);
  w.end_object().begin_object("figures_of_merit");
  for (const auto& [name, value] : r.figures_of_merit) w.value(name, value);
  w.end_object();
  write_autopilots(w, r.autopilots);
  // What the start-up checks said of the case without refusing it (keys it ignores).
  w.begin_array("notes");
  for (const auto& note : s.notes) w.value("", note);
  w.end_array();
  w.value("case", config.to_toml()).end_object();
  w.save((out_dir / "summary.json").string());
}

void write_ab_report(const std::filesystem::path& dir, const std::string& mode, const std::vector<StudyRow>& rows) {
  std::vector<Outcome> outcomes;
  for (const StudyRow& r : rows) outcomes.push_back(r.outcome);
  // The columns: every residual and figure any run reported, in first-seen order.
  std::vector<std::string> residual_names, figure_names;
  for (const Outcome& o : outcomes) {
    for (const auto& [k, v] : o.residuals)
      if (std::find(residual_names.begin(), residual_names.end(), k) == residual_names.end())
        residual_names.push_back(k);
    for (const auto& [k, v] : o.figures)
      if (std::find(figure_names.begin(), figure_names.end(), k) == figure_names.end()) figure_names.push_back(k);
  }
  const Outcome* baseline = nullptr;
  for (const Outcome& o : outcomes)
    if (o.found) {
      baseline = &o;
      break;
    }

  std::ostringstream md, csv;
  JsonWriter js;
  md << "# Solver study (" << mode << ")\n\n"
     << "| label | solver | solves | iterations | failures | setup s | solve s | steps | steady | wall s |\n"
     << "|---|---|---:|---:|---:|---:|---:|---:|---|---:|\n";
  csv << "label,solver,solves,iterations,failures,setup_s,solve_s,steps,steady,wall_s,linear_s";
  for (const auto& n : residual_names) csv << "," << csv_field(n);
  for (const auto& n : figure_names) csv << "," << csv_field(n) << "," << csv_field("delta:" + n);
  csv << "\n";
  js.begin_object().value("mode", mode).begin_array("rows");
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const StudyRow& r = rows[i];
    const Outcome& o = outcomes[i];
    const SolverTotals& t = r.totals;
    char wall[32] = "-";
    if (!std::isnan(r.wall_seconds)) std::snprintf(wall, sizeof wall, "%.4g", r.wall_seconds);
    char numbers[256];
    std::snprintf(numbers, sizeof numbers, "%ld | %ld | %ld | %.4g | %.4g | %ld | %s | %s", t.solves, t.iterations,
                  t.failures, t.setup_seconds, t.solve_seconds, r.steps, r.steady ? "yes" : "no", wall);
    md << "| " << r.label << " | `" << r.spec << "` | " << numbers << " |\n";
    csv << csv_field(r.label) << "," << csv_field(r.spec) << "," << t.solves << "," << t.iterations << "," << t.failures
        << "," << format_number(t.setup_seconds) << "," << format_number(t.solve_seconds) << "," << r.steps << ","
        << (r.steady ? "true" : "false") << "," << format_number(r.wall_seconds) << ","
        << format_number(o.linear_seconds);
    for (const auto& n : residual_names) csv << "," << format_number(lookup(o.residuals, n));
    for (const auto& n : figure_names) {
      const double v = lookup(o.figures, n);
      csv << "," << format_number(v) << ","
          << format_number(baseline && o.found ? v - lookup(baseline->figures, n) : std::nan(""));
    }
    csv << "\n";
    js.begin_object().value("label", r.label).value("solver", r.spec);
    write_totals(js, "totals", t);
    js.value("steps", (long long)r.steps).value("steady", r.steady).value("wall_seconds", r.wall_seconds);
    if (o.found) {
      js.begin_object("outcome").value("linear_seconds", o.linear_seconds).begin_object("final_residuals");
      for (const auto& [k, v] : o.residuals) js.value(k, v);
      js.end_object().begin_object("figures_of_merit");
      for (const auto& [k, v] : o.figures) js.value(k, v);
      js.end_object().begin_object("figures_minus_baseline");
      for (const auto& [k, v] : o.figures) js.value(k, v - lookup(baseline->figures, k));
      js.end_object().end_object();
    }
    js.end_object();
  }
  js.end_array().end_object();
  write_outcome_table(md, rows, outcomes, residual_names, figure_names, baseline);
  write_file_atomically((dir / "ab_report.md").string(), md.str());
  write_file_atomically((dir / "ab_report.csv").string(), csv.str());
  js.save((dir / "ab_report.json").string());
}

}  // namespace tb::harness
