#pragma once
// tb-bench-parilut's selection study (seed 003 §V-B, Fig. 8-9): exact and
// approximate Sampleselect of rank n/3 against std::nth_element, on the host
// and, with a CUDA device, on the device with the data already there.
#include <string>
#include <vector>

#include "solvers/core/json_writer.hpp"

namespace tb::bench {

struct SelectRow {
  std::string where;  // "host" (OpenMP) or "cuda" (DeviceSampleSelect)
  long long n = 0;
  int distinct = 0;
  double exact_s = 0, approx_s = 0;
  double nth_element_s = 0;       // host std::nth_element, the baseline (host rows)
  double approx_rank_excess = 0;  // (elements below the threshold - (k + 1)) / n
  bool agrees = true;             // cuda rows: exact == std::nth_element, approx == the host's approx
};

struct SelectionStudy {
  std::vector<SelectRow> rows;
  bool gpu_run = false;
  std::string gpu_note;  // the device, or why the GPU rows were not run; sizes that failed
};

// Host rows for host_sizes; cuda rows for gpu_sizes when a device is visible.
SelectionStudy run_selection_study(const std::vector<long long>& host_sizes, const std::vector<long long>& gpu_sizes,
                                   int reps);

void print(const SelectionStudy& s);
void write(JsonWriter& j, const SelectionStudy& s);
std::string markdown(const SelectionStudy& s);

}  // namespace tb::bench
