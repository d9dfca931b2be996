#include "selection_study.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <random>

#include "../common/timing.hpp"
#include "solvers/core/array.hpp"
#include "solvers/core/backend.hpp"
#include "solvers/core/error.hpp"
#include "solvers/parilut/device_sample_select.hpp"
#include "solvers/parilut/sample_select.hpp"

namespace tb::bench {

namespace {

constexpr int distinct_counts[] = {16, 1 << 30};

std::vector<double> random_values(long long n, int distinct) {
  std::mt19937_64 gen(std::uint64_t(n) + std::uint64_t(distinct));
  std::uniform_int_distribution<int> d(0, distinct - 1);
  std::vector<double> v(static_cast<std::size_t>(n));
  for (double& e : v) e = double(d(gen)) / distinct;
  return v;
}

// ParILUT drops about a third after an add.
std::size_t rank_asked(long long n) { return std::size_t(n / 3); }

double excess(const parilut::Selection& s, std::size_t k, long long n) { return double(s.below - (k + 1)) / double(n); }

SelectRow host_row(long long n, int distinct, int reps) {
  const std::vector<double> v = random_values(n, distinct);
  const std::size_t k = rank_asked(n);
  SelectRow r;
  r.where = "host", r.n = n, r.distinct = distinct;
  r.exact_s = best_seconds(reps, [&] { parilut::sample_select(v, k); });
  r.approx_s = best_seconds(reps, [&] { parilut::sample_select_approx(v, k); });
  r.nth_element_s = best_seconds(reps, [&] { parilut::quick_select(v, k); });
  r.approx_rank_excess = excess(parilut::sample_select_approx(v, k), k, n);
  return r;
}

// Data on the device and the workspace allocated before the clock starts;
// every call ends in a blocking copy of its last counts or remainder, so wall
// time is synchronised time.
SelectRow cuda_row(long long n, int distinct, int reps) {
  const std::vector<double> v = random_values(n, distinct);
  const std::size_t k = rank_asked(n);
  parilut::DeviceSampleSelect select(std::size_t(v.size()));
  const Vector d(Backend::cuda, std::span<const double>(v));
  SelectRow r;
  r.where = "cuda", r.n = n, r.distinct = distinct;
  r.exact_s = best_seconds(reps, [&] { select.exact(d, k); });
  r.approx_s = best_seconds(reps, [&] { select.approx(d, k); });
  const parilut::Selection exact = select.exact(d, k), approx = select.approx(d, k);
  const parilut::Selection host_approx = parilut::sample_select_approx(v, k);
  r.agrees = exact.value == parilut::quick_select(v, k).value && approx.value == host_approx.value &&
             approx.below == host_approx.below;
  r.approx_rank_excess = excess(approx, k, n);
  return r;
}

const SelectRow* host_baseline(const SelectionStudy& s, const SelectRow& r) {
  for (const SelectRow& h : s.rows)
    if (h.where == "host" && h.n == r.n && h.distinct == r.distinct) return &h;
  return nullptr;
}

std::string fmt(const char* format, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

// nth_element's time over the row's (the same n and values, measured in this run).
std::string ratio(const SelectionStudy& s, const SelectRow& r, double seconds) {
  const SelectRow* h = host_baseline(s, r);
  return h ? fmt("%.2f", h->nth_element_s / seconds) : std::string("-");
}

double per_second(const SelectRow& r, double seconds) { return double(r.n) / seconds; }

}  // namespace

SelectionStudy run_selection_study(const std::vector<long long>& host_sizes, const std::vector<long long>& gpu_sizes,
                                   int reps) {
  SelectionStudy s;
  for (long long n : host_sizes)
    for (int distinct : distinct_counts) s.rows.push_back(host_row(n, distinct, reps));
  const std::string unavailable = cuda_unavailable_reason();
  if (!unavailable.empty()) {
    s.gpu_note = "GPU rows not run: " + unavailable;
    return s;
  }
  s.gpu_run = true;
  s.gpu_note = "GPU rows on " + cuda_device_name();
  for (long long n : gpu_sizes) try {
      for (int distinct : distinct_counts) s.rows.push_back(cuda_row(n, distinct, reps));
    } catch (const Error& e) {  // the largest size may not fit the device
      s.gpu_note += "; n = " + std::to_string(n) + " not run: " + e.what();
    }
  return s;
}

void print(const SelectionStudy& s) {
  std::printf(
      "Selection of rank n/3 (best of reps; x nth = host std::nth_element time / this time; cuda rows on the "
      "GPU, data already there)\n");
  std::printf("%5s %10s %10s %10s %9s %10s %9s %10s %9s %9s %9s %6s\n", "where", "n", "distinct", "exact ms", "Melem/s",
              "approx ms", "Melem/s", "nth ms", "x nth ex", "x nth ap", "excess %", "agree");
  for (const SelectRow& r : s.rows)
    std::printf("%5s %10lld %10d %10.3f %9.1f %10.3f %9.1f %10s %9s %9s %9.4f %6s\n", r.where.c_str(), r.n, r.distinct,
                r.exact_s * 1e3, per_second(r, r.exact_s) * 1e-6, r.approx_s * 1e3, per_second(r, r.approx_s) * 1e-6,
                r.where == "host" ? fmt("%.3f", r.nth_element_s * 1e3).c_str() : "-", ratio(s, r, r.exact_s).c_str(),
                ratio(s, r, r.approx_s).c_str(), 100 * r.approx_rank_excess,
                r.where == "cuda" ? (r.agrees ? "yes" : "NO") : "-");
  std::printf("%s\n", s.gpu_note.c_str());
}

void write(JsonWriter& j, const SelectionStudy& s) {
  j.begin_object("gpu_selection").value("run", s.gpu_run).value("note", s.gpu_note);
  j.value("timing",
          "cuda rows: data already on the device, workspace allocated before timing, wall time of calls "
          "that end in a blocking copy (synchronised), best of reps after one warm-up");
  j.end_object();
  j.begin_array("selection");
  for (const SelectRow& r : s.rows) {
    j.begin_object()
        .value("where", r.where)
        .value("n", r.n)
        .value("distinct", r.distinct)
        .value("exact_seconds", r.exact_s)
        .value("approx_seconds", r.approx_s)
        .value("exact_elements_per_second", per_second(r, r.exact_s))
        .value("approx_elements_per_second", per_second(r, r.approx_s));
    if (r.where == "host") j.value("nth_element_seconds", r.nth_element_s);
    if (const SelectRow* h = host_baseline(s, r))
      j.value("exact_speedup_over_nth_element", h->nth_element_s / r.exact_s)
          .value("approx_speedup_over_nth_element", h->nth_element_s / r.approx_s);
    j.value("approx_rank_excess_fraction", r.approx_rank_excess);
    if (r.where == "cuda") j.value("agrees_with_host", r.agrees);
    j.end_object();
  }
  j.end_array();
}

std::string markdown(const SelectionStudy& s) {
  std::string md = "## Selection of rank n/3 (seed 003 Fig. 8)\n\n";
  md += "Best of reps. `x nth` = host `std::nth_element` time / the row's time (same n and values, this run). ";
  md += "`cuda` rows run on the GPU with the data already there; `host` rows on the CPU.\n\n";
  md +=
      "| where | n | distinct | exact ms | exact Melem/s | approx ms | approx Melem/s | nth_element ms | x nth exact "
      "| x nth approx | approx excess % | agrees |\n";
  md += "|---|---|---|---|---|---|---|---|---|---|---|---|\n";
  for (const SelectRow& r : s.rows)
    md += "| " + r.where + " | " + std::to_string(r.n) + " | " + std::to_string(r.distinct) + " | " +
          fmt("%.3f", r.exact_s * 1e3) + " | " + fmt("%.1f", per_second(r, r.exact_s) * 1e-6) + " | " +
          fmt("%.3f", r.approx_s * 1e3) + " | " + fmt("%.1f", per_second(r, r.approx_s) * 1e-6) + " | " +
          (r.where == "host" ? fmt("%.3f", r.nth_element_s * 1e3) : std::string("-")) + " | " + ratio(s, r, r.exact_s) +
          " | " + ratio(s, r, r.approx_s) + " | " + fmt("%.4f", 100 * r.approx_rank_excess) + " | " +
          (r.where == "cuda" ? (r.agrees ? "yes" : "NO") : "-") + " |\n";
  md += "\n" + s.gpu_note + ".\n";
  return md;
}

}  // namespace tb::bench
