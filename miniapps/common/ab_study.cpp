#include "ab_study.hpp"

#include <cmath>
#include <cstdio>

#include "loop_settings.hpp"
#include "solvers/factory/solver_communicator.hpp"

namespace tb::harness {

namespace fs = std::filesystem;

// Shadows are labelled "<label>/shadow-<i>", each with its own totals over every system.
std::vector<StudyRow> study_rows(const std::string& label, const LoopSettings& s,
                                 const std::vector<std::string>& shadow_texts, const RunResult& r) {
  std::vector<StudyRow> rows(1 + shadow_texts.size());
  rows[0] = {label, join_specs(s.driver_specs), {}, r.last_step, r.steady, r.wall_seconds, {}};
  Outcome& o = rows[0].outcome;
  o.found = !r.last_residuals.empty();
  for (const auto& [name, value] : r.last_residuals) o.residuals.emplace_back("res:" + name, value);
  o.figures = r.figures_of_merit;
  o.linear_seconds = r.split[systems::Account::linear_setup] + r.split[systems::Account::linear_solve];
  for (std::size_t i = 0; i < shadow_texts.size(); ++i)
    rows[i + 1] = {
        label + "/shadow-" + std::to_string(i + 1), shadow_texts[i], {}, r.last_step, r.steady, std::nan(""), {}};
  for (const auto& [name, t] : r.totals) {
    std::size_t row = 0;
    if (name.rfind("shadow", 0) == 0) row = std::stoul(name.substr(6));
    SolverTotals& into = rows.at(row).totals;
    into.solves += t.solves, into.iterations += t.iterations, into.failures += t.failures, into.at_limit += t.at_limit;
    into.setup_seconds += t.setup_seconds, into.solve_seconds += t.solve_seconds;
  }
  return rows;
}

// One simulation per specification, each from the same initial state.
int run_independent_study(const MiniappDescription& app, const CaseConfig& base, const RunOptions& o,
                          const fs::path& out_dir, const std::vector<std::string>& notes) {
  std::vector<StudyRow> rows;
  bool failed = false;
  for (std::size_t k = 0; k <= o.ab.size(); ++k) {
    CaseConfig config = base;
    std::string label = "baseline";
    if (k > 0) {
      label = "ab-" + std::to_string(k);
      const StudySpec study = parse_study_spec(o.ab[k - 1], app.systems);
      for (const auto& system : app.systems)
        if (study.system.empty() || study.system == system) config.set("solver." + system, study.spec, "--ab");
    }
    LoopSettings s = settings_from(app, config, o, out_dir / label);
    s.notes = notes;
    std::printf("  [%s] %s\n", label.c_str(), join_specs(s.driver_specs).c_str());
    std::fflush(stdout);
    auto sim = app.make(config);
    const RunResult r = run_time_loop(*sim, config, s);
    const std::vector<StudyRow> run_rows = study_rows(label, s, o.shadow, r);
    if (!r.stop_reason.empty())
      std::fprintf(stderr, "%s: [%s] stopped: %s\n", app.name.c_str(), label.c_str(), r.stop_reason.c_str());
    failed = failed || run_rows.front().totals.failures > 0 || !r.stop_reason.empty();
    rows.insert(rows.end(), run_rows.begin(), run_rows.end());
  }
  if (solver_communicator()->rank() == 0)
    write_ab_report(out_dir, o.shadow.empty() ? "independent" : "independent, with shadows", rows);
  std::printf("A/B report: %s\n", (out_dir / "ab_report.md").c_str());
  return failed ? 1 : 0;
}

}  // namespace tb::harness
