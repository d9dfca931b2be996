#include "loop_settings.hpp"

#include "domain_sharing.hpp"
#include "solvers/factory/partitioned_solver.hpp"

namespace tb::harness {

namespace fs = std::filesystem;

LoopSettings settings_from(const MiniappDescription& app, const CaseConfig& config, const RunOptions& o,
                           const fs::path& out_dir) {
  LoopSettings s;
  s.app = app.name;
  s.out_dir = out_dir;
  s.steps = config.integer("run.steps");
  s.output_every = config.integer("run.output_every");
  s.checkpoint_every = config.integer("run.checkpoint_every");
  s.progress = config.boolean("run.progress");
  s.checksums = config.boolean("run.checksums");
  s.guard.max_growth = config.real("run.max_growth");
  s.guard.max_failed_steps = config.integer("run.max_failed_steps");
  s.decomposed = decomposed_run(app, config);
  s.rank = run_rank();
  s.ranks = run_ranks();
  for (const auto& system : app.systems) {
    const std::string& spec = config.text("solver." + system);
    s.driver_specs[system] = s.decomposed ? partitioned_form(spec, s.ranks) : spec;
  }
  for (const auto& text : o.shadow) s.shadows.push_back(parse_study_spec(text, app.systems));
  s.dump_steps = o.dump_steps;
  s.writes_files = s.rank == 0;
  return s;
}

bool decomposed_run(const MiniappDescription& app, const CaseConfig& config) {
  return app.decomposes && run_ranks() > 1 && config.boolean("run.decompose");
}

std::string join_specs(const std::map<std::string, std::string>& specs) {
  std::string s;
  for (const auto& [system, spec] : specs) s += (s.empty() ? "" : "; ") + system + "=" + spec;
  return s;
}

}  // namespace tb::harness
