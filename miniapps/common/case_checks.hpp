#pragma once
// Cross-key checks every miniapp's case makes before the first step
// (MiniappDescription::check_case), each refusal in the one shape of
// CaseConfig::refusal, naming the key, its place and the keys it depends on:
//  - a key that the case's setting ignores (a sphere's radius for an STL
//    body, a matrix-free tolerance with the first-order form) is said to be
//    ignored when it holds anything but its default: a note printed at
//    start-up and kept in summary.json, so that a case file tuned for one
//    setting still runs another, and no value given for nothing goes unsaid;
//  - a magnitude the arithmetic will square and sum (a velocity, a
//    viscosity, a coefficient 1/dt or nu/h^2) must be 0 or within 1e-150 to
//    1e150, so that a value inside a key's range cannot overflow at the first
//    step (a lid speed of 1e300, Re 1e-300);
//  - a grid must fit 32-bit indices and the memory the case is estimated to
//    need must fit the machine's, refused with the keys and the estimate
//    before anything is allocated.
#include <string>
#include <vector>

#include "case_config.hpp"

namespace tb::harness {

// What a case's checks have to say about it without refusing it: each note
// one line, printed by the miniapp at start-up and written to summary.json.
using CaseNotes = std::vector<std::string>;

// Adds "KEY = VALUE (ORIGIN) is ignored: it is BECAUSE" to `notes` when `used`
// is false and the key differs from its default.
void note_if_ignored(const CaseConfig& config, const std::string& key, bool used, const std::string& because,
                     CaseNotes& notes);

// The magnitudes that double precision squares and sums without overflow or
// underflow, whatever the grid: 0, or 1e-150 to 1e150.
inline constexpr double least_magnitude = 1e-150, largest_magnitude = 1e150;

// Refuses `key` unless |value| is 0 or within [least_magnitude,
// largest_magnitude]; `what` names the quantity ("the lid speed |u|",
// "nu / h^2 of the smallest cell"), `with` the other keys it depends on.
void require_magnitude(const CaseConfig& config, const std::string& key, const std::string& what, double value,
                       const std::vector<std::string>& with = {});

// "grid.nx = 32 (the default) x grid.ny = 64 (--set)": the keys and values a grid refusal names.
std::string keys_and_values(const CaseConfig& config, const std::vector<std::string>& keys, const std::string& sep);

// The memory the run may use: this machine's (MemTotal of /proc/meminfo) times
// the nodes of the run (ranks over ranks on this node), or TB_MEMORY_LIMIT_MB
// mebibytes where set (a positive integer). Bytes.
double run_memory_bytes();

// Refuses `key` when the grid that `grid` describes (the keys that make it,
// with their values: "grid.nx = 32 (the default) x grid.ny = 64 (--set)") has
// `cells` cells, not fewer than `max_cells` (32-bit indices of the physics'
// unknowns), or when `cells` times `bytes_per_cell` (the peak resident memory
// per cell the miniapp was measured at) plus `fixed_bytes` exceeds
// run_memory_bytes(); before anything is allocated for it.
void require_grid_fits(const CaseConfig& config, const std::string& key, const std::string& grid, double cells,
                       double max_cells, double bytes_per_cell, double fixed_bytes = 64e6);

}  // namespace tb::harness
