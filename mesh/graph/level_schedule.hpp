#pragma once
// Level schedules for sparse triangular solves (seed 001 §1): row i of a lower
// triangular factor can be eliminated once every row j < i it couples to is
// done, so rows of equal level run in parallel.
#include <vector>

#include "mesh/graph/graph.hpp"

namespace tb {

struct LevelSchedule {
  std::vector<index_t> level;         // per row
  std::vector<index_t> level_ptr{0};  // rows of level l: rows[level_ptr[l] .. level_ptr[l+1])
  std::vector<index_t> rows;          // by level, increasing row number within a level
  index_t num_levels() const { return static_cast<index_t>(level_ptr.size()) - 1; }
};

// Forward (lower) solve: dependencies are the entries with column < row.
LevelSchedule lower_level_schedule(index_t n, const index_t* row_ptr, const index_t* col_idx);
// Backward (upper) solve: dependencies are the entries with column > row.
LevelSchedule upper_level_schedule(index_t n, const index_t* row_ptr, const index_t* col_idx);
// Lower triangle of a graph's pattern in its current numbering.
LevelSchedule lower_level_schedule(const Graph& g);

}  // namespace tb
