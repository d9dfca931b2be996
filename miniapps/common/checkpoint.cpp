#include "checkpoint.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>

#include "solvers/core/atomic_file.hpp"
#include "solvers/core/build_commit.hpp"
#include "solvers/core/byte_buffer.hpp"
#include "solvers/core/error.hpp"
#include "step_table.hpp"
#define XXH_INLINE_ALL  // header-only: nothing to link
#include <xxhash.h>

namespace tb::harness {

namespace {

// Version 3 added the checksum, the program version and the case digest,
// version 4 the step guard's record. Versions 1 and 2 (no checksum) are
// recognised and refused: nothing in them can be verified.
constexpr std::string_view magic = "tb-checkpoint 4\n";
constexpr std::size_t checksum_bytes = sizeof(std::uint64_t);

// Versions 1 and 2 began with the length-prefixed text "tb-checkpoint 1" or "... 2".
bool is_unverifiable_old_format(std::string_view bytes) {
  const std::string_view old = "tb-checkpoint ";
  if (bytes.size() < sizeof(std::uint64_t) + old.size() + 1) return false;
  return bytes.substr(sizeof(std::uint64_t), old.size()) == old;
}

}  // namespace

std::uint64_t case_digest(const CaseConfig& config) {
  // Over the values as the case reads them, not the text of to_toml(): that
  // text is no fixed point of writing and reading back (a real default "0"
  // is written 0 and read back 0.0, "1e+06" becomes 1000000.0), and --restart
  // reads the case back from DIR/case.toml.
  std::string text;
  for (const CaseKey& k : config.schema().keys()) {
    if (std::find(std::begin(restart_free_keys), std::end(restart_free_keys), k.name) != std::end(restart_free_keys))
      continue;
    std::string value = config.text(k.name);
    if (k.type == KeyType::real) {
      char buf[32];
      value.assign(buf, std::to_chars(buf, buf + sizeof buf, config.real(k.name)).ptr);
    } else if (k.type == KeyType::integer) {
      value = std::to_string(config.integer(k.name));
    }
    text += k.name + "=" + std::to_string(value.size()) + ":" + value + "\n";
  }
  return XXH3_64bits(text.data(), text.size());
}

std::string checkpoint_file(int rank, int ranks) {
  if (ranks <= 1) return "checkpoint.bin";
  return "checkpoint-rank" + std::to_string(rank) + "-of-" + std::to_string(ranks) + ".bin";
}

namespace {

// The rank count of the checkpoints in dir other than `ranks`'s, 0 when there are none.
int other_rank_count(const std::filesystem::path& dir, int ranks) {
  std::error_code ec;
  if (ranks != 1 && std::filesystem::exists(dir / checkpoint_file(), ec)) return 1;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    int r = -1, p = 0;
    if (std::sscanf(name.c_str(), "checkpoint-rank%d-of-%d.bin", &r, &p) == 2 && r == 0 && p != ranks) return p;
  }
  return 0;
}

}  // namespace

void check_checkpoint_exists(const std::filesystem::path& dir, int rank, int ranks, long checkpoint_every) {
  const std::string path = (dir / checkpoint_file(rank, ranks)).string();
  std::error_code ec;
  if (std::filesystem::exists(path, ec)) return;
  if (const int other = other_rank_count(dir, ranks); other > 0)
    throw Error(path + ": no checkpoint for a run on " + std::to_string(ranks) + " rank" + (ranks > 1 ? "s" : "") +
                "; " + dir.string() + " holds the checkpoint of a run on " + std::to_string(other) +
                ", whose partition it keeps: restart it on " + std::to_string(other) + " (mpiexec -n " +
                std::to_string(other) + ")");
  if (checkpoint_every > 0)
    throw Error(path + ": no checkpoint to restart from: the run was stopped before step " +
                std::to_string(checkpoint_every) +
                ", its first (run.checkpoint_every = " + std::to_string(checkpoint_every) + ")");
  throw Error(path + ": no checkpoint to restart from (run with run.checkpoint_every > 0)");
}

namespace {

std::string checkpoint_bytes(const CheckpointHeader& h, const std::string& state) {
  // Length-prefixed strings and raw values in native byte order: an exact
  // round trip of every bit (ByteWriter).
  ByteWriter o;
  o.put_bytes(magic);
  o.put_string(h.app);
  o.put_string(build_commit());
  o.put(h.case_digest);
  o.put(std::int64_t(h.step));
  o.put(h.wall_seconds);
  o.put(std::uint64_t(h.totals.size()));
  for (const auto& [name, t] : h.totals) {
    o.put_string(name);
    o.put(std::int64_t(t.solves)), o.put(std::int64_t(t.iterations)), o.put(std::int64_t(t.failures));
    o.put(std::int64_t(t.at_limit));
    o.put(t.setup_seconds), o.put(t.solve_seconds);
  }
  o.put_string(h.harness_state);
  o.put(std::int64_t(h.guard.checked)), o.put(std::int64_t(h.guard.failed_in_a_row));
  o.put(std::uint64_t(h.guard.reference.size()));
  for (const auto& [name, r] : h.guard.reference) {
    o.put_string(name);
    o.put(r.largest), o.put(std::int64_t(r.first)), o.put(std::int64_t(r.last));
  }
  o.put_string(state);
  o.put(XXH3_64bits(o.bytes().data(), o.bytes().size()));
  return o.take();
}

}  // namespace

void write_checkpoint(const std::filesystem::path& dir, const CheckpointHeader& h, const std::string& state, int rank,
                      int ranks) {
  write_file_atomically((dir / checkpoint_file(rank, ranks)).string(), checkpoint_bytes(h, state));
}

StagedCheckpoint stage_checkpoint(const std::filesystem::path& dir, const CheckpointHeader& h, const std::string& state,
                                  int rank, int ranks) {
  const std::string path = (dir / checkpoint_file(rank, ranks)).string();
  return {stage_file(path, checkpoint_bytes(h, state)), path};
}

void StagedCheckpoint::commit() const { rename_staged(temporary, path); }

namespace {

// Counts and times a run can have made: none negative, no more failures
// than solves, no second of solving beyond the run's wall time.
void check_totals(const ByteReader& in, const std::string& name, const SolverTotals& t, double wall_seconds) {
  const std::string what = "the totals of '" + cut_value(name) + "': ";
  if (t.solves < 0 || t.iterations < 0 || t.failures < 0 || t.at_limit < 0 || t.failures + t.at_limit > t.solves)
    in.fail(what + std::to_string(t.solves) + " solves, " + std::to_string(t.iterations) + " iterations, " +
            std::to_string(t.failures) + " failures, " + std::to_string(t.at_limit) +
            " accepted at their limit (counts of 0 or more, no more failures and solves at their limit than solves)");
  // Both are timed inside the run's wall time; 1 s of slack for the clocks' rounding.
  const double seconds = t.setup_seconds + t.solve_seconds;
  if (!(t.setup_seconds >= 0.0 && t.solve_seconds >= 0.0 && seconds <= wall_seconds + 1.0))
    in.fail(what + format_number(t.setup_seconds) + " s of set-up and " + format_number(t.solve_seconds) +
            " s of solves in a run of " + format_number(wall_seconds) + " s");
}

// The guard's record of a run at step `step`: every step checked, no more
// failed steps in a row than steps, and each reference a magnitude (finite,
// 0 or more) of steps checked, or untaken (a quantity first met after the
// reference steps: 0, of no step).
GuardRecord read_guard_record(ByteReader& in, long step) {
  GuardRecord g;
  g.checked = long(in.get<std::int64_t>("the guard's record"));
  g.failed_in_a_row = long(in.get<std::int64_t>("the guard's record"));
  if (g.checked != step || g.failed_in_a_row < 0 || g.failed_in_a_row > g.checked)
    in.fail("the step guard's record: " + std::to_string(g.checked) + " steps checked, " +
            std::to_string(g.failed_in_a_row) + " failed in a row, at step " + std::to_string(step) +
            " (every step checked, at most that many failed)");
  const auto n = in.get<std::uint64_t>("the number of guard references");
  // Each reference takes at least a length and three numbers.
  if (n > in.left() / (4 * sizeof(std::uint64_t)))
    in.fail(std::to_string(n) + " guard references do not fit in the file");
  for (std::uint64_t i = 0; i < n; ++i) {
    const std::string name = in.get_string("a guard reference's name");
    GuardRecord::Reference r;
    r.largest = in.get<double>("a guard reference");
    r.first = long(in.get<std::int64_t>("a guard reference"));
    r.last = long(in.get<std::int64_t>("a guard reference"));
    const bool untaken = r.first == 0 && r.last == 0 && r.largest == 0.0;
    const bool taken =
        1 <= r.first && r.first <= r.last && r.last <= step && std::isfinite(r.largest) && r.largest >= 0.0;
    if (!untaken && !taken)
      in.fail("the step guard's reference '" + cut_value(name) + "': " + format_number(r.largest) + " in steps " +
              std::to_string(r.first) + "-" + std::to_string(r.last) + " (a finite magnitude of steps 1-" +
              std::to_string(step) + ")");
    g.reference[name] = r;
  }
  return g;
}

}  // namespace

void check_restart_steps(const CheckpointHeader& h, long steps, const std::string& steps_origin,
                         const std::string& path) {
  if (h.step < steps) return;
  throw Error(path + ": the checkpoint is at step " + std::to_string(h.step) +
              " and run.steps = " + std::to_string(steps) + (steps_origin.empty() ? "" : " (" + steps_origin + ")") +
              " leaves no step to run after it: allowed run.steps > " + std::to_string(h.step) + " (--steps N)");
}

void check_restart(const std::filesystem::path& dir, const std::string& app, const CaseConfig& config, int rank,
                   int ranks) {
  check_checkpoint_exists(dir, rank, ranks, config.integer("run.checkpoint_every"));
  CheckpointHeader h;
  read_checkpoint(dir, app, case_digest(config), h, rank, ranks);
  const std::string from = config.origin("run.steps");
  check_restart_steps(h, config.integer("run.steps"), from.empty() ? "the default" : from,
                      (dir / checkpoint_file(rank, ranks)).string());
}

std::string parse_checkpoint(std::string_view bytes, const std::string& path, const std::string& app,
                             CheckpointHeader& h) {
  // Every read is checked against the bytes left (ByteReader), so even a
  // payload that passed the checksum cannot make it read or allocate past them.
  const ByteReader whole(bytes, path + ": not a usable checkpoint");
  if (is_unverifiable_old_format(bytes))
    whole.fail("format version " + std::string(1, bytes[sizeof(std::uint64_t) + 14]) +
               " has no checksum, so nothing in it can be verified; this build reads version 4 only: run the case "
               "again from the start");
  if (bytes.substr(0, magic.size()) == "tb-checkpoint 3\n")
    whole.fail(
        "format version 3, an older build's; this build reads version 4 only: restart with the build that "
        "wrote it, or run the case again from the start");
  if (bytes.substr(0, magic.size()) != magic) whole.fail("wrong header (expected 'tb-checkpoint 4')");
  if (bytes.size() < magic.size() + checksum_bytes) whole.fail("truncated before the checksum");
  const std::string_view body = bytes.substr(0, bytes.size() - checksum_bytes);
  std::uint64_t stored = 0;
  std::memcpy(&stored, bytes.data() + body.size(), checksum_bytes);
  const std::uint64_t computed = XXH3_64bits(body.data(), body.size());
  if (stored != computed)
    whole.fail("checksum mismatch (stored " + format_hex(stored) + ", computed " + format_hex(computed) +
               "): the file is damaged or truncated");

  ByteReader in(body.substr(magic.size()), path + ": not a usable checkpoint");
  h.app = in.get_string("the miniapp name");
  if (h.app != app) in.fail("written by " + h.app + ", not " + app);
  h.program_version = in.get_string("the program version");
  if (h.program_version != build_commit())
    in.fail("written by the build of commit " + h.program_version + ", this is " + build_commit() +
            "; a checkpoint is restored only by the build that wrote it (run the case again, or restart with "
            "that build)");
  h.case_digest = in.get<std::uint64_t>("the case digest");
  h.step = long(in.get<std::int64_t>("the step"));
  if (h.step < 0) in.fail("negative step " + std::to_string(h.step));
  h.wall_seconds = in.get<double>("the wall time");
  if (!(h.wall_seconds >= 0.0 && h.wall_seconds <= max_wall_seconds))
    in.fail("a wall time of " + format_number(h.wall_seconds) + " s, allowed 0 to " + format_number(max_wall_seconds) +
            " s");
  const auto n = in.get<std::uint64_t>("the number of totals");
  // Each total takes at least a length and six numbers.
  if (n > in.left() / (7 * sizeof(std::uint64_t))) in.fail(std::to_string(n) + " totals do not fit in the file");
  h.totals.clear();
  for (std::uint64_t i = 0; i < n; ++i) {
    const std::string name = in.get_string("a total's name");
    SolverTotals t;
    t.solves = long(in.get<std::int64_t>("the totals"));
    t.iterations = long(in.get<std::int64_t>("the totals"));
    t.failures = long(in.get<std::int64_t>("the totals"));
    t.at_limit = long(in.get<std::int64_t>("the totals"));
    t.setup_seconds = in.get<double>("the totals");
    t.solve_seconds = in.get<double>("the totals");
    check_totals(in, name, t, h.wall_seconds);
    h.totals[name] = t;
  }
  h.harness_state = in.get_string("the autopilot state");
  h.guard = read_guard_record(in, h.step);
  std::string state = in.get_string("the physics state");
  if (in.left() != 0) in.fail(std::to_string(in.left()) + " bytes after the physics state");
  return state;
}

std::string read_checkpoint(const std::filesystem::path& dir, const std::string& app, std::uint64_t digest,
                            CheckpointHeader& h, int rank, int ranks) {
  const std::string path = (dir / checkpoint_file(rank, ranks)).string();
  check_checkpoint_exists(dir, rank, ranks);
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(path + ": cannot be opened for reading");
  std::ostringstream bytes;
  bytes << in.rdbuf();
  std::string state = parse_checkpoint(bytes.str(), path, app, h);
  if (h.case_digest != digest) {
    std::string free_keys;
    for (const char* key : restart_free_keys) free_keys += (free_keys.empty() ? "" : ", ") + std::string(key);
    throw Error(path + ": not a usable checkpoint: written for another case (digest " + format_hex(h.case_digest) +
                ", this case " + format_hex(digest) + "); a restart may change only " + free_keys);
  }
  return state;
}

}  // namespace tb::harness
