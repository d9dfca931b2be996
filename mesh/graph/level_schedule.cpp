#include "mesh/graph/level_schedule.hpp"

#include <algorithm>

namespace tb {
namespace {

LevelSchedule group_by_level(std::vector<index_t> level) {
  LevelSchedule s;
  const index_t levels = level.empty() ? 0 : *std::max_element(level.begin(), level.end()) + 1;
  s.level_ptr.assign(levels + 1, 0);
  for (index_t l : level) ++s.level_ptr[l + 1];
  for (index_t l = 0; l < levels; ++l) s.level_ptr[l + 1] += s.level_ptr[l];
  s.rows.resize(level.size());
  std::vector<index_t> next(s.level_ptr.begin(), s.level_ptr.end() - 1);
  for (index_t i = 0; i < static_cast<index_t>(level.size()); ++i) s.rows[next[level[i]]++] = i;
  s.level = std::move(level);
  return s;
}

}  // namespace

LevelSchedule lower_level_schedule(index_t n, const index_t* row_ptr, const index_t* col_idx) {
  std::vector<index_t> level(n, 0);
  for (index_t i = 0; i < n; ++i)
    for (index_t k = row_ptr[i]; k < row_ptr[i + 1]; ++k)
      if (col_idx[k] < i) level[i] = std::max(level[i], level[col_idx[k]] + 1);
  return group_by_level(std::move(level));
}

LevelSchedule upper_level_schedule(index_t n, const index_t* row_ptr, const index_t* col_idx) {
  std::vector<index_t> level(n, 0);
  for (index_t i = n - 1; i >= 0; --i)
    for (index_t k = row_ptr[i]; k < row_ptr[i + 1]; ++k)
      if (col_idx[k] > i) level[i] = std::max(level[i], level[col_idx[k]] + 1);
  return group_by_level(std::move(level));
}

LevelSchedule lower_level_schedule(const Graph& g) {
  return lower_level_schedule(g.size(), g.row_ptr.data(), g.col_idx.data());
}

}  // namespace tb
