#pragma once
// Checkpoints: the physics state plus the harness's running totals, written
// atomically (temporary file, fsync, rename) to DIR/checkpoint.bin, or, in a
// run decomposed over P > 1 ranks, by each rank r to its own
// DIR/checkpoint-rank<r>-of-<P>.bin (its piece's state): such a run restarts
// on P ranks only, and is refused on another count with the count to use.
//
// Format version 4 (docs/harness.md, "Checkpoint and restart"):
//   "tb-checkpoint 4\n"                      magic line
//   payload                                   app, program version, case digest,
//                                             step, wall time, totals, autopilot
//                                             state, the step guard's record,
//                                             physics state
//   XXH3_64bits of everything before it       8 bytes, little-endian
// A checkpoint is restored only when its checksum holds, it names this miniapp
// and this build's commit, and its case digest equals the running case's.
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>

#include "case_config.hpp"
#include "guard_record.hpp"
#include "solvers/systems/solve_record.hpp"

namespace tb::harness {

using systems::SolverTotals;

struct CheckpointHeader {
  std::string app;
  long step = 0;
  double wall_seconds = 0.0;                   // wall time of the run so far
  std::map<std::string, SolverTotals> totals;  // "driver/<system>", "shadow<i>/<system>"
  std::string harness_state;                   // the autopilots' decision state ("" without)
  GuardRecord guard;                           // the step guard's record of the run
  std::string program_version;                 // the build's commit (build_commit()); set by write_checkpoint
  std::uint64_t case_digest = 0;               // case_digest() of the case that wrote it
};

// The keys a restart may change: what to run and what to write, not what is
// computed. Every other key enters the case digest.
inline constexpr const char* restart_free_keys[] = {"run.steps", "run.progress", "run.output_every",
                                                    "run.checkpoint_every"};

// XXH3_64bits of every key of the case but the restart-free ones, with its
// value as the case reads it (reals and integers by value, so the digest
// survives the round trip through DIR/case.toml that --restart makes).
std::uint64_t case_digest(const CaseConfig& config);

// The file rank `rank` of a run on `ranks` ranks writes (checkpoint.bin on one).
std::string checkpoint_file(int rank = 0, int ranks = 1);

// Throws tb::Error, naming the file, unless `dir` holds the checkpoint rank
// `rank` of a run on `ranks` ranks reads; when it holds one written on another
// rank count, the error names that count; given the run's run.checkpoint_every
// (> 0), it says the run was stopped before its first checkpoint. A restart checks
// it before anything is printed or the mesh split.
void check_checkpoint_exists(const std::filesystem::path& dir, int rank = 0, int ranks = 1, long checkpoint_every = 0);

void write_checkpoint(const std::filesystem::path& dir, const CheckpointHeader& header, const std::string& state,
                      int rank = 0, int ranks = 1);
// The same in two steps (atomic_file.hpp's stage_file, rename_staged): the
// time loop writes a step's row between them, so that the table always holds
// the row of the checkpoint a restart resumes from.
struct StagedCheckpoint {
  std::string temporary, path;
  void commit() const;
};
StagedCheckpoint stage_checkpoint(const std::filesystem::path& dir, const CheckpointHeader& header,
                                  const std::string& state, int rank = 0, int ranks = 1);

// The checkpoint in `bytes` (read from `path`, named in errors): returns the
// physics state and fills `header`. Throws tb::Error naming the path and the
// reason when the bytes are not a version-4 checkpoint, the checksum fails,
// the miniapp or the build differs, the payload does not parse, or its
// counters are no run's (a negative step, a wall time outside 0 to
// max_wall_seconds, negative counts, more failures than solves, more seconds
// of solving than of wall time, a guard that checked other steps than the
// run's or holds a reference that is negative, not finite or of no step
// checked). Does not
// check the case digest (read_checkpoint does). The fuzz target's entry point.
std::string parse_checkpoint(std::string_view bytes, const std::string& path, const std::string& app,
                             CheckpointHeader& header);

// The largest wall time a checkpoint may record (about 32 years): a larger,
// negative or non-finite one is no run's.
inline constexpr double max_wall_seconds = 1e9;

// Refuses (tb::Error naming `path`) a checkpoint at or beyond the run's
// `steps` (run.steps, whose origin `steps_origin` names, or ""): resuming it
// would run nothing, yet report the checkpoint's steps and rewrite the case
// and the summary.
void check_restart_steps(const CheckpointHeader& header, long steps, const std::string& steps_origin,
                         const std::string& path);

// The start-up check of --restart DIR: the checkpoint this rank reads exists,
// is intact and of this case (read_checkpoint), and leaves steps to run
// (check_restart_steps). tb::Error naming the file otherwise.
void check_restart(const std::filesystem::path& dir, const std::string& app, const CaseConfig& config, int rank = 0,
                   int ranks = 1);

// Reads DIR/checkpoint_file(rank, ranks) through parse_checkpoint and refuses
// it, naming the file, when its case digest is not `digest` (the running
// case's). Without that file, but with one written on another rank count, the
// refusal names that count.
std::string read_checkpoint(const std::filesystem::path& dir, const std::string& app, std::uint64_t digest,
                            CheckpointHeader& header, int rank = 0, int ranks = 1);

}  // namespace tb::harness
